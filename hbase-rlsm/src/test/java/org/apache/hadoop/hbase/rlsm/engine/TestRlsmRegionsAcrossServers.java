package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.junit.Assert.assertEquals;

import java.util.function.UnaryOperator;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.TwinTraffic;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * RLSM tables spread over several RegionServers on HDFS (a MiniDFSCluster with 3 datanodes, 3
 * RegionServers, {@link ServersAndRegions}): a pre-split RLSM table and its default-engine twin
 * take the same writes while a reader compares every Get and scan between them
 * ({@link TwinTraffic}); meanwhile regions move with {@code Admin.move}, the balancer spreads
 * regions piled onto one server, and a RegionServer holding RLSM regions with unflushed edits is
 * aborted, so those regions reopen elsewhere with WAL replay; a replacement server joins and
 * every region moves again. At the end both tables read the same, before and after a major
 * compaction (raw scans included), and every file the RLSM table serves is an RLSM file. Tables
 * that grow by automatic splits: {@link TestRlsmAutoSplitAcrossServers}.
 *
 * <p>Each phase waits for a number of writer operations and reader rounds (latches), never for
 * time. Long mode: {@code -Drlsm.cluster.phaseOps=N} writer operations per phase (default
 * {@value ServersAndRegions#DEFAULT_PHASE_OPS}).
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmRegionsAcrossServers {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmRegionsAcrossServers.class);

  private static final int ROWS = 600;
  private static final int REGIONS = 6;
  private static final int VERSIONS = 3;

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = ServersAndRegions.cluster();
  private static final HBaseTestingUtility util = CLUSTER.util();
  private final ServersAndRegions cluster = new ServersAndRegions(util);

  /** Split keys of {@link #REGIONS} equal regions over the traffic's rows. */
  private static byte[][] splitKeys() {
    byte[][] keys = new byte[REGIONS - 1][];
    for (int i = 1; i < REGIONS; i++) {
      keys[i - 1] = row(i * ROWS / REGIONS);
    }
    return keys;
  }

  @Test
  public void preSplitTableUnderMovesBalancerAndAbort() throws Exception {
    cluster.restoreServers();
    cluster.assertOnHdfs();
    Admin admin = util.getAdmin();
    // The balancer runs only when the test asks for it, so that the abort below finds the
    // regions where the test left them.
    admin.balancerSwitch(false, true);
    RlsmTwinTables twins = RlsmTwinTables.create(util, "spread", splitKeys(),
      UnaryOperator.identity(), cf -> cf.setMaxVersions(VERSIONS), TwinTraffic.F, TwinTraffic.G);
    cluster.awaitSettled(twins);
    assertEquals(REGIONS, cluster.regions(twins.rlsm).size());
    assertEquals(REGIONS, cluster.regions(twins.dflt).size());
    cluster.assertRlsmStores(twins.rlsm);

    TwinTraffic traffic = new TwinTraffic(util, twins, ROWS);
    traffic.start();
    ServersAndRegions.phase(traffic);
    // Store files as well as memstores move with the regions.
    admin.flush(twins.rlsm);
    admin.flush(twins.dflt);
    ServersAndRegions.phase(traffic);
    cluster.moveEveryRegion(twins);
    ServersAndRegions.phase(traffic);
    cluster.pileUpAndBalance(twins);
    ServersAndRegions.phase(traffic);
    cluster.abortBusiestServer(twins);
    cluster.assertRlsmStores(twins.rlsm);
    ServersAndRegions.phase(traffic);
    cluster.restoreServers();
    cluster.moveEveryRegion(twins);
    ServersAndRegions.phase(traffic);
    cluster.stopAndCompare(traffic, twins);
  }
}
