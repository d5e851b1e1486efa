package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.MigrationTraffic;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
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

  private static final byte[] F = MigrationTraffic.F;
  private static final int VERSIONS = 3;
  private static final int FLUSHES = 4;
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER =
    new RlsmMiniClusterRule(2, RlsmTestCluster::completeRlsmDescriptors);
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static void assertSameContent(String when, TableName src, TableName twin)
    throws IOException {
    MigrationTraffic.assertSameContent(util, when, src, twin);
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
    return MigrationTraffic.region(util, tn);
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
        MigrationTraffic.loadRound(s, k);
        MigrationTraffic.loadRound(d, k);
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
    MigrationTraffic traffic = new MigrationTraffic(util, src, twin);
    traffic.start();
    traffic.awaitPhase();
    // Only the engine key: the master observer completes the rest of the family's settings.
    admin.modifyColumnFamily(src,
      ColumnFamilyDescriptorBuilder.newBuilder(admin.getDescriptor(src).getColumnFamily(F))
        .setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY, RlsmConfig.ENGINE_CLASS_NAME)
        .build());
    util.waitTableAvailable(src.getName(), RlsmTestCluster.HANG_GUARD_MS);
    assertTrue(region(src).getStore(F).getStoreEngine() instanceof RlsmStoreEngine);
    traffic.awaitPhase();
    // Edits in the memstore and a fresh RLSM file next to the old HFiles when the server dies.
    admin.flush(src);
    assertMixedFiles("after the alter", src, hfiles);
    traffic.awaitPhase();
    MigrationTraffic.abortHolder(util, src);
    assertTrue(region(src).getStore(F).getStoreEngine() instanceof RlsmStoreEngine);
    traffic.awaitPhase();
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
