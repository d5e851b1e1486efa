package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RowWhereabouts;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.TwinTraffic;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.JVMClusterUtil;

/**
 * What the multi-server tests do to a mini cluster of {@link #SERVERS} RegionServers on HDFS
 * ({@link #SERVERS} datanodes) holding {@link RlsmTwinTables} under {@link TwinTraffic}: move
 * every region, pile regions up and run the balancer, abort a RegionServer, bring the server
 * count back, compact, and compare the twins. Every wait is for the cluster's state under a hang
 * guard (HBase's {@code Waiter}), never for time.
 */
final class ServersAndRegions {
  static final int SERVERS = 3;
  static final int DEFAULT_PHASE_OPS = 30;
  /** Writer operations per phase; long mode: {@code -Drlsm.cluster.phaseOps=N}. */
  static final int PHASE_OPS = Integer.getInteger("rlsm.cluster.phaseOps", DEFAULT_PHASE_OPS);

  private final HBaseTestingUtility util;

  ServersAndRegions(HBaseTestingUtility util) {
    this.util = util;
  }

  /** The cluster rule of a multi-server test class: HDFS, {@link #SERVERS} RegionServers. */
  static RlsmMiniClusterRule cluster() {
    return new RlsmMiniClusterRule(SERVERS, conf -> {
      RlsmTestCluster.completeRlsmDescriptors(conf);
      // A move closes (and flushes) a region synchronously inside the master's RPC; on a loaded
      // machine that may take longer than HBase's default minute.
      conf.setInt("hbase.rpc.timeout", 180_000);
      // HBase splits a region only once its stores hold no reference, compacted-away ones
      // included (HStore.hasReferences), and those leave only when the discharger chore runs
      // (default every 2 minutes): at the default each generation of splits waits for it. The chore still archives only files no reader
      // holds, so a short period changes when files leave, not which.
      conf.setInt("hbase.hfile.compaction.discharger.interval", 1000);
    });
  }

  /** The cluster runs on HDFS with {@link #SERVERS} datanodes. */
  void assertOnHdfs() throws IOException {
    assertEquals("the cluster's file system", "hdfs",
      util.getTestFileSystem().getUri().getScheme());
    assertEquals(SERVERS, util.getDFSCluster().getDataNodes().size());
  }

  /** Waits for a phase's worth of traffic: writer operations and reader rounds, not time. */
  static void phase(TwinTraffic traffic) throws InterruptedException {
    traffic.await(PHASE_OPS, PHASE_OPS / 6);
  }

  List<RegionInfo> regions(TableName tn) throws IOException {
    return util.getAdmin().getRegions(tn);
  }

  ServerName holder(RegionInfo ri) throws IOException {
    return util.getHBaseCluster().getMaster().getAssignmentManager().getRegionStates()
      .getRegionServerOfRegion(ri);
  }

  /** The live RegionServers, in a stable order. */
  List<ServerName> liveServers() {
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
  Map<ServerName, Integer> regionsPerServer(TableName... tables)
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
  void awaitSettled(RlsmTwinTables twins) throws Exception {
    util.waitUntilNoRegionsInTransition(RlsmTestCluster.HANG_GUARD_MS);
    for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
      util.waitTableAvailable(tn, RlsmTestCluster.HANG_GUARD_MS);
    }
  }

  void assertRlsmStores(TableName tn) {
    List<HRegion> open = util.getHBaseCluster().getRegions(tn);
    assertFalse(open.isEmpty());
    for (HRegion r : open) {
      for (HStore s : r.getStores()) {
        assertTrue(r + "/" + s, s.getStoreEngine() instanceof RlsmStoreEngine);
      }
    }
  }

  void assertSameContent(String when, RlsmTwinTables twins, boolean raw)
    throws IOException {
    try (Table r = util.getConnection().getTable(twins.rlsm);
      Table d = util.getConnection().getTable(twins.dflt)) {
      Scan user = new Scan().readAllVersions();
      RlsmTwinTables.assertSameCells(when + ": scan", RlsmTwinTables.cells(d, user),
        RlsmTwinTables.cells(r, user));
      if (raw) {
        Scan rawScan = new Scan().setRaw(true).readAllVersions();
        List<String> want = RlsmTwinTables.cells(d, rawScan);
        List<String> got = RlsmTwinTables.cells(r, rawScan);
        String dump = want.equals(got) ? "" : " (where the rows sit: " + dumpDifference(when,
          twins, want, got) + ")";
        RlsmTwinTables.assertSameCells(when + ": raw scan" + dump, want, got);
      }
    }
  }

  /**
   * Writes, for the rows of the first cell where {@code want} (the default table) and {@code got}
   * (the RLSM table) differ, where each sits in every open region of both tables
   * ({@link RowWhereabouts}), to a file under {@code target/}; returns its path.
   */
  private String dumpDifference(String when, RlsmTwinTables twins, List<String> want,
    List<String> got) throws IOException {
    int i = 0;
    while (i < want.size() && i < got.size() && want.get(i).equals(got.get(i))) {
      i++;
    }
    Set<String> rows = new TreeSet<>();
    for (List<String> cells : List.of(want, got)) {
      if (i < cells.size()) {
        rows.add(cells.get(i).substring(0, cells.get(i).indexOf('/')));
      }
    }
    List<String> lines = new ArrayList<>();
    lines.add(when + ": first difference at cell " + i);
    for (int j = Math.max(0, i - 3); j < i + 12; j++) {
      lines.add(" want " + (j < want.size() ? want.get(j) : "-") + "   got "
        + (j < got.size() ? got.get(j) : "-"));
    }
    for (String row : rows) {
      byte[] key = Bytes.toBytesBinary(row);
      for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
        for (HRegion region : util.getHBaseCluster().getRegions(tn)) {
          if (region.getRegionInfo().containsRow(key)) {
            lines.addAll(RowWhereabouts.describe(region, key));
          }
        }
      }
    }
    Path out = Paths.get("target", "twin-differences", twins.rlsm.getNameAsString() + "-"
      + System.currentTimeMillis() + ".txt");
    Files.createDirectories(out.getParent());
    Files.write(out, lines);
    return out.toAbsolutePath().toString();
  }

  /** Moves every region of both tables to the next live server; Admin.move waits for each. */
  void moveEveryRegion(RlsmTwinTables twins) throws IOException {
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
  void pileUpAndBalance(RlsmTwinTables twins) throws Exception {
    Admin admin = util.getAdmin();
    ServerName pile = liveServers().get(0);
    for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
      for (RegionInfo ri : regions(tn)) {
        if (!pile.equals(holder(ri))) {
          admin.move(ri.getEncodedNameAsBytes(), pile);
        }
      }
    }
    int total = regions(twins.rlsm).size() + regions(twins.dflt).size();
    assertEquals(Integer.valueOf(total), regionsPerServer(twins.rlsm, twins.dflt).get(pile));
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
  void abortBusiestServer(RlsmTwinTables twins) throws Exception {
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
  void restoreServers() throws Exception {
    while (liveServers().size() < SERVERS) {
      util.getHBaseCluster().startRegionServerAndWait(RlsmTestCluster.HANG_GUARD_MS);
    }
    // The master assigns to a server only after its first load report, not when its thread is
    // up (HBase's ServerManager.createDestinationServersList); a move there would go elsewhere.
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> util.getHBaseCluster().getMaster()
      .getServerManager().createDestinationServersList().containsAll(liveServers()));
  }

  void majorCompact(RlsmTwinTables twins) throws Exception {
    twins.flushAndMajorCompact();
    twins.majorCompactWhole();
  }

  /**
   * Stops the traffic, then compares both tables by user scans, and after a major compaction by
   * user and raw scans; the RLSM table holds only RLSM files.
   */
  void stopAndCompare(TwinTraffic traffic, RlsmTwinTables twins) throws Exception {
    traffic.stopAndCheck();
    assertSameContent("after the load", twins, false);
    majorCompact(twins);
    assertSameContent("after a major compaction", twins, true);
    assertOnlyRlsmFiles(twins);
  }

  /** Every file the RLSM table's stores serve is an RLSM file, none a split or merge reference. */
  void assertOnlyRlsmFiles(RlsmTwinTables twins) throws IOException {
    for (HRegion r : util.getHBaseCluster().getRegions(twins.rlsm)) {
      for (HStore s : r.getStores()) {
        for (HStoreFile f : s.getStorefiles()) {
          assertFalse(f + " is a reference after a major compaction", f.isReference());
          assertTrue(f + " is not an RLSM file", RlsmTestCluster.isRlsm(util, f.getPath()));
        }
      }
    }
  }
}
