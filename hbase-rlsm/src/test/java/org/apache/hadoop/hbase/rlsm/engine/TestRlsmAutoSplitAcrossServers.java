package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.TwinTraffic;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * An RLSM table and its default-engine twin that start with one region and grow by automatic
 * splits on HDFS with 3 RegionServers ({@link ServersAndRegions}), compared throughout by
 * {@link TwinTraffic}'s reader; then their regions move and two are merged. Its own class (and
 * mini cluster) beside {@link TestRlsmRegionsAcrossServers}, so each keeps within the class
 * timeout on a loaded machine.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmAutoSplitAcrossServers {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmAutoSplitAcrossServers.class);

  private static final int VERSIONS = 3;
  /** Rows of the traffic: enough for well over {@link #GROWN_REGIONS} regions. */
  private static final int GROW_ROWS = 2000;
  private static final int GROWN_REGIONS = 8;
  /** Region size at which HBase's ConstantSizeRegionSplitPolicy splits, and the flush size. */
  private static final long GROW_MAX_FILE_SIZE = 8 * 1024;
  private static final long GROW_FLUSH_SIZE = 16 * 1024;

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = ServersAndRegions.cluster();
  private static final HBaseTestingUtility util = CLUSTER.util();
  private final ServersAndRegions cluster = new ServersAndRegions(util);

  /**
   * A table that starts with one region splits past {@link #GROWN_REGIONS} regions under HBase's
   * {@code ConstantSizeRegionSplitPolicy} (a small maximum file size) while the traffic runs;
   * then, with splits switched off, every region moves, and two adjacent regions are merged with
   * {@code Admin.mergeRegionsAsync} once a major compaction rewrote the daughters' references.
   */
  @Test
  public void autoSplitPastEightRegionsThenMovesAndMerge() throws Exception {
    cluster.assertOnHdfs();
    Admin admin = util.getAdmin();
    admin.balancerSwitch(false, true);
    admin.splitSwitch(true, true);
    // SPLIT_POLICY as a user sets it: the master observer hands it to the RLSM split policy.
    RlsmTwinTables twins = RlsmTwinTables.create(util, "grow", null,
      tb -> tb.setRegionSplitPolicyClassName(ConstantSizeRegionSplitPolicy.class.getName())
        .setMaxFileSize(GROW_MAX_FILE_SIZE).setMemStoreFlushSize(GROW_FLUSH_SIZE),
      cf -> cf.setMaxVersions(VERSIONS), TwinTraffic.F, TwinTraffic.G);
    cluster.awaitSettled(twins);
    assertEquals(1, cluster.regions(twins.rlsm).size());
    TwinTraffic traffic = new TwinTraffic(util, twins, GROW_ROWS);
    traffic.start();
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, 500, () -> {
      traffic.checkFailure();
      return cluster.regions(twins.rlsm).size() >= GROWN_REGIONS;
    });
    admin.splitSwitch(false, true);
    cluster.awaitSettled(twins);
    int grown = cluster.regions(twins.rlsm).size();
    assertTrue(grown + " regions", grown >= GROWN_REGIONS);
    cluster.assertRlsmStores(twins.rlsm);
    ServersAndRegions.phase(traffic);
    cluster.moveEveryRegion(twins);
    ServersAndRegions.phase(traffic);

    // HBase merges only regions without references: compact them away first.
    cluster.majorCompact(twins);
    ServersAndRegions.phase(traffic);
    List<RegionInfo> before = cluster.regions(twins.rlsm);
    before.sort(RegionInfo.COMPARATOR);
    RegionInfo a = before.get(0);
    RegionInfo b = before.get(1);
    admin.mergeRegionsAsync(new byte[][] { a.getEncodedNameAsBytes(), b.getEncodedNameAsBytes() },
      false).get(RlsmTestCluster.HANG_GUARD_MINUTES, TimeUnit.MINUTES);
    cluster.awaitSettled(twins);
    List<RegionInfo> after = cluster.regions(twins.rlsm);
    assertEquals(before.size() - 1, after.size());
    assertTrue("a region spans both merged ones", after.stream().anyMatch(
      ri -> Bytes.equals(ri.getStartKey(), a.getStartKey())
        && Bytes.equals(ri.getEndKey(), b.getEndKey())));
    ServersAndRegions.phase(traffic);
    cluster.stopAndCompare(traffic, twins);
  }
}
