package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.apache.hadoop.hbase.rlsm.MigrationTraffic.F;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.rlsm.LeaveCheck;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.MigrationTraffic;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.rlsm.tool.RlsmLeave;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The way back from RLSM to HBase's default engine, in place (docs/install.md, "Removing RLSM"),
 * on a loaded RLSM family whose Level-1 has segments shared by several partitions (so a segment
 * holds rows that the manifest hides), against a default-engine twin that gets the same
 * operations:
 * <ul>
 * <li>the naive alter, removing the engine key, is refused by the master observer, and so is the
 * engine switch while the family is leaving but not yet compacted;</li>
 * <li>under a writer and a reader: the family is set leaving, its RegionServer is aborted before
 * the leave compaction (reopen in leaving mode, WAL replay), the leave compaction runs, the
 * RegionServer is aborted again before the replaced RLSM files are archived (they stay in the
 * store directory, named as compacted by the new HFile), and {@code rlsm-leave} completes the
 * switch;</li>
 * <li>afterwards the store runs on HBase's default engine without RLSM's settings, and user and
 * raw scans equal the twin's, after a major compaction of both and again after a reopen.</li>
 * </ul>
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmLeave {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmLeave.class);

  private static final byte[] Q = Bytes.toBytes("q");
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(2, conf -> {
    RlsmTestCluster.completeRlsmDescriptors(conf);
    // HBase's discharger archives compacted files only when a region closes: the test decides
    // when the files the leave compaction replaced leave the store directory.
    conf.setInt("hbase.hfile.compaction.discharger.interval", Integer.MAX_VALUE);
  });
  private static final HBaseTestingUtility util = CLUSTER.util();
  private static final List<String> FAMILY = List.of("f");

  /**
   * Partitions split by index, so that the first append's segment ends up shared by two
   * partitions, and a low dead-fraction bound, so that a partition that gets a second segment is
   * rewritten on its own, dropping delete markers.
   */
  private static ColumnFamilyDescriptorBuilder settings(ColumnFamilyDescriptorBuilder b) {
    return b.setMaxVersions(3).setConfiguration(RlsmCompactionConfig.L0_TRIGGER_KEY, "2")
      .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, "22000")
      .setConfiguration(RlsmCompactionConfig.MAX_DEAD_FRACTION_KEY, "0.1");
  }

  /**
   * Builds a Level-1 with hidden rows: two load rounds become one segment, which an index split
   * shares between two partitions; then rows of the lower partition get new versions and family
   * deletes (and one row of the upper partition a new version), so both partitions get a new
   * segment and the lower one is cleaned up alone, purging the deleted puts and their markers.
   * The shared segment stays, listed by the upper partition, and still holds the lower
   * partition's old puts: HBase's engine, reading it whole, would serve the deleted ones again.
   */
  private static void load(Admin admin, TableName src, TableName twin) throws Exception {
    try (Table s = util.getConnection().getTable(src);
      Table d = util.getConnection().getTable(twin)) {
      for (int k = 0; k < 2; k++) {
        MigrationTraffic.loadRound(s, k);
        MigrationTraffic.loadRound(d, k);
        flush(admin, src, twin);
      }
      for (int k = 0; k < 2; k++) {
        for (Table t : new Table[] { s, d }) {
          // fresh lists per table: Table.delete(List) removes what it applied
          List<Put> puts = new ArrayList<>();
          List<Delete> deletes = new ArrayList<>();
          for (int i = 0; i < 20; i++) {
            puts.add(new Put(row(i)).addColumn(F, Q, 150 + k, Bytes.toBytes("late" + k + "_" + i)));
            if (k == 0 && i % 2 == 0) {
              deletes.add(new Delete(row(i)).addFamily(F, 140));
            }
          }
          // one row of the upper partition too: the files are appended, not linked
          puts.add(new Put(row(150)).addColumn(F, Q, 150 + k, Bytes.toBytes("late" + k)));
          t.put(puts);
          t.delete(deletes);
        }
        flush(admin, src, twin);
      }
    }
  }

  private static void flush(Admin admin, TableName src, TableName twin) throws Exception {
    admin.flush(src);
    admin.flush(twin);
    admin.compact(src); // RLSM's planner chooses (HBase's table flush does not ask it)
    awaitCompactions(src);
  }

  private static HStore store(TableName tn) {
    return MigrationTraffic.region(util, tn).getStore(F);
  }

  private static void awaitCompactions(TableName tn) throws Exception {
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS,
      () -> RlsmStoreProbe.compactionsIdle(MigrationTraffic.region(util, tn)));
  }

  /** Replaces a RegionServer that a test aborted, so that the next abort has a place to go. */
  private static void replaceAbortedServer() throws Exception {
    util.getHBaseCluster().startRegionServer().waitForServerOnline();
  }

  private static void assertRefused(String what, String expected, Runnable alter) {
    try {
      alter.run();
      fail(what + " was not refused");
    } catch (RefusedAlter e) {
      assertTrue(e.getCause().getMessage(), e.getCause().getMessage().contains(expected));
    }
  }

  /** An alter's DoNotRetryIOException, through a Runnable. */
  private static final class RefusedAlter extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RefusedAlter(DoNotRetryIOException e) {
      super(e);
    }
  }

  private static Runnable engineKeyRemoval(Admin admin, TableName tn) {
    return () -> {
      try {
        ColumnFamilyDescriptor f = admin.getDescriptor(tn).getColumnFamily(F);
        admin.modifyColumnFamily(tn, ColumnFamilyDescriptorBuilder.newBuilder(f)
          .removeConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY).build());
      } catch (DoNotRetryIOException e) {
        throw new RefusedAlter(e);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    };
  }

  @Test
  public void leaveLoadedRlsmFamilyUnderTrafficAndAborts() throws Exception {
    Admin admin = util.getAdmin();
    RlsmTwinTables twins = RlsmTwinTables.create(util, "leave", TestRlsmLeave::settings, F);
    TableName src = twins.rlsm;
    TableName twin = twins.dflt;
    load(admin, src, twin);
    assertTrue("no segment with hidden rows in " + RlsmStoreProbe.partitions(store(src))
      + " partitions", RlsmStoreProbe.segmentsWithHiddenRows(store(src)) > 0);

    // The naive way back is refused, and changes nothing.
    assertRefused("removing the engine key", RlsmCompactionConfig.LEAVE_KEY,
      engineKeyRemoval(admin, src));
    assertTrue(store(src).getStoreEngine() instanceof RlsmStoreEngine);

    MigrationTraffic traffic = new MigrationTraffic(util, src, twin);
    traffic.start();
    traffic.awaitPhase();
    // Compactions stay off until the abort below, so that it hits a leaving store that still
    // has its Level-1.
    admin.compactionSwitch(false, new ArrayList<>());
    RlsmLeave.start(admin, src, FAMILY);
    assertTrue(store(src).getStoreEngine() instanceof RlsmStoreEngine);
    assertTrue(RlsmStoreProbe.partitions(store(src)) > 0);
    traffic.awaitPhase();
    assertRefused("the engine switch before the leave compaction",
      "still need its leave compaction",
      engineKeyRemoval(admin, src));
    admin.flush(src);
    MigrationTraffic.abortHolder(util, src);
    replaceAbortedServer();
    traffic.awaitPhase();

    // The leave compaction; the RegionServer dies before the files it replaced are archived.
    admin.compactionSwitch(true, new ArrayList<>());
    admin.majorCompact(src, F);
    RlsmLeave.awaitReady(admin, util.getConfiguration(), src, FAMILY,
      RlsmTestCluster.HANG_GUARD_MS);
    List<Path> replaced = new ArrayList<>();
    for (Path p : RlsmTestCluster.storeFiles(util, src, "f")) {
      if (RlsmTestCluster.isRlsm(util, p)) {
        replaced.add(p);
      }
    }
    assertFalse("the replaced RLSM files are still in the store directory", replaced.isEmpty());
    traffic.awaitPhase();
    MigrationTraffic.abortHolder(util, src);
    replaceAbortedServer();
    assertEquals(0, RlsmStoreProbe.partitions(store(src)));
    traffic.awaitPhase();

    RlsmLeave.leave(admin, util.getConfiguration(), src, FAMILY, RlsmTestCluster.HANG_GUARD_MS,
      new PrintStream(System.out, true));
    assertTrue(store(src).getStoreEngine().getClass().getName(),
      store(src).getStoreEngine() instanceof DefaultStoreEngine);
    traffic.awaitPhase();
    traffic.stopAndCheck();

    ColumnFamilyDescriptor f = admin.getDescriptor(src).getColumnFamily(F);
    f.getConfiguration().keySet().forEach(
      key -> assertFalse("RLSM setting " + key + " left", key.startsWith("hbase.rlsm.")));
    assertNull(f.getConfigurationValue(StoreEngine.STORE_ENGINE_CLASS_KEY));
    assertNull(f.getConfigurationValue("hbase.regionserver.memstore.class"));
    assertNotEquals(RlsmConfig.RLSM_SPLIT_POLICY_CLASS_NAME,
      admin.getDescriptor(src).getRegionSplitPolicyClassName());
    assertTrue(LeaveCheck.blockers(util.getConfiguration(), src, "f").isEmpty());

    twins.flushAndMajorCompact();
    awaitCompactions(src);
    awaitCompactions(twin);
    MigrationTraffic.assertSameContent(util, "after the leave and a major compaction", src, twin);
    for (TableName tn : new TableName[] { src, twin }) {
      admin.disableTable(tn);
      admin.enableTable(tn);
      util.waitTableAvailable(tn.getName(), RlsmTestCluster.HANG_GUARD_MS);
    }
    assertTrue(store(src).getStoreEngine() instanceof DefaultStoreEngine);
    MigrationTraffic.assertSameContent(util, "after the reopen", src, twin);
  }
}
