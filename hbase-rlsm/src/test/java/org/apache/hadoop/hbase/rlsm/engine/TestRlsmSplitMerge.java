package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.F;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.Q;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.assertSame;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.flush;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.majorCompact;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.rewriteReferences;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.settle;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.write;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RlsmFiles;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.regionserver.SteppingSplitPolicy;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Region split and merge of RLSM tables through the HBase client, every step compared with a
 * default-engine twin holding the same writes: split at a row and without one (the split point
 * from the Level-1 range tree), a daughter's split refused while it holds references and done
 * after they were rewritten, merge of adjacent regions (refused for daughters with references,
 * as HBase refuses it), the parents archived by the CatalogJanitor, and automatic splits under
 * HBase's standard split policies.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmSplitMerge {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmSplitMerge.class);

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER =
    new RlsmMiniClusterRule(1, RlsmTestCluster::completeRlsmDescriptors);
  private static final HBaseTestingUtility util = CLUSTER.util();

  /** Small partitions (RLSM side), so that Level-1 has several and splits at their bounds. */
  private static RlsmTwinTables twins(String name, byte[]... splits) throws IOException {
    return TwinSplits.twins(util, name, splits);
  }

  private static List<HRegion> regions(TableName tn) {
    return TwinSplits.regions(util, tn);
  }

  private static void waitForRegions(TableName tn, int n) throws Exception {
    TwinSplits.waitForRegions(util, tn, n);
  }

  private static boolean hasReferences(TableName tn) {
    return TwinSplits.hasReferences(util, tn);
  }

  private static boolean regionDirExists(TableName tn, String encoded) throws IOException {
    FileSystem fs = util.getTestFileSystem();
    Path table = CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(util.getConfiguration()), tn);
    return fs.exists(new Path(table, encoded));
  }

  /** Every manifest of a region's RLSM store lies inside its rows. */
  private static void assertOneOwnManifest(TableName tn) {
    for (HRegion r : regions(tn)) {
      int manifests = 0;
      for (HStoreFile f : r.getStore(F).getStorefiles()) {
        if (RlsmFiles.role(f) == FileRole.MANIFEST) {
          manifests++;
          assertFalse(f + " is a reference", f.isReference());
        }
      }
      assertEquals(r + " manifests", 1, manifests);
    }
  }

  /** A base layout: Level-1 partitions from a major compaction plus newer Level-0 files. */
  private static void load(RlsmTwinTables tw, int rows) throws IOException {
    write(tw, 0, rows, "a");
    flush(tw);
    write(tw, rows / 2, rows, "b");
    flush(tw);
    majorCompact(tw);
    write(tw, rows / 4, rows * 3 / 4, "c");
    flush(tw);
    write(tw, 0, rows / 8, "d");
  }

  @Test
  public void splitAtRowThenDaughterSplitsOnlyAfterItsReferencesAreRewritten() throws Exception {
    RlsmTwinTables tw = twins("split_row");
    Admin admin = util.getAdmin();
    load(tw, 800);
    String parent = regions(tw.rlsm).get(0).getRegionInfo().getEncodedName();
    // daughters keep their references until compactions are switched on again
    admin.compactionSwitch(false, List.of());
    try {
      admin.split(tw.rlsm, row(450));
      admin.split(tw.dflt, row(450));
      waitForRegions(tw.rlsm, 2);
      waitForRegions(tw.dflt, 2);
      assertTrue("daughters reference the parent's files", hasReferences(tw.rlsm));
      assertSame(tw, false);
      write(tw, 440, 460, "e"); // both daughters take writes over their references
      flush(tw);
      assertSame(tw, false);

      RegionInfo lower = admin.getRegions(tw.rlsm).get(0);
      try {
        admin.split(tw.rlsm, row(200));
        fail("a daughter holding references must not split");
      } catch (DoNotRetryIOException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("NOT splittable"));
      }
      RegionInfo upper = admin.getRegions(tw.rlsm).get(1);
      try {
        admin.mergeRegionsAsync(new byte[][] { lower.getRegionName(), upper.getRegionName() },
          false).get();
        fail("daughters holding references must not merge");
      } catch (ExecutionException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("not mergeable"));
      }
      assertEquals(2, admin.getRegions(tw.rlsm).size());
    } finally {
      admin.compactionSwitch(true, List.of());
    }
    rewriteReferences(tw);
    assertOneOwnManifest(tw.rlsm);
    assertSame(tw, true);
    assertTrue(regionDirExists(tw.rlsm, parent));
    admin.runCatalogJanitor();
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> !regionDirExists(tw.rlsm, parent));
    assertSame(tw, true);

    // the lower daughter splits again, now without a row: the store proposes the partition
    // boundary nearest its byte midpoint
    HRegion lower = regions(tw.rlsm).stream()
      .filter(r -> r.getRegionInfo().getStartKey().length == 0).findFirst().get();
    settle(lower);
    List<byte[]> lows = RlsmStoreProbe.partitionLows(lower.getStore(F));
    assertTrue("Level-1 has partition boundaries: " + lows.size(), lows.size() >= 2);
    admin.splitRegionAsync(lower.getRegionInfo().getRegionName()).get();
    waitForRegions(tw.rlsm, 3);
    byte[] splitRow = admin.getRegions(tw.rlsm).get(1).getStartKey();
    assertTrue("split at a partition boundary: " + Bytes.toStringBinary(splitRow),
      lows.stream().anyMatch(l -> Bytes.equals(l, splitRow)));
    assertSame(tw, false);
    write(tw, 0, 800, "f");
    flush(tw);
    rewriteReferences(tw);
    assertSame(tw, true);
  }

  @Test
  public void mergeOfAdjacentRegionsKeepsBothLayouts() throws Exception {
    RlsmTwinTables tw = twins("merge", row(300), row(600));
    Admin admin = util.getAdmin();
    load(tw, 900);
    flush(tw);
    majorCompact(tw);
    write(tw, 250, 350, "e"); // Level-0 files on both sides of the merge
    flush(tw);
    assertSame(tw, false);
    List<RegionInfo> before = admin.getRegions(tw.rlsm);
    admin.mergeRegionsAsync(
      new byte[][] { before.get(0).getRegionName(), before.get(1).getRegionName() }, false).get();
    List<RegionInfo> dBefore = admin.getRegions(tw.dflt);
    admin.mergeRegionsAsync(
      new byte[][] { dBefore.get(0).getRegionName(), dBefore.get(1).getRegionName() }, false)
      .get();
    waitForRegions(tw.rlsm, 2);
    waitForRegions(tw.dflt, 2);
    assertTrue("the merged region references both parents' files", hasReferences(tw.rlsm));
    assertSame(tw, false);
    rewriteReferences(tw);
    assertOneOwnManifest(tw.rlsm);
    assertSame(tw, true);
    admin.runCatalogJanitor();
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS,
      () -> !regionDirExists(tw.rlsm, before.get(0).getEncodedName())
        && !regionDirExists(tw.rlsm, before.get(1).getEncodedName()));
    write(tw, 0, 900, "f");
    flush(tw);
    assertSame(tw, false);
    // the merged region merges again with its neighbour
    List<RegionInfo> now = admin.getRegions(tw.rlsm);
    admin.mergeRegionsAsync(
      new byte[][] { now.get(0).getRegionName(), now.get(1).getRegionName() }, false).get();
    waitForRegions(tw.rlsm, 1);
    assertSame(tw, false);
    rewriteReferences(tw);
    assertSame(tw, false);
  }

  /**
   * Loads until the RLSM table split by itself at least twice. Nothing is flushed or split by
   * the test: HBase flushes when the memstore reaches the table's flush size and then asks the
   * split policy. The test only archives compacted files as HBase's discharger chore would (a
   * store keeps counting rewritten references as references until then), so that daughters can
   * split again without waiting for the chore's period.
   */
  private static void autoSplit(String name, String policy) throws Exception {
    TableName tn = TableName.valueOf(name);
    TableDescriptor td = RlsmTwinTables.descriptor(tn, true, b -> b, F)
      .setRegionSplitPolicyClassName(policy).setMaxFileSize(256 * 1024)
      .setMemStoreFlushSize(128 * 1024).build();
    util.getAdmin().createTable(td);
    assertEquals("the master observer moved the policy", policy,
      util.getAdmin().getDescriptor(tn).getValue(RlsmConfig.SPLIT_POLICY_KEY));
    byte[] value = new byte[1024];
    int written = 0;
    try (Table t = util.getConnection().getTable(tn)) {
      for (int round = 0; round < 300 && util.getAdmin().getRegions(tn).size() < 3; round++) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          // spread over the key space so that every daughter grows
          int k = (round * 100 + i) * 7919 % 100_000;
          puts.add(new Put(row(k)).addColumn(F, Q, value));
        }
        t.put(puts);
        written += puts.size();
        for (HRegion r : regions(tn)) {
          for (HStore s : r.getStores()) {
            s.closeAndArchiveCompactedFiles();
          }
        }
      }
      assertTrue(name + " split by itself", util.getAdmin().getRegions(tn).size() >= 3);
      util.waitUntilNoRegionsInTransition(RlsmTestCluster.HANG_GUARD_MS);
      int rows = 0;
      for (org.apache.hadoop.hbase.client.Result r : t.getScanner(new Scan())) {
        assertEquals(1024, r.getValue(F, Q).length);
        rows++;
      }
      assertEquals(written, rows);
    }
  }

  @Test
  public void automaticSplitUnderConstantSizePolicy() throws Exception {
    autoSplit("auto_constant", ConstantSizeRegionSplitPolicy.class.getName());
  }

  @Test
  public void automaticSplitUnderSteppingPolicy() throws Exception {
    autoSplit("auto_stepping", SteppingSplitPolicy.class.getName());
  }
}
