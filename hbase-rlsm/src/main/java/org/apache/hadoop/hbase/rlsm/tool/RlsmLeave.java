package org.apache.hadoop.hbase.rlsm.tool;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.rlsm.LeaveCheck;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * {@code bin/rlsm-leave TABLE [FAMILY...] [--timeout SECONDS]}: takes families of a live table
 * from RLSM back to HBase's default engine in place (docs/install.md, "Removing RLSM"), while the
 * table keeps serving:
 * <ol>
 * <li>{@link #start}: one alter sets {@value RlsmCompactionConfig#LEAVE_KEY} on the families; their
 * regions reopen, and from then on every compaction rewrites the whole store into one plain HFile
 * and never builds Level-1 again;</li>
 * <li>{@link #awaitReady}: requests a major compaction of each family and waits until every store
 * directory holds only whole files ({@link LeaveCheck#blockers});</li>
 * <li>{@link #finish}: one alter removes the engine key and RLSM's other settings; the master
 * observer checks the store directories again before it lets the alter through.</li>
 * </ol>
 * Each step may be repeated: after a crash of the tool, or of a RegionServer (whose regions
 * reopen in leaving mode and are compacted again), running the command again completes it.
 * Exit code 0 done, 1 failed (the reason is printed), 2 bad command line.
 */
@InterfaceAudience.Private
public final class RlsmLeave {
  /** How often the store directories are looked at while the compactions run. */
  private static final long POLL_MS = 1000;
  /** Polls without a compaction running after which the major compactions are asked again. */
  private static final int IDLE_POLLS_BEFORE_RETRY = 30;
  private static final long DEFAULT_TIMEOUT_S = 3600;

  private RlsmLeave() {
  }

  public static void main(String[] argv) throws Exception {
    System.exit(run(argv, ToolSupport.clientConf(), System.out, System.err));
  }

  static int run(String[] argv, Configuration conf, PrintStream out, PrintStream err)
    throws InterruptedException {
    ToolSupport.Args args;
    try {
      args = new ToolSupport.Args(argv, List.of(), List.of("--timeout"));
      if (args.positional().isEmpty()) {
        throw new ToolSupport.UsageException("no table named");
      }
      long timeoutMs = args.getLong("--timeout", DEFAULT_TIMEOUT_S) * 1000;
      TableName table = TableName.valueOf(args.positional().get(0));
      List<String> families = args.positional().subList(1, args.positional().size());
      try (Connection c = ConnectionFactory.createConnection(conf); Admin admin = c.getAdmin()) {
        leave(admin, conf, table, families, timeoutMs, out);
      }
      return 0;
    } catch (ToolSupport.UsageException e) {
      err.println("rlsm-leave: " + e.getMessage());
      err.println("usage: rlsm-leave TABLE [FAMILY...] [--timeout SECONDS]");
      return 2;
    } catch (IOException | IllegalArgumentException e) {
      err.println("rlsm-leave: failed: " + e.getMessage());
      return 1;
    }
  }

  /** All three steps; {@code families} empty means every RLSM family of the table. */
  public static void leave(Admin admin, Configuration conf, TableName table,
    List<String> families, long timeoutMs, PrintStream out)
    throws IOException, InterruptedException {
    List<String> leaving = start(admin, table, families);
    out.println("rlsm-leave: " + table + " " + leaving + " leaving RLSM; compacting");
    awaitReady(admin, conf, table, leaving, timeoutMs);
    out.println("rlsm-leave: store files of " + table + " " + leaving + " are plain HFiles");
    finish(admin, table, leaving);
    out.println("rlsm-leave: " + table + " " + leaving + " use HBase's default engine");
  }

  /**
   * Step 1: marks the families as leaving (one alter, nothing done when all are already).
   * @return the families, all RLSM families of the table when none were named
   * @throws IllegalArgumentException when a named family does not use RLSM
   */
  public static List<String> start(Admin admin, TableName table, List<String> families)
    throws IOException {
    TableDescriptor td = admin.getDescriptor(table);
    List<String> names = new ArrayList<>(families);
    if (names.isEmpty()) {
      for (ColumnFamilyDescriptor f : td.getColumnFamilies()) {
        if (RlsmTables.usesRlsm(admin.getConfiguration(), td, f)) {
          names.add(f.getNameAsString());
        }
      }
    }
    if (names.isEmpty()) {
      throw new IllegalArgumentException("no family of " + table + " uses RLSM");
    }
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(td);
    boolean changed = false;
    for (String name : names) {
      ColumnFamilyDescriptor f = td.getColumnFamily(Bytes.toBytes(name));
      if (f == null || !RlsmTables.usesRlsm(admin.getConfiguration(), td, f)) {
        throw new IllegalArgumentException("family " + name + " of " + table
          + (f == null ? " does not exist" : " does not use RLSM"));
      }
      if (!LeaveCheck.isLeaving(td, f)) {
        b.modifyColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(f)
          .setConfiguration(RlsmCompactionConfig.LEAVE_KEY, "true").build());
        changed = true;
      }
    }
    if (changed) {
      admin.modifyTable(b.build());
    }
    return names;
  }

  /**
   * Step 2: asks for a major compaction of each family and waits until no store directory of
   * theirs holds a file HBase's default engine must not serve. The major compactions are asked
   * again when none has run for a while (a region that moved or reopened drops its queue).
   * @throws IOException naming what is left when {@code timeoutMs} passes first
   */
  public static void awaitReady(Admin admin, Configuration conf, TableName table,
    List<String> families, long timeoutMs) throws IOException, InterruptedException {
    long deadline = EnvironmentEdgeManager.currentTime() + timeoutMs;
    int idle = IDLE_POLLS_BEFORE_RETRY;
    while (true) {
      List<String> blockers = new ArrayList<>();
      for (String f : families) {
        blockers.addAll(LeaveCheck.blockers(conf, table, f));
      }
      if (blockers.isEmpty()) {
        return;
      }
      if (EnvironmentEdgeManager.currentTime() > deadline) {
        throw new IOException(blockers.size() + " store files of " + table + " " + families
          + " still need the leave compaction after " + timeoutMs / 1000 + " s, e.g. "
          + blockers.get(0) + "; run rlsm-leave again to go on waiting");
      }
      if (admin.getCompactionState(table) != CompactionState.NONE) {
        idle = 0;
      } else if (idle++ >= IDLE_POLLS_BEFORE_RETRY) {
        idle = 0;
        for (String f : families) {
          admin.majorCompact(table, Bytes.toBytes(f));
        }
      }
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        throw (InterruptedIOException) new InterruptedIOException("interrupted while waiting for"
          + " the leave compaction of " + table).initCause(e);
      }
    }
  }

  /**
   * Step 3: the alter that removes the engine key (the family's own, or the table's when it is
   * set there) and the other RLSM settings of the families.
   * @throws IllegalArgumentException when the engine is set for the whole table and not every
   *                                  family relying on that is named
   */
  public static void finish(Admin admin, TableName table, List<String> families)
    throws IOException {
    TableDescriptor td = admin.getDescriptor(table);
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(td);
    if (RlsmConfig.ENGINE_CLASS_NAME.equals(td.getValue(StoreEngine.STORE_ENGINE_CLASS_KEY))) {
      for (ColumnFamilyDescriptor f : td.getColumnFamilies()) {
        if (
          f.getConfigurationValue(StoreEngine.STORE_ENGINE_CLASS_KEY) == null
            && !families.contains(f.getNameAsString())
        ) {
          throw new IllegalArgumentException("the engine key of " + table + " is set for the "
            + "whole table; family " + f.getNameAsString() + " must leave RLSM too: name it, or"
            + " none");
        }
      }
      b.removeValue(StoreEngine.STORE_ENGINE_CLASS_KEY);
      b.removeValue(RlsmCompactionConfig.LEAVE_KEY);
    }
    for (String name : families) {
      b.modifyColumnFamily(
        LeaveCheck.withoutRlsmSettings(td.getColumnFamily(Bytes.toBytes(name))));
    }
    admin.modifyTable(b.build());
  }
}
