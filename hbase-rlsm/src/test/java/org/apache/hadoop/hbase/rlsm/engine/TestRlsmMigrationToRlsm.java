package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.TrafficThreads;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Online migration of a loaded default-engine family to RLSM (docs/install.md): an alter that
 * sets only the engine key while a writer and a reader keep going, a RegionServer abort after the
 * alter (the region reopens on the other server with WAL replay), and a major compaction. The
 * existing HFiles keep serving as Level-0 files until compaction folds them in; afterwards only
 * RLSM files remain. Throughout, and after a reopen, the family reads exactly like a default
 * engine twin that received the same operations with the same timestamps.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmMigrationToRlsm {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmMigrationToRlsm.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final byte[] Q2 = Bytes.toBytes("q2");
  private static final int VERSIONS = 3;
  private static final int ROWS = 200;
  private static final int FLUSHES = 4;
  /** Writer operations per phase; the reader must finish a quarter as many rounds. */
  private static final int PHASE_OPS = 40;
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER =
    new RlsmMiniClusterRule(2, RlsmTestCluster::completeRlsmDescriptors);
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static byte[] writerRow(int n) {
    return Bytes.toBytes(String.format("w%06d", n));
  }

  /**
   * Round {@code k} of the initial load: a new version of every row (the family keeps 3 of 4),
   * and deletes of each kind, all with explicit timestamps so that both tables hold the same
   * cells.
   */
  private static void loadRound(Table t, int k) throws IOException {
    List<Put> puts = new ArrayList<>();
    List<Delete> deletes = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      Put p = new Put(row(i)).addColumn(F, Q, 100 + k, Bytes.toBytes("v" + k + "_" + i));
      if (i % 3 == 0) {
        p.addColumn(F, Q2, 100 + k, Bytes.toBytes("w" + k + "_" + i));
      }
      puts.add(p);
      if (k == 1 && i % 17 == 0) {
        deletes.add(new Delete(row(i), 100));
      }
      if (k == 2 && i % 7 == 0) {
        deletes.add(new Delete(row(i)).addColumn(F, Q, 101));
      }
      if (k == 3 && i % 11 == 0) {
        deletes.add(new Delete(row(i)).addColumns(F, Q2, 103));
      }
      if (k == 3 && i % 13 == 0) {
        deletes.add(new Delete(row(i)).addFamily(F, 102));
      }
    }
    t.put(puts);
    t.delete(deletes);
  }

  /** Writer operation {@code n}: a new row with two versions, some with a delete. */
  private static void writerOp(Table t, int n) throws IOException {
    byte[] r = writerRow(n);
    t.put(new Put(r).addColumn(F, Q, 100, Bytes.toBytes("a" + n))
      .addColumn(F, Q, 101, Bytes.toBytes("b" + n)).addColumn(F, Q2, 100, Bytes.toBytes("c" + n)));
    if (n % 5 == 0) {
      t.delete(new Delete(r).addColumn(F, Q, 101));
    }
    if (n % 7 == 0) {
      t.delete(new Delete(r).addColumns(F, Q2, 100));
    }
  }

  /**
   * A writer and a reader running against both tables until stopped. The reader compares only
   * rows that no one writes any more: the initial rows, and writer rows whose operation has
   * reached both tables. Each round looks at a tenth of the initial rows and the ten newest
   * finished writer rows.
   */
  private static TrafficThreads traffic(TableName src, TableName twin) {
    AtomicInteger finished = new AtomicInteger();
    return new TrafficThreads("migration", (stopped, written) -> {
      try (Table s = util.getConnection().getTable(src);
        Table d = util.getConnection().getTable(twin)) {
        for (int n = 0; !stopped.getAsBoolean(); n++) {
          writerOp(s, n);
          writerOp(d, n);
          finished.incrementAndGet();
          written.step();
        }
      }
    }, (stopped, compared) -> {
      try (Table s = util.getConnection().getTable(src);
        Table d = util.getConnection().getTable(twin)) {
        for (int round = 0; !stopped.getAsBoolean(); round++) {
          List<byte[]> rows = new ArrayList<>();
          for (int i = round % 10; i < ROWS; i += 10) {
            rows.add(row(i));
          }
          int done = finished.get();
          for (int n = Math.max(0, done - 10); n < done; n++) {
            rows.add(writerRow(n));
          }
          for (byte[] r : rows) {
            Get g = new Get(r).readAllVersions();
            RlsmTwinTables.assertSameCells("get " + Bytes.toStringBinary(r),
              RlsmTwinTables.describe(d.get(g).rawCells()),
              RlsmTwinTables.describe(s.get(g).rawCells()));
          }
          compared.step();
        }
      }
    });
  }

  private static void assertSameContent(String when, TableName src, TableName twin)
    throws IOException {
    try (Table s = util.getConnection().getTable(src);
      Table d = util.getConnection().getTable(twin)) {
      Scan user = new Scan().readAllVersions();
      RlsmTwinTables.assertSameCells(when + ": user scan", RlsmTwinTables.cells(d, user),
        RlsmTwinTables.cells(s, user));
      Scan raw = new Scan().setRaw(true).readAllVersions();
      RlsmTwinTables.assertSameCells(when + ": raw scan", RlsmTwinTables.cells(d, raw),
        RlsmTwinTables.cells(s, raw));
    }
  }

  private static void assertOnlyRlsmFiles(String when, TableName tn) throws IOException {
    List<Path> files = RlsmTestCluster.storeFiles(util, tn, "f");
    assertFalse(when + ": no store files", files.isEmpty());
    for (Path p : files) {
      assertTrue(when + ": " + p + " is a plain HFile", RlsmTestCluster.isRlsm(util, p));
    }
  }

  /** The pre-alter HFiles all still serve, next to at least one RLSM file. */
  private static void assertMixedFiles(String when, TableName tn, List<Path> hfiles)
    throws IOException {
    List<String> names = new ArrayList<>();
    boolean rlsm = false;
    for (Path p : RlsmTestCluster.storeFiles(util, tn, "f")) {
      names.add(p.getName());
      rlsm |= RlsmTestCluster.isRlsm(util, p);
    }
    for (Path p : hfiles) {
      assertTrue(when + ": " + p.getName() + " is gone: " + names, names.contains(p.getName()));
    }
    assertTrue(when + ": no RLSM file among " + names, rlsm);
  }

  private static HRegion region(TableName tn) {
    List<HRegion> regions = util.getHBaseCluster().getRegions(tn);
    assertEquals(1, regions.size());
    return regions.get(0);
  }

  /** Aborts the server holding {@code tn}'s region and waits until it is open elsewhere. */
  private static void abortHolder(TableName tn) throws Exception {
    MiniHBaseCluster cluster = util.getHBaseCluster();
    HRegion region = region(tn);
    int rsIndex = cluster.getServerWith(region.getRegionInfo().getRegionName());
    ServerName victim = cluster.getRegionServer(rsIndex).getServerName();
    cluster.abortRegionServer(rsIndex);
    cluster.waitOnRegionServer(rsIndex);
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> {
      List<HRegion> rs = cluster.getRegions(tn);
      return !rs.isEmpty() && rs.get(0).isAvailable()
        && !victim.equals(cluster.getServerHoldingRegion(tn, rs.get(0).getRegionInfo()
          .getRegionName()));
    });
    util.waitTableAvailable(tn.getName(), RlsmTestCluster.HANG_GUARD_MS);
  }

  private static void majorCompact(TableName tn) throws Exception {
    util.getAdmin().flush(tn);
    util.compact(tn, true);
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> RlsmStoreProbe.compactionsIdle(region(tn)));
    // The compacted-away inputs stay in the store directory until HBase's discharger chore
    // archives them; run its step now so that the directory shows what the compaction left.
    region(tn).getStore(F).closeAndArchiveCompactedFiles();
  }

  @Test
  public void alterLoadedTableToRlsmUnderTrafficAndAbort() throws Exception {
    Admin admin = util.getAdmin();
    TableName src = TableName.valueOf("migrate_src");
    TableName twin = TableName.valueOf("migrate_twin");
    for (TableName tn : new TableName[] { src, twin }) {
      admin.createTable(TableDescriptorBuilder.newBuilder(tn).setColumnFamily(
        ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(VERSIONS).build()).build());
      util.waitTableAvailable(tn.getName(), RlsmTestCluster.HANG_GUARD_MS);
    }
    try (Table s = util.getConnection().getTable(src);
      Table d = util.getConnection().getTable(twin)) {
      for (int k = 0; k < FLUSHES; k++) {
        loadRound(s, k);
        loadRound(d, k);
        admin.flush(src);
        admin.flush(twin);
      }
    }
    List<Path> hfiles = RlsmTestCluster.storeFiles(util, src, "f");
    assertTrue("several HFiles before the alter: " + hfiles, hfiles.size() >= 2);
    for (Path p : hfiles) {
      assertFalse(p + " is RLSM before the alter", RlsmTestCluster.isRlsm(util, p));
    }
    assertSameContent("before the alter", src, twin);

    // Compactions stay off until the major compaction, so that the old HFiles provably serve
    // next to RLSM files through the alter and the abort (RLSM would otherwise fold them in
    // whenever its Level-0 fills).
    admin.compactionSwitch(false, new ArrayList<>());
    TrafficThreads traffic = traffic(src, twin);
    traffic.start();
    traffic.await(PHASE_OPS, PHASE_OPS / 4);
    // Only the engine key: the master observer completes the rest of the family's settings.
    admin.modifyColumnFamily(src,
      ColumnFamilyDescriptorBuilder.newBuilder(admin.getDescriptor(src).getColumnFamily(F))
        .setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY, RlsmConfig.ENGINE_CLASS_NAME)
        .build());
    util.waitTableAvailable(src.getName(), RlsmTestCluster.HANG_GUARD_MS);
    assertTrue(region(src).getStore(F).getStoreEngine() instanceof RlsmStoreEngine);
    traffic.await(PHASE_OPS, PHASE_OPS / 4);
    // Edits in the memstore and a fresh RLSM file next to the old HFiles when the server dies.
    admin.flush(src);
    assertMixedFiles("after the alter", src, hfiles);
    traffic.await(PHASE_OPS, PHASE_OPS / 4);
    abortHolder(src);
    assertTrue(region(src).getStore(F).getStoreEngine() instanceof RlsmStoreEngine);
    traffic.await(PHASE_OPS, PHASE_OPS / 4);
    traffic.stopAndCheck();
    assertMixedFiles("after the abort", src, hfiles);

    admin.compactionSwitch(true, new ArrayList<>());
    majorCompact(src);
    majorCompact(twin);
    assertOnlyRlsmFiles("after the major compaction", src);
    assertSameContent("after the major compaction", src, twin);

    for (TableName tn : new TableName[] { src, twin }) {
      admin.disableTable(tn);
      admin.enableTable(tn);
      util.waitTableAvailable(tn.getName(), RlsmTestCluster.HANG_GUARD_MS);
    }
    assertTrue(region(src).getStore(F).getStoreEngine() instanceof RlsmStoreEngine);
    assertOnlyRlsmFiles("after the reopen", src);
    assertSameContent("after the reopen", src, twin);
  }
}
