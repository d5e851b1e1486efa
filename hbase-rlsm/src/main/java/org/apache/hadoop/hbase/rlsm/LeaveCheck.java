package org.apache.hadoop.hbase.rlsm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.rlsm.file.LeaveReadiness;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.FSUtils;

/**
 * The way out of RLSM (docs/install.md, "Removing RLSM"), on the descriptor side. A family leaves
 * RLSM in two alters: the first sets {@value RlsmCompactionConfig#LEAVE_KEY} (its compactions
 * then rewrite the store into whole plain HFiles and never build Level-1 again), the second,
 * after such a compaction, removes the engine key. {@link #check} is the master's guard on the
 * second: HBase's default engine serves every file of a store whole, and a Level-1 segment can
 * hold rows the manifest hides, so the engine key may go only from a family that is leaving and
 * whose store directories are ready ({@link LeaveReadiness}). Because the family is leaving, no
 * compaction can build Level-1 again between the check and the regions' reopen.
 */
public final class LeaveCheck {
  private LeaveCheck() {
  }

  /** Whether {@code f}'s store is asked to leave RLSM. */
  public static boolean isLeaving(TableDescriptor td, ColumnFamilyDescriptor f) {
    return Boolean.parseBoolean(RlsmTables.effective(td, f, RlsmCompactionConfig.LEAVE_KEY));
  }

  /** Families of {@code next} that use RLSM in {@code current} but not in {@code next}. */
  static List<ColumnFamilyDescriptor> leaving(Configuration conf, TableDescriptor current,
    TableDescriptor next) {
    List<ColumnFamilyDescriptor> out = new ArrayList<>();
    for (ColumnFamilyDescriptor f : next.getColumnFamilies()) {
      ColumnFamilyDescriptor was = current.getColumnFamily(f.getName());
      if (was != null && RlsmTables.usesRlsm(conf, current, was)
        && !RlsmTables.usesRlsm(conf, next, f)) {
        out.add(f);
      }
    }
    return out;
  }

  /**
   * The master's guard on an alter from {@code current} to {@code next}: every family that stops
   * using RLSM must be leaving in {@code current} and have ready store directories; its RLSM
   * settings are then removed ({@link #withoutRlsmSettings}), and when no RLSM family is left, the
   * table's split policy goes back from RLSM's to the one it delegated to.
   * @return {@code next} without the RLSM settings of the families that left
   * @throws DoNotRetryIOException naming the family and what to run instead
   */
  public static TableDescriptor check(Configuration conf, TableDescriptor current,
    TableDescriptor next) throws IOException {
    List<ColumnFamilyDescriptor> leaving = leaving(conf, current, next);
    if (leaving.isEmpty()) {
      return next;
    }
    TableName table = next.getTableName();
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(next);
    for (ColumnFamilyDescriptor f : leaving) {
      String family = f.getNameAsString();
      if (!isLeaving(current, current.getColumnFamily(f.getName()))) {
        throw new DoNotRetryIOException("Family " + family + " of table " + table + " uses "
          + RlsmConfig.ENGINE_CLASS_NAME + "; removing the engine would hand its store to HBase's"
          + " default engine, which would serve rows that RLSM's Level-1 manifest hides. Leave "
          + "RLSM with bin/rlsm-leave " + table + " " + family + " (or: alter the family with "
          + "CONFIGURATION => {'" + RlsmCompactionConfig.LEAVE_KEY + "' => 'true'}, major_compact"
          + " it, then remove the engine key)");
      }
      List<String> blockers = blockers(conf, table, family);
      if (!blockers.isEmpty()) {
        throw new DoNotRetryIOException("Family " + family + " of table " + table + " is "
          + "leaving RLSM, but " + blockers.size() + " store files still need its leave "
          + "compaction, e.g. " + blockers.get(0) + "; run major_compact '" + table + "', '"
          + family + "' and retry when it has finished (bin/rlsm-leave does both)");
      }
      b.modifyColumnFamily(withoutRlsmSettings(f));
    }
    TableDescriptor out = b.build();
    boolean rlsmLeft = false;
    for (ColumnFamilyDescriptor f : out.getColumnFamilies()) {
      rlsmLeft |= RlsmTables.usesRlsm(conf, out, f);
    }
    if (!rlsmLeft && RlsmConfig.RLSM_SPLIT_POLICY_CLASS_NAME.equals(
      out.getRegionSplitPolicyClassName())) {
      // RLSM's split policy is in the RLSM jar: back to the policy it delegated to (null: HBase's)
      b.setRegionSplitPolicyClassName(out.getValue(RlsmConfig.SPLIT_POLICY_KEY));
      b.removeValue(RlsmConfig.SPLIT_POLICY_KEY);
      out = b.build();
    }
    return out;
  }

  /**
   * The files of {@code family}'s store directories, in every region of {@code table}, that keep
   * it from HBase's default engine ({@link LeaveReadiness}); read from the file system of
   * {@code conf}'s {@code hbase.rootdir}.
   */
  public static List<String> blockers(Configuration conf, TableName table, String family)
    throws IOException {
    Path root = CommonFSUtils.getRootDir(conf);
    FileSystem fs = root.getFileSystem(conf);
    Path tableDir = CommonFSUtils.getTableDir(root, table);
    List<String> out = new ArrayList<>();
    if (!fs.exists(tableDir)) {
      return out;
    }
    for (Path region : FSUtils.getRegionDirs(fs, tableDir)) {
      out.addAll(LeaveReadiness.blockers(fs, new Path(region, family), conf));
    }
    return out;
  }

  /**
   * {@code f} without the settings RLSM gave it: every {@code hbase.rlsm.*} key, and the settings
   * {@link RlsmTables#configure} sets (the engine key among them) where they still have its values
   * (the hash memstore is the RLSM jar's, the others are HBase's defaults or harmless). Another
   * engine named, and the family's own attributes (versions, TTL, ...), stay.
   */
  public static ColumnFamilyDescriptor withoutRlsmSettings(ColumnFamilyDescriptor f) {
    ColumnFamilyDescriptorBuilder b = ColumnFamilyDescriptorBuilder.newBuilder(f);
    Map<String, String> added = RlsmTables.familySettings();
    for (Map.Entry<String, String> e : f.getConfiguration().entrySet()) {
      String key = e.getKey();
      if (key.startsWith("hbase.rlsm.") || e.getValue().equals(added.get(key))) {
        b.removeConfiguration(key);
      }
    }
    for (Map.Entry<String, String> e : added.entrySet()) {
      if (e.getValue().equals(f.getValue(e.getKey()))) {
        b.setValue(e.getKey(), null); // set as a family attribute (METADATA); null removes it
      }
    }
    return b.build();
  }
}
