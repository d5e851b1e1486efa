package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.master.hbck.HbckChore;
import org.apache.hadoop.hbase.master.hbck.HbckReport;
import org.apache.hadoop.hbase.regionserver.CompactionTool;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.HBaseFsck;
import org.apache.hadoop.hbase.util.hbck.HFileCorruptionChecker;
import org.apache.hadoop.util.ToolRunner;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * HBase 2.6.1's own repair and maintenance tools on an RLSM table with a Level-1 (manifest and
 * segments) next to its default-engine twin (docs/install.md, "HBase's own tools on RLSM
 * tables"):
 * <ul>
 * <li>{@code hbase hbck -checkCorruptHFiles TABLE} (HBCK1, report only) finds no inconsistency
 * and no corrupt file, and the master's {@code HbckChore} reports no orphan or inconsistent
 * region of either table;</li>
 * <li>{@code CompactionTool -major FAMILY_DIR} (hbase-mapreduce, offline, on the disabled table)
 * compacts the store through the family's own engine: afterwards the store holds RLSM files
 * only and reads, by user and raw scans, like the twin compacted by the same tool.</li>
 * </ul>
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmHBaseTools {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmHBaseTools.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int ROWS = 300;
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER =
    new RlsmMiniClusterRule(1, RlsmTestCluster::completeRlsmDescriptors);
  private static final HBaseTestingUtility util = CLUSTER.util();
  private static RlsmTwinTables twins;

  /** Versions and deletes over four flushes, with RLSM compactions building a Level-1. */
  @BeforeClass
  public static void load() throws Exception {
    twins = RlsmTwinTables.create(util, "tools", b -> b.setMaxVersions(2)
      .setConfiguration(RlsmCompactionConfig.L0_TRIGGER_KEY, "2")
      .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, "16384"), F);
    Admin admin = util.getAdmin();
    for (int k = 0; k < 4; k++) {
      for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
        try (Table t = util.getConnection().getTable(tn)) {
          List<Put> puts = new ArrayList<>();
          List<Delete> deletes = new ArrayList<>();
          for (int i = 0; i < ROWS; i++) {
            puts.add(new Put(row(i)).addColumn(F, Q, 100 + k, Bytes.toBytes("v" + k + "_" + i)));
            if (k == 2 && i % 5 == 0) {
              deletes.add(new Delete(row(i)).addColumns(F, Q, 101));
            }
          }
          t.put(puts);
          t.delete(deletes);
        }
        admin.flush(tn);
      }
      admin.compact(twins.rlsm); // RLSM's planner chooses (a table flush does not ask it)
      util.waitFor(RlsmTestCluster.HANG_GUARD_MS,
        () -> RlsmStoreProbe.compactionsIdle(region(twins.rlsm)));
    }
    assertTrue("no Level-1", RlsmStoreProbe.partitions(region(twins.rlsm).getStore(F)) > 1);
  }

  private static HRegion region(TableName tn) {
    return util.getHBaseCluster().getRegions(tn).get(0);
  }

  private static List<FileRole> roles(TableName tn) throws Exception {
    List<FileRole> out = new ArrayList<>();
    for (Path p : RlsmTestCluster.storeFiles(util, tn, "f")) {
      out.add(RlsmTestCluster.role(util.getTestFileSystem(), util.getConfiguration(), p));
    }
    return out;
  }

  @Test
  public void hbckReportsNoInconsistencyAndNoCorruptFile() throws Exception {
    assertTrue(roles(twins.rlsm).contains(FileRole.MANIFEST));
    ExecutorService exec = Executors.newFixedThreadPool(2);
    try {
      // as `hbase hbck -checkCorruptHFiles <table>`: report only, nothing fixed or sidelined
      HBaseFsck fsck = new HBaseFsck(util.getConfiguration(), exec);
      fsck.exec(exec, new String[] { "-checkCorruptHFiles", "-ignorePreCheckPermission",
        twins.rlsm.getNameAsString() });
      fsck.close();
      assertEquals(new ArrayList<>(), fsck.getErrors().getErrorList());
      assertEquals(0, fsck.getRetCode());
      HFileCorruptionChecker files = fsck.getHFilecorruptionChecker();
      assertTrue(files.getHFilesChecked() > 0);
      assertTrue("corrupt: " + files.getCorrupted(), files.getCorrupted().isEmpty());
      assertTrue("sidelined: " + files.getQuarantined(), files.getQuarantined().isEmpty());
    } finally {
      exec.shutdownNow();
    }

    // The chore compares meta with the regions the RegionServers last reported (every few
    // seconds): right after the other test re-enabled the tables a report may still lag.
    HbckChore chore = util.getHBaseCluster().getMaster().getHbckChore();
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> chore.runChore()
      && chore.getLastReport().getInconsistentRegions().isEmpty());
    HbckReport report = chore.getLastReport();
    assertTrue(report.getRegionInfoMap().containsKey(
      region(twins.rlsm).getRegionInfo().getEncodedName()));
    assertEquals(Map.of(), report.getOrphanRegionsOnRS());
    assertEquals(Map.of(), report.getOrphanRegionsOnFS());
    assertEquals(Map.of(), report.getInconsistentRegions());
    twins.assertSameScan(new Scan().readAllVersions());
  }

  /**
   * Both tables compacted by the tool, offline: its store has no region read point (a fresh
   * region's MVCC), so neither engine may drop delete markers, and both must still read alike.
   */
  @Test
  public void compactionToolMajorCompactsAnRlsmStoreOffline() throws Exception {
    Admin admin = util.getAdmin();
    for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
      Path familyDir = region(tn).getRegionFileSystem().getStoreDir("f");
      admin.disableTable(tn);
      assertEquals(0, ToolRunner.run(util.getConfiguration(), new CompactionTool(),
        new String[] { "-major", familyDir.toString() }));
      admin.enableTable(tn);
      util.waitTableAvailable(tn.getName(), RlsmTestCluster.HANG_GUARD_MS);
    }
    List<FileRole> roles = roles(twins.rlsm);
    assertFalse("no store files", roles.isEmpty());
    assertFalse("a plain HFile in an RLSM store: " + roles, roles.contains(null));
    assertEquals(0, RlsmStoreProbe.level0Files(region(twins.rlsm).getStore(F)));
    assertEquals(1, RlsmTestCluster.storeFiles(util, twins.dflt, "f").size());
    twins.assertSameScan(new Scan().readAllVersions());
    twins.assertSameScan(new Scan().setRaw(true).readAllVersions());
  }
}
