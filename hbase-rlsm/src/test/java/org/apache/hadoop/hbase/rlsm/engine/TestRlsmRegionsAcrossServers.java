package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.TwinTraffic;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.JVMClusterUtil;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * RLSM tables spread over several RegionServers on HDFS (a MiniDFSCluster with 3 datanodes, 3
 * RegionServers): a pre-split RLSM table and its default-engine twin take the same writes while a
 * reader compares every Get and scan between them ({@link TwinTraffic}); meanwhile regions move
 * with {@code Admin.move}, the balancer spreads regions piled onto one server, and a RegionServer
 * holding RLSM regions with unflushed edits is aborted, so those regions reopen elsewhere with WAL
 * replay. At the end both tables read the same, before and after a major compaction (raw scans
 * included), and every store file of the RLSM table is an RLSM file. A second test grows a
 * one-region table past several automatic splits, then moves and merges.
 *
 * <p>Each phase waits for a number of writer operations and reader rounds (latches), never for
 * time. Long mode: {@code -Drlsm.cluster.phaseOps=N} writer operations per phase (default
 * {@value #DEFAULT_PHASE_OPS}).
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmRegionsAcrossServers {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmRegionsAcrossServers.class);

  private static final int SERVERS = 3;
  private static final int ROWS = 600;
  private static final int REGIONS = 6;
  private static final int VERSIONS = 3;
  /** Rows of the auto-split test: enough for well over {@link #GROWN_REGIONS} regions. */
  private static final int GROW_ROWS = 2000;
  private static final int GROWN_REGIONS = 8;
  /** Region size at which HBase's ConstantSizeRegionSplitPolicy splits, and the flush size. */
  private static final long GROW_MAX_FILE_SIZE = 8 * 1024;
  private static final long GROW_FLUSH_SIZE = 16 * 1024;
  static final int DEFAULT_PHASE_OPS = 30;
  private static final int PHASE_OPS = Integer.getInteger("rlsm.cluster.phaseOps",
    DEFAULT_PHASE_OPS);

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(SERVERS, conf -> {
    RlsmTestCluster.completeRlsmDescriptors(conf);
    // A move closes (and flushes) a region synchronously inside the master's RPC; on a loaded
    // machine that may take longer than HBase's default minute.
    conf.setInt("hbase.rpc.timeout", 180_000);
  });
  private static final HBaseTestingUtility util = CLUSTER.util();

  /** Split keys of {@link #REGIONS} equal regions over the traffic's rows. */
  private static byte[][] splitKeys() {
    byte[][] keys = new byte[REGIONS - 1][];
    for (int i = 1; i < REGIONS; i++) {
      keys[i - 1] = row(i * ROWS / REGIONS);
    }
    return keys;
  }

  private static void phase(TwinTraffic traffic) throws InterruptedException {
    traffic.await(PHASE_OPS, PHASE_OPS / 6);
  }

  private static List<RegionInfo> regions(TableName tn) throws IOException {
    return util.getAdmin().getRegions(tn);
  }

  private static ServerName holder(RegionInfo ri) throws IOException {
    return util.getHBaseCluster().getMaster().getAssignmentManager().getRegionStates()
      .getRegionServerOfRegion(ri);
  }

  /** The live RegionServers, in a stable order. */
  private static List<ServerName> liveServers() {
    List<ServerName> out = new ArrayList<>();
    for (JVMClusterUtil.RegionServerThread t : util.getHBaseCluster()
      .getLiveRegionServerThreads()) {
      HRegionServer rs = t.getRegionServer();
      if (!rs.isAborted() && !rs.isStopped()) {
        out.add(rs.getServerName());
      }
    }
    out.sort(null);
    return out;
  }

  /** Regions of {@code tables} per live server. */
  private static Map<ServerName, Integer> regionsPerServer(TableName... tables)
    throws IOException {
    Map<ServerName, Integer> out = new HashMap<>();
    for (ServerName sn : liveServers()) {
      out.put(sn, 0);
    }
    for (TableName tn : tables) {
      for (RegionInfo ri : regions(tn)) {
        out.merge(holder(ri), 1, Integer::sum);
      }
    }
    return out;
  }

  /** Every region of every table open, nothing in transition. */
  private static void awaitSettled(RlsmTwinTables twins) throws Exception {
    util.waitUntilNoRegionsInTransition(RlsmTestCluster.HANG_GUARD_MS);
    for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
      util.waitTableAvailable(tn, RlsmTestCluster.HANG_GUARD_MS);
    }
  }

  private static void assertRlsmStores(TableName tn) {
    List<HRegion> open = util.getHBaseCluster().getRegions(tn);
    assertFalse(open.isEmpty());
    for (HRegion r : open) {
      for (HStore s : r.getStores()) {
        assertTrue(r + "/" + s, s.getStoreEngine() instanceof RlsmStoreEngine);
      }
    }
  }

  private static void assertSameContent(String when, RlsmTwinTables twins, boolean raw)
    throws IOException {
    try (Table r = util.getConnection().getTable(twins.rlsm);
      Table d = util.getConnection().getTable(twins.dflt)) {
      Scan user = new Scan().readAllVersions();
      RlsmTwinTables.assertSameCells(when + ": scan", RlsmTwinTables.cells(d, user),
        RlsmTwinTables.cells(r, user));
      if (raw) {
        Scan rawScan = new Scan().setRaw(true).readAllVersions();
        RlsmTwinTables.assertSameCells(when + ": raw scan", RlsmTwinTables.cells(d, rawScan),
          RlsmTwinTables.cells(r, rawScan));
      }
    }
  }

  /** Moves every region of both tables to the next live server; Admin.move waits for each. */
  private static void moveEveryRegion(RlsmTwinTables twins) throws IOException {
    List<ServerName> servers = liveServers();
    Admin admin = util.getAdmin();
    for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
      for (RegionInfo ri : regions(tn)) {
        ServerName from = holder(ri);
        ServerName to = servers.get((servers.indexOf(from) + 1) % servers.size());
        admin.move(ri.getEncodedNameAsBytes(), to);
        assertEquals(ri.getRegionNameAsString(), to, holder(ri));
      }
    }
  }

  /**
   * Piles every region of both tables onto one server, then runs the balancer until that server
   * gave regions away to each of the others.
   */
  private static void pileUpAndBalance(RlsmTwinTables twins) throws Exception {
    Admin admin = util.getAdmin();
    ServerName pile = liveServers().get(0);
    for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
      for (RegionInfo ri : regions(tn)) {
        if (!pile.equals(holder(ri))) {
          admin.move(ri.getEncodedNameAsBytes(), pile);
        }
      }
    }
    assertEquals(Integer.valueOf(2 * REGIONS), regionsPerServer(twins.rlsm, twins.dflt).get(pile));
    admin.balancerSwitch(true, true);
    try {
      util.waitFor(RlsmTestCluster.HANG_GUARD_MS, 1000, () -> {
        admin.balance();
        util.waitUntilNoRegionsInTransition(RlsmTestCluster.HANG_GUARD_MS);
        return !regionsPerServer(twins.rlsm, twins.dflt).containsValue(0);
      });
    } finally {
      admin.balancerSwitch(false, true);
    }
    awaitSettled(twins);
  }

  /**
   * Aborts the server (not hbase:meta's) holding most RLSM regions, after checking that some of
   * them hold edits only in the memstore and WAL, and waits until every region is open on the
   * other servers.
   */
  private static void abortBusiestServer(RlsmTwinTables twins) throws Exception {
    MiniHBaseCluster cluster = util.getHBaseCluster();
    int metaIndex = cluster.getServerWithMeta();
    int victimIndex = -1;
    int most = 0;
    for (int i = 0; i < cluster.getRegionServerThreads().size(); i++) {
      HRegionServer rs = cluster.getRegionServer(i);
      if (i == metaIndex || rs.isAborted() || rs.isStopped()) {
        continue;
      }
      int n = rs.getRegions(twins.rlsm).size();
      if (n > most) {
        most = n;
        victimIndex = i;
      }
    }
    assertTrue("no server without hbase:meta holds an RLSM region", victimIndex >= 0);
    HRegionServer victim = cluster.getRegionServer(victimIndex);
    List<RegionInfo> lost = new ArrayList<>();
    long unflushed = 0;
    for (HRegion r : victim.getRegions(twins.rlsm)) {
      lost.add(r.getRegionInfo());
      unflushed += r.getMemStoreDataSize();
    }
    assertTrue("the aborted regions have unflushed edits to replay", unflushed > 0);
    ServerName victimName = victim.getServerName();
    cluster.abortRegionServer(victimIndex);
    cluster.waitOnRegionServer(victimIndex);
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> {
      for (RegionInfo ri : lost) {
        ServerName sn = holder(ri);
        if (sn == null || sn.equals(victimName)) {
          return false;
        }
      }
      return true;
    });
    awaitSettled(twins);
    for (RegionInfo ri : lost) {
      assertNotEquals(victimName, holder(ri));
    }
  }

  /** Starts RegionServers until {@link #SERVERS} are live again (after an abort). */
  private static void restoreServers() throws Exception {
    while (liveServers().size() < SERVERS) {
      util.getHBaseCluster().startRegionServerAndWait(RlsmTestCluster.HANG_GUARD_MS);
    }
    // The master assigns to a server only after its first load report, not when its thread is
    // up (HBase's ServerManager.createDestinationServersList); a move there would go elsewhere.
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> util.getHBaseCluster().getMaster()
      .getServerManager().createDestinationServersList().containsAll(liveServers()));
  }

  private static void majorCompact(RlsmTwinTables twins) throws Exception {
    twins.flushAndMajorCompact();
    for (HRegion r : util.getHBaseCluster().getRegions(twins.rlsm)) {
      util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> RlsmStoreProbe.compactionsIdle(r));
    }
  }

  /**
   * Stops the traffic, then compares both tables by user scans, and after a major compaction by
   * user and raw scans; the RLSM table holds only RLSM files.
   */
  private static void stopAndCompare(TwinTraffic traffic, RlsmTwinTables twins) throws Exception {
    traffic.stopAndCheck();
    assertSameContent("after the load", twins, false);
    majorCompact(twins);
    assertSameContent("after a major compaction", twins, true);
    assertOnlyRlsmFiles(twins);
  }

  private static void assertOnlyRlsmFiles(RlsmTwinTables twins) throws IOException {
    for (String family : new String[] { "f", "g" }) {
      List<Path> files = RlsmTestCluster.storeFiles(util, twins.rlsm, family);
      assertFalse(files.isEmpty());
      for (Path p : files) {
        assertTrue(p + " is not an RLSM file", RlsmTestCluster.isRlsm(util, p));
      }
    }
  }

  @Test
  public void preSplitTableUnderMovesBalancerAndAbort() throws Exception {
    restoreServers();
    assertEquals("the cluster's file system", "hdfs",
      util.getTestFileSystem().getUri().getScheme());
    assertEquals(SERVERS, util.getDFSCluster().getDataNodes().size());
    Admin admin = util.getAdmin();
    // The balancer runs only when the test asks for it, so that the abort below finds the
    // regions where the test left them.
    admin.balancerSwitch(false, true);
    RlsmTwinTables twins = RlsmTwinTables.create(util, "spread", splitKeys(),
      UnaryOperator.identity(), cf -> cf.setMaxVersions(VERSIONS), TwinTraffic.F, TwinTraffic.G);
    awaitSettled(twins);
    assertEquals(REGIONS, regions(twins.rlsm).size());
    assertEquals(REGIONS, regions(twins.dflt).size());
    assertRlsmStores(twins.rlsm);

    TwinTraffic traffic = new TwinTraffic(util, twins, ROWS);
    traffic.start();
    phase(traffic);
    // Store files as well as memstores move with the regions.
    admin.flush(twins.rlsm);
    admin.flush(twins.dflt);
    phase(traffic);
    moveEveryRegion(twins);
    phase(traffic);
    pileUpAndBalance(twins);
    phase(traffic);
    abortBusiestServer(twins);
    assertRlsmStores(twins.rlsm);
    phase(traffic);
    restoreServers();
    moveEveryRegion(twins);
    phase(traffic);
    stopAndCompare(traffic, twins);
  }
  /**
   * A table that starts with one region splits past {@link #GROWN_REGIONS} regions under HBase's
   * {@code ConstantSizeRegionSplitPolicy} (a small maximum file size) while the traffic runs;
   * then, with splits switched off, every region moves, and two adjacent regions are merged with
   * {@code Admin.mergeRegionsAsync} once a major compaction rewrote the daughters' references.
   * (The abort is the other test's: WAL replay does not depend on how a region was made.)
   */
  @Test
  public void autoSplitPastEightRegionsThenMovesAbortAndMerge() throws Exception {
    restoreServers();
    Admin admin = util.getAdmin();
    admin.balancerSwitch(false, true);
    admin.splitSwitch(true, true);
    // SPLIT_POLICY as a user sets it: the master observer hands it to the RLSM split policy.
    RlsmTwinTables twins = RlsmTwinTables.create(util, "grow", null,
      tb -> tb.setRegionSplitPolicyClassName(ConstantSizeRegionSplitPolicy.class.getName())
        .setMaxFileSize(GROW_MAX_FILE_SIZE).setMemStoreFlushSize(GROW_FLUSH_SIZE),
      cf -> cf.setMaxVersions(VERSIONS), TwinTraffic.F, TwinTraffic.G);
    awaitSettled(twins);
    assertEquals(1, regions(twins.rlsm).size());
    TwinTraffic traffic = new TwinTraffic(util, twins, GROW_ROWS);
    traffic.start();
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, 500, () -> {
      traffic.checkFailure();
      return regions(twins.rlsm).size() >= GROWN_REGIONS;
    });
    admin.splitSwitch(false, true);
    awaitSettled(twins);
    int grown = regions(twins.rlsm).size();
    assertTrue(grown + " regions", grown >= GROWN_REGIONS);
    assertRlsmStores(twins.rlsm);
    phase(traffic);
    moveEveryRegion(twins);
    phase(traffic);

    // HBase merges only regions without references: compact them away first.
    majorCompact(twins);
    phase(traffic);
    List<RegionInfo> before = regions(twins.rlsm);
    before.sort(RegionInfo.COMPARATOR);
    RegionInfo a = before.get(0);
    RegionInfo b = before.get(1);
    admin.mergeRegionsAsync(new byte[][] { a.getEncodedNameAsBytes(), b.getEncodedNameAsBytes() },
      false).get(RlsmTestCluster.HANG_GUARD_MINUTES, TimeUnit.MINUTES);
    awaitSettled(twins);
    List<RegionInfo> after = regions(twins.rlsm);
    assertEquals(before.size() - 1, after.size());
    assertTrue("a region spans both merged ones", after.stream().anyMatch(
      ri -> Bytes.equals(ri.getStartKey(), a.getStartKey())
        && Bytes.equals(ri.getEndKey(), b.getEndKey())));
    phase(traffic);
    stopAndCompare(traffic, twins);
  }
}
