package org.apache.hadoop.hbase.rlsm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.master.MasterServices;
import org.apache.hadoop.hbase.master.assignment.SplitTableRegionProcedure;
import org.apache.hadoop.hbase.master.procedure.MasterProcedureEnv;
import org.apache.hadoop.hbase.procedure2.Procedure;
import org.apache.hadoop.hbase.regionserver.HRegionFileSystem;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.regionserver.storefiletracker.StoreFileTrackerFactory;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.yetus.audience.InterfaceAudience;

import org.apache.hadoop.hbase.shaded.protobuf.generated.MasterProcedureProtos.SplitTableRegionState;

/**
 * The last check before a split of a region with an RLSM store is committed in hbase:meta (the
 * split's point of no return): each daughter holds a {@code Reference} to every store file of
 * the parent's RLSM stores, the Level-1 manifest included. Only RLSM's split policy makes the
 * master write those ({@code RlsmRegionSplitPolicy.skipStoreFileRangeCheck}), and HBase's
 * {@code SplitTableRegionProcedure} holds the policy only in the instance that was created for
 * the split request: a procedure that a restarted master resumes from its store, before the
 * daughters were written, has none and splits the files as HFiles (no reference to the manifest,
 * links instead of references). Such daughters cannot open, and after hbase:meta was updated
 * HBase would retry their open without end while the parent stays offline. Failing the split
 * here instead makes HBase roll it back (daughter directories deleted, parent reopened with all
 * its files), and the split can be requested again (docs/architecture.md, "Split and merge").
 */
@InterfaceAudience.Private
final class DaughterCheck {
  private static final int BEFORE_META =
    SplitTableRegionState.SPLIT_TABLE_REGION_PRE_OPERATION_BEFORE_META.getNumber();

  private DaughterCheck() {
  }

  /**
   * Checks every split procedure at the step before hbase:meta is updated whose split row is
   * {@code splitRow} (the master observer's hook does not name the region, and a procedure at
   * that step has written both daughters, so checking another one at the same row is harmless).
   * @throws DoNotRetryIOException naming the first daughter and file missing a reference
   */
  static void check(MasterServices master, Configuration conf, byte[] splitRow)
    throws IOException {
    for (Procedure<MasterProcedureEnv> p : master.getMasterProcedureExecutor().getProcedures()) {
      if (!(p instanceof SplitTableRegionProcedure) || p.isFinished()) {
        continue;
      }
      SplitTableRegionProcedure split = (SplitTableRegionProcedure) p;
      if (
        split.getCurrentStateId() == BEFORE_META
          && Bytes.equals(split.getDaughterTwoRI().getStartKey(), splitRow)
      ) {
        check(master, conf, split.getRegion(),
          List.of(split.getDaughterOneRI(), split.getDaughterTwoRI()));
      }
    }
  }

  private static void check(MasterServices master, Configuration conf, RegionInfo parent,
    List<RegionInfo> daughters) throws IOException {
    TableDescriptor td = master.getTableDescriptors().get(parent.getTable());
    List<ColumnFamilyDescriptor> rlsm = new ArrayList<>();
    for (ColumnFamilyDescriptor f : td == null ? new ColumnFamilyDescriptor[0]
      : td.getColumnFamilies()) {
      if (RlsmTables.usesRlsm(conf, td, f)) {
        rlsm.add(f);
      }
    }
    if (rlsm.isEmpty()) {
      return;
    }
    FileSystem fs = master.getMasterFileSystem().getFileSystem();
    Path tableDir =
      CommonFSUtils.getTableDir(master.getMasterFileSystem().getRootDir(), parent.getTable());
    HRegionFileSystem parentFs =
      HRegionFileSystem.openRegionFromFileSystem(conf, fs, tableDir, parent, true);
    for (ColumnFamilyDescriptor f : rlsm) {
      // the files the split procedure splits: the store's tracked files, references skipped
      // (SplitTableRegionProcedure.splitStoreFiles)
      Collection<StoreFileInfo> files =
        StoreFileTrackerFactory.create(conf, td, f, parentFs).load();
      List<String> missing = new ArrayList<>();
      for (RegionInfo d : daughters) {
        Path dir = new Path(new Path(tableDir, d.getEncodedName()), f.getNameAsString());
        for (StoreFileInfo sfi : files) {
          String ref = sfi.getPath().getName() + "." + parent.getEncodedName();
          if (!sfi.isReference() && !fs.exists(new Path(dir, ref))) {
            missing.add(d.getEncodedName() + "/" + f.getNameAsString() + "/" + ref);
          }
        }
      }
      if (!missing.isEmpty()) {
        throw new DoNotRetryIOException("Split of " + parent.getRegionNameAsString()
          + " rolled back: its daughters lack references to the RLSM store files of family "
          + f.getNameAsString() + " (" + missing + "), so they could not open. The split "
          + "procedure ran without RLSM's split policy, as one does when a restarted master "
          + "resumes it; request the split again");
      }
    }
  }
}
