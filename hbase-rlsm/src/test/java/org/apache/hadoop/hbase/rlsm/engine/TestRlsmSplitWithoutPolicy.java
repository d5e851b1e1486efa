package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.regionserver.storefiletracker.StoreFileTrackerFactory;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * An explicit split at a row of an RLSM table whose descriptor names neither RLSM's split policy
 * nor anything else RLSM would set: a cluster without {@code RlsmMasterObserver}, HBase's own
 * split policy as the RegionServers' default (docs/install.md), a family that sets only the
 * engine key. HBase's master splits the files as HFiles; the daughters complete their references
 * at open ({@code DaughterReferences}) and serve every row.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmSplitWithoutPolicy {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmSplitWithoutPolicy.class);

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1);
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int SPLIT_ROW = 200;

  private static List<HRegion> regions(TableName tn) {
    return util.getHBaseCluster().getRegions(tn);
  }

  private static void assertContent(TableName tn, int[][] batches) throws IOException {
    int rows = 0;
    try (Table t = util.getConnection().getTable(tn)) {
      for (int[] b : batches) {
        for (int i = b[0]; i < b[1]; i++, rows++) {
          assertArrayEquals("row " + i, Bytes.toBytes("v" + i),
            t.get(new Get(row(i))).getValue(F, Q));
        }
      }
      assertEquals(rows, util.countRows(t));
    }
  }

  /**
   * A table whose only family sets the engine key, loaded in batches of rows {@code [from, to)},
   * each flushed and major-compacted: a batch in a gap between partitions becomes a partition
   * with a segment of its own.
   */
  private static TableName load(String name, int[][] batches) throws Exception {
    return load(name, batches, "DEFAULT");
  }

  /** As {@link #load(String, int[][])}, under HBase's store-file {@code tracker}. */
  private static TableName load(String name, int[][] batches, String tracker) throws Exception {
    Admin admin = util.getAdmin();
    TableName tn = TableName.valueOf(name);
    admin.createTable(TableDescriptorBuilder.newBuilder(tn)
      .setValue(StoreFileTrackerFactory.TRACKER_IMPL, tracker)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F)
        .setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY, RlsmConfig.ENGINE_CLASS_NAME).build())
      .build());
    assertNull(admin.getDescriptor(tn).getRegionSplitPolicyClassName());
    assertTrue(regions(tn).get(0).getStore(F).getStoreEngine() instanceof RlsmStoreEngine);
    try (Table t = util.getConnection().getTable(tn)) {
      for (int[] b : batches) {
        List<Put> puts = new ArrayList<>();
        for (int i = b[0]; i < b[1]; i++) {
          puts.add(new Put(row(i)).addColumn(F, Q, Bytes.toBytes("v" + i)));
        }
        t.put(puts);
        util.flush(tn);
        util.compact(tn, true); // Level-1: segments and a manifest, the file without cells
      }
    }
    assertEquals(batches.length,
      RlsmStoreProbe.partitionLows(regions(tn).get(0).getStore(F)).size());
    return tn;
  }

  /**
   * HBase splits the files as HFiles (no reference to the manifest, links for files wholly on one
   * side, nothing for a file wholly on the other). Before {@code DaughterReferences} the daughters
   * never opened: the split's future timed out with both daughters in OPENING, every open failing
   * with "... is a Level-1 segment of region ..., but the store holds no manifest of that region".
   */
  private static void assertSplitServesEveryRow(TableName tn, int[][] batches) throws Exception {
    Admin admin = util.getAdmin();
    RegionInfo parent = admin.getRegions(tn).get(0);
    admin.splitRegionAsync(parent.getRegionName(), row(SPLIT_ROW))
      .get(RlsmTestCluster.HANG_GUARD_MINUTES, TimeUnit.MINUTES);
    util.waitUntilNoRegionsInTransition(RlsmTestCluster.HANG_GUARD_MS);
    assertEquals(2, admin.getRegions(tn).size());
    assertEquals(2, regions(tn).size());
    assertContent(tn, batches);

    // the daughters rewrite their references and own their rows (the compacted references wait
    // for HBase's discharger to archive them)
    util.compact(tn, true);
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> regions(tn).stream()
      .allMatch(r -> r.getStore(F).getStorefiles().stream().noneMatch(HStoreFile::isReference)));
    assertContent(tn, batches);
  }

  /**
   * Under HBase's FILE store-file tracker the parent's files are those its list names: a file in
   * the parent's store directory that the list does not name is not the store's (the parent does
   * not serve it, HBase's split does not see it), and the daughters refer to none of it. Here it
   * is an HFile with a row of its own below the split row, which a daughter that read the
   * directory instead would serve.
   */
  @Test
  public void fileTracker() throws Exception {
    int[][] batches = { { 0, 100 }, { 300, 400 } };
    TableName tn = load("split_without_policy_file", batches, "FILE");
    HRegion parent = regions(tn).get(0);
    FileSystem fs = parent.getRegionFileSystem().getFileSystem();
    Path stray = new Path(parent.getRegionFileSystem().getStoreDir(Bytes.toString(F)),
      UUID.randomUUID().toString().replace("-", ""));
    try (HFile.Writer w = HFile.getWriterFactory(util.getConfiguration(), CacheConfig.DISABLED)
      .withPath(fs, stray).withFileContext(new HFileContextBuilder().build()).create()) {
      w.append(new KeyValue(row(150), F, Q, 1L, Bytes.toBytes("stray")));
    }
    assertContent(tn, batches);
    assertSplitServesEveryRow(tn, batches);
  }

  /** One partition, whose segment holds the split row: the master left out only the manifest. */
  @Test
  public void oneSegment() throws Exception {
    int[][] batches = { { 0, 400 } };
    assertSplitServesEveryRow(load("split_without_policy_one", batches), batches);
  }

  /**
   * Two partitions, one on each side of the split row: the master linked each segment into one
   * daughter only and left out the manifest.
   */
  @Test
  public void segmentsOnBothSides() throws Exception {
    int[][] batches = { { 0, 100 }, { 300, 400 } };
    assertSplitServesEveryRow(load("split_without_policy_sides", batches), batches);
  }
}
