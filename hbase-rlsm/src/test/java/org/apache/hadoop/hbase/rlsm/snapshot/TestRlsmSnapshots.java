package org.apache.hadoop.hbase.rlsm.snapshot;

import static org.apache.hadoop.hbase.rlsm.snapshot.SnapshotLoad.F;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.master.cleaner.TimeToLiveHFileCleaner;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.snapshot.ExportSnapshot;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.HFileArchiveUtil;
import org.apache.hadoop.hbase.util.Pair;
import org.apache.hadoop.util.ToolRunner;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Snapshots of an RLSM table with a Level-1 of several partitions and shared segments, against a
 * default-engine twin put through the same steps: a clone reads the snapshot's content (raw scan
 * equal to the source's at snapshot time) and keeps reading it after the source compacts, its
 * files are archived and the HFile cleaner runs, and after the clone compacts itself; a restore
 * brings back exactly the snapshot's content; a snapshot exported with {@code ExportSnapshot} (local
 * job runner) to another root directory, imported back from there after source, snapshot and
 * archive are gone, clones to the same content. The cleaner's time-to-live is 0 here, so only
 * snapshots and HFileLink back-references keep archived files.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmSnapshots {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmSnapshots.class);
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1, conf -> {
    RlsmTestCluster.completeRlsmDescriptors(conf);
    conf.setLong(TimeToLiveHFileCleaner.TTL_CONF_KEY, 0);
  });
  private static final HBaseTestingUtility util = CLUSTER.util();
  private static final int ROUNDS = 6;

  @Test
  public void cloneReadsSnapshotAfterSourceIsCompactedAndCleaned() throws Exception {
    Admin admin = util.getAdmin();
    SnapshotLoad.Snapshotted snap = SnapshotLoad.loadAndSnapshot(util,
      RlsmTwinTables.create(util, "snapsrc", SnapshotLoad.FAMILY, F), 1, ROUNDS);
    RlsmTwinTables src = snap.twins;
    long ts = SnapshotLoad.load(util, src.rlsm, src.dflt, 2, 2, snap.nextTs);

    TableName cloneR = TableName.valueOf("snapclone_rlsm");
    TableName cloneD = TableName.valueOf("snapclone_default");
    admin.cloneSnapshot(snap.rlsmSnapshot, cloneR);
    admin.cloneSnapshot(snap.dfltSnapshot, cloneD);
    assertEquals("the clone's Level-1 is the snapshot's", snap.partitions,
      RlsmStoreProbe.partitions(SnapshotLoad.store(util, cloneR)));
    RlsmTwinTables.assertSameCells("raw clone vs source at snapshot", snap.raw,
      SnapshotLoad.raw(util, cloneR));
    SnapshotLoad.assertSameUser(util, cloneR, cloneD);
    assertBackReferences(src.rlsm, cloneR);

    // the source compacts its files away; without the snapshot only the clone's links keep them
    admin.deleteSnapshot(snap.rlsmSnapshot);
    admin.deleteSnapshot(snap.dfltSnapshot);
    for (TableName tn : new TableName[] { src.rlsm, src.dflt }) {
      majorCompactAndArchive(tn);
    }
    runCleaner();
    SnapshotLoad.reopen(util, cloneR);
    RlsmTwinTables.assertSameCells("raw clone after the source's files were archived and "
      + "cleaned", snap.raw, SnapshotLoad.raw(util, cloneR));
    SnapshotLoad.assertSameUser(util, src.rlsm, src.dflt);

    // the clone writes, range-appends (its manifest now names links) and major-compacts
    SnapshotLoad.load(util, cloneR, cloneD, 3, 2, ts);
    SnapshotLoad.assertSameUser(util, cloneR, cloneD);
    SnapshotLoad.reopen(util, cloneR);
    SnapshotLoad.assertSameUser(util, cloneR, cloneD);
    majorCompactAndArchive(cloneR);
    majorCompactAndArchive(cloneD);
    runCleaner();
    SnapshotLoad.reopen(util, cloneR);
    SnapshotLoad.assertSameUser(util, cloneR, cloneD);
    SnapshotLoad.assertSameUser(util, src.rlsm, src.dflt);
  }

  @Test
  public void restoreReturnsExactlyTheSnapshot() throws Exception {
    Admin admin = util.getAdmin();
    SnapshotLoad.Snapshotted snap = SnapshotLoad.loadAndSnapshot(util,
      RlsmTwinTables.create(util, "snaprestore", SnapshotLoad.FAMILY, F), 4, ROUNDS);
    RlsmTwinTables t = snap.twins;
    // more writes and deletes, compacted: new manifests, segments replaced and archived
    long ts = SnapshotLoad.load(util, t.rlsm, t.dflt, 5, 3, snap.nextTs);
    majorCompactAndArchive(t.rlsm);

    admin.disableTable(t.rlsm);
    admin.disableTable(t.dflt);
    admin.restoreSnapshot(snap.rlsmSnapshot);
    admin.restoreSnapshot(snap.dfltSnapshot);
    admin.enableTable(t.rlsm);
    admin.enableTable(t.dflt);
    assertEquals(snap.partitions, RlsmStoreProbe.partitions(SnapshotLoad.store(util, t.rlsm)));
    RlsmTwinTables.assertSameCells("raw restore vs snapshot", snap.raw,
      SnapshotLoad.raw(util, t.rlsm));
    SnapshotLoad.assertSameUser(util, t.rlsm, t.dflt);

    SnapshotLoad.load(util, t.rlsm, t.dflt, 6, 2, ts);
    majorCompactAndArchive(t.rlsm);
    admin.deleteSnapshot(snap.rlsmSnapshot);
    runCleaner();
    SnapshotLoad.reopen(util, t.rlsm);
    SnapshotLoad.assertSameUser(util, t.rlsm, t.dflt);
  }

  @Test
  public void exportedSnapshotClonesFromTheCopy() throws Exception {
    Admin admin = util.getAdmin();
    SnapshotLoad.Snapshotted snap = SnapshotLoad.loadAndSnapshot(util,
      RlsmTwinTables.create(util, "snapexport", SnapshotLoad.FAMILY, F), 7, ROUNDS);
    RlsmTwinTables t = snap.twins;
    List<String> user = SnapshotLoad.user(util, t.dflt);
    String[] snapshots = { snap.rlsmSnapshot, snap.dfltSnapshot };

    FileSystem fs = util.getTestFileSystem();
    Path root = CommonFSUtils.getRootDir(util.getConfiguration());
    Path copy = fs.makeQualified(util.getDataTestDirOnTestFS("export-root"));
    for (String s : snapshots) {
      exportSnapshot("-snapshot", s, "-copy-to", copy.toString());
    }
    // nothing of the source is left in this root: table, snapshots and archive are gone
    for (TableName tn : new TableName[] { t.rlsm, t.dflt }) {
      admin.disableTable(tn);
      admin.deleteTable(tn);
    }
    for (String s : snapshots) {
      admin.deleteSnapshot(s);
    }
    runCleaner();
    assertEquals("archived files of " + t.rlsm + " left", 0,
      RlsmTwinTables.allFiles(util, t.rlsm).size());

    for (String s : snapshots) {
      exportSnapshot("-snapshot", s, "-copy-from", copy.toString(), "-copy-to", root.toString(),
        "-target", s + "_back");
    }
    TableName cloneR = TableName.valueOf("snapexported_rlsm");
    TableName cloneD = TableName.valueOf("snapexported_default");
    admin.cloneSnapshot(snap.rlsmSnapshot + "_back", cloneR);
    admin.cloneSnapshot(snap.dfltSnapshot + "_back", cloneD);
    assertEquals(snap.partitions, RlsmStoreProbe.partitions(SnapshotLoad.store(util, cloneR)));
    RlsmTwinTables.assertSameCells("raw clone of the copy vs source", snap.raw,
      SnapshotLoad.raw(util, cloneR));
    RlsmTwinTables.assertSameCells("default clone of the copy", user,
      SnapshotLoad.user(util, cloneD));
    SnapshotLoad.assertSameUser(util, cloneR, cloneD);
    SnapshotLoad.reopen(util, cloneR);
    SnapshotLoad.assertSameUser(util, cloneR, cloneD);
  }

  /**
   * Runs the master's HFile cleaner once and waits for it (its result says whether every archived
   * file could go, which is false while links keep some).
   */
  private static void runCleaner() throws Exception {
    util.getHBaseCluster().getMaster().getHFileCleaner().triggerCleanerNow().get();
  }

  private static void exportSnapshot(String... args) throws Exception {
    assertEquals("ExportSnapshot " + String.join(" ", args), 0,
      ToolRunner.run(util.getConfiguration(), new ExportSnapshot(), args));
  }

  /**
   * Major-compacts {@code tn} (in this thread, so it is done on return) and archives the files
   * it replaced, as HBase's discharger would on its own period.
   */
  static void majorCompactAndArchive(TableName tn) throws Exception {
    HRegion region = util.getHBaseCluster().getRegions(tn).get(0);
    util.getAdmin().flush(tn);
    // an RLSM store runs one compaction at a time: let the flush's finish first
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> RlsmStoreProbe.compactionsIdle(region));
    util.compact(tn, true);
    region.getStore(F).closeAndArchiveCompactedFiles();
  }

  /**
   * Every file of the clone's store is an HFileLink whose target has a back-reference to the
   * clone in the source's archive, so HBase's HFileLinkCleaner keeps the target while the clone
   * uses it.
   */
  private static void assertBackReferences(TableName source, TableName clone) throws Exception {
    FileSystem fs = util.getTestFileSystem();
    HRegion sourceRegion = util.getHBaseCluster().getRegions(source).get(0);
    HRegion cloneRegion = util.getHBaseCluster().getRegions(clone).get(0);
    Path archive = HFileArchiveUtil.getStoreArchivePath(util.getConfiguration(),
      sourceRegion.getRegionInfo(), F);
    FileStatus[] files = fs.listStatus(cloneRegion.getRegionFileSystem().getStoreDir("f"));
    assertTrue(files.length > 0);
    for (FileStatus st : files) {
      String name = st.getPath().getName();
      assertTrue(name + " is a link", HFileLink.isHFileLink(name));
      Path backRefs =
        HFileLink.getBackReferencesDir(archive, HFileLink.getReferencedHFileName(name));
      boolean found = false;
      for (FileStatus ref : fs.listStatus(backRefs)) {
        Pair<TableName, String> p = HFileLink.parseBackReferenceName(ref.getPath().getName());
        found |= p.getFirst().equals(clone)
          && p.getSecond().equals(cloneRegion.getRegionInfo().getEncodedName());
      }
      assertTrue("back-reference of " + name + " in " + backRefs, found);
    }
  }
}
