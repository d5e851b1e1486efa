package org.apache.hadoop.hbase.rlsm.snapshot;

import static org.apache.hadoop.hbase.rlsm.snapshot.SnapshotLoad.F;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.regionserver.storefiletracker.StoreFileTrackerFactory;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * RLSM stores under HBase's FILE store-file tracker (the table sets
 * {@code hbase.store.file-tracker.impl} to FILE: no temporary directory, the store's file list is
 * a file HBase rewrites at every flush and compaction commit), against a default-engine twin with
 * the same tracker: load with flushes and compactions into a Level-1 of several partitions, reopen
 * (the layout comes back from the tracked list), snapshot and clone. And a table migrated from
 * the DEFAULT tracker to FILE while its store holds an orphan (a segment of an interrupted
 * compaction): the orphan is archived at open and the tracker forgets it, so later opens work.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmFileTracker {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmFileTracker.class);
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER =
    new RlsmMiniClusterRule(1, RlsmTestCluster::completeRlsmDescriptors);
  private static final HBaseTestingUtility util = CLUSTER.util();

  @Test
  public void fileTrackedStoreFlushesCompactsReopensAndSnapshots() throws Exception {
    Admin admin = util.getAdmin();
    SnapshotLoad.Snapshotted snap = SnapshotLoad.loadAndSnapshot(util,
      RlsmTwinTables.create(util, "sftfile",
        tb -> tb.setValue(StoreFileTrackerFactory.TRACKER_IMPL, "FILE"), SnapshotLoad.FAMILY, F),
      11, 6);
    RlsmTwinTables t = snap.twins;
    assertTrue("FILE tracks the store in a list", util.getTestFileSystem().exists(
      new Path(storeDir(t.rlsm), ".filelist")));
    SnapshotLoad.reopen(util, t.rlsm);
    assertEquals(snap.partitions, RlsmStoreProbe.partitions(SnapshotLoad.store(util, t.rlsm)));
    SnapshotLoad.assertSameUser(util, t.rlsm, t.dflt);

    TableName cloneR = TableName.valueOf("sftclone_rlsm");
    TableName cloneD = TableName.valueOf("sftclone_default");
    admin.cloneSnapshot(snap.rlsmSnapshot, cloneR);
    admin.cloneSnapshot(snap.dfltSnapshot, cloneD);
    assertEquals("FILE", admin.getDescriptor(cloneR).getValue(
      StoreFileTrackerFactory.TRACKER_IMPL));
    assertEquals(snap.partitions, RlsmStoreProbe.partitions(SnapshotLoad.store(util, cloneR)));
    RlsmTwinTables.assertSameCells("raw clone vs source", snap.raw,
      SnapshotLoad.raw(util, cloneR));
    SnapshotLoad.assertSameUser(util, cloneR, cloneD);

    SnapshotLoad.load(util, cloneR, cloneD, 12, 2, snap.nextTs);
    SnapshotLoad.reopen(util, cloneR);
    SnapshotLoad.assertSameUser(util, cloneR, cloneD);
  }

  @Test
  public void migrationToFileTrackerForgetsOrphans() throws Exception {
    RlsmTwinTables t = RlsmTwinTables.create(util, "sftmigrate", SnapshotLoad.FAMILY, F);
    long ts = SnapshotLoad.load(util, t.rlsm, t.dflt, 13, 4, 1);
    SnapshotLoad.assertLevel1(util, t.rlsm);
    // what a crash leaves between a compaction's first output and its manifest: a segment no
    // manifest lists (here a copy of a live one under a new name)
    FileSystem fs = util.getTestFileSystem();
    Path dir = storeDir(t.rlsm);
    Path orphan = null;
    for (FileStatus st : fs.listStatus(dir)) {
      if (orphan == null && st.isFile() && RlsmTestCluster.role(fs, util.getConfiguration(),
        st.getPath()) == FileRole.SEGMENT) {
        orphan = new Path(dir, UUID.randomUUID().toString().replace("-", ""));
        FileUtil.copy(fs, st.getPath(), fs, orphan, false, util.getConfiguration());
      }
    }
    assertTrue("the load wrote a segment", orphan != null);
    // reopens the regions under MIGRATION (the list is made from the directory), then FILE
    util.getAdmin().modifyTableStoreFileTracker(t.rlsm, "FILE");
    util.getAdmin().modifyTableStoreFileTracker(t.dflt, "FILE");
    assertFalse(orphan + " archived at open", fs.exists(orphan));
    SnapshotLoad.reopen(util, t.rlsm);
    SnapshotLoad.assertLevel1(util, t.rlsm);
    SnapshotLoad.assertSameUser(util, t.rlsm, t.dflt);
    SnapshotLoad.load(util, t.rlsm, t.dflt, 14, 2, ts);
    SnapshotLoad.reopen(util, t.rlsm);
    SnapshotLoad.assertSameUser(util, t.rlsm, t.dflt);
  }

  private static Path storeDir(TableName tn) {
    return util.getHBaseCluster().getRegions(tn).get(0).getRegionFileSystem().getStoreDir("f");
  }
}
