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
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.writeRandom;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.ClusterMetrics.Option;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.NormalizeTableFilterParams;
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
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
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
 * as HBase refuses it), the parents archived by the CatalogJanitor, automatic splits under
 * HBase's standard split policies, and the splits and merges HBase's region normalizer plans.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmSplitMerge {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmSplitMerge.class);

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1, conf -> {
    RlsmTestCluster.completeRlsmDescriptors(conf);
    // the normalizer runs only when a test asks (Admin.normalize), never by its chore
    conf.setInt("hbase.normalizer.period", Integer.MAX_VALUE);
  });
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

  /**
   * Every region's RLSM store holds manifests of its own only (no reference to a parent's), and
   * all of them form its live chain (a checkpoint and the edits after it).
   */
  private static void assertOwnManifests(TableName tn) throws IOException {
    for (HRegion r : regions(tn)) {
      List<HStoreFile> manifests = new ArrayList<>();
      for (HStoreFile f : r.getStore(F).getStorefiles()) {
        if (RlsmFiles.role(f) == FileRole.MANIFEST) {
          manifests.add(f);
          assertFalse(f + " is a reference", f.isReference());
        }
      }
      assertFalse(r + " has a manifest", manifests.isEmpty());
      assertEquals(r + " manifests", RlsmFiles.chain(manifests).size(), manifests.size());
    }
  }

  /** A base layout: Level-1 partitions from a major compaction plus newer Level-0 files. */
  private static void load(RlsmTwinTables tw, int rows) throws Exception {
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
    assertOwnManifests(tw.rlsm);
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
    // the merged region keeps its references until compactions are switched on again (it asks
    // for their rewrite as soon as it opens)
    admin.compactionSwitch(false, List.of());
    try {
      admin.mergeRegionsAsync(
        new byte[][] { before.get(0).getRegionName(), before.get(1).getRegionName() }, false)
        .get();
      List<RegionInfo> dBefore = admin.getRegions(tw.dflt);
      admin.mergeRegionsAsync(
        new byte[][] { dBefore.get(0).getRegionName(), dBefore.get(1).getRegionName() }, false)
        .get();
      waitForRegions(tw.rlsm, 2);
      waitForRegions(tw.dflt, 2);
      assertTrue("the merged region references both parents' files", hasReferences(tw.rlsm));
      assertSame(tw, false);
    } finally {
      admin.compactionSwitch(true, List.of());
    }
    rewriteReferences(tw);
    assertOwnManifests(tw.rlsm);
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

  /** HBase's normalizer settings, read from a table's values (SimpleRegionNormalizer). */
  private static final String NORMALIZER_SPLIT = "hbase.normalizer.split.enabled";
  private static final String NORMALIZER_MERGE = "hbase.normalizer.merge.enabled";
  private static final String NORMALIZER_MERGE_MIN_AGE =
    "hbase.normalizer.merge.min_region_age.days";

  /**
   * Twins that HBase's normalizer may normalize ({@code NORMALIZATION_ENABLED}), by splits only
   * ({@code split}) or merges only, so that each test sees one kind of plan; regions are old
   * enough to merge at once (HBase's default waits 3 days).
   */
  private static RlsmTwinTables normalizedTwins(String name, boolean split, byte[]... splits)
    throws IOException {
    return RlsmTwinTables.create(util, name, splits,
      t -> t.setNormalizationEnabled(true).setValue(NORMALIZER_SPLIT, Boolean.toString(split))
        .setValue(NORMALIZER_MERGE, Boolean.toString(!split))
        .setValue(NORMALIZER_MERGE_MIN_AGE, "0"),
      b -> b.setMaxVersions(3).setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY,
        Long.toString(1024 * 1024)),
      F);
  }

  /**
   * Small rows below {@code large} (the tiny regions), 900 rows of 8 KB random values from
   * {@code large} on (about 7 MB of store files), newer versions over parts of both; flushed and
   * major compacted, so that the store file sizes the RegionServer reports are the data's.
   */
  private static void loadTinyAndLarge(RlsmTwinTables tw, int large) throws Exception {
    write(tw, 0, large, "a");
    writeRandom(tw, large, large + 900, 8 * 1024);
    flush(tw);
    write(tw, 100, large + 300, "b");
    flush(tw);
    majorCompact(tw);
  }

  private static List<HRegion> sortedRegions(TableName tn) {
    List<HRegion> out = new ArrayList<>(regions(tn));
    out.sort((a, b) -> RegionInfo.COMPARATOR.compare(a.getRegionInfo(), b.getRegionInfo()));
    return out;
  }

  /**
   * Store file megabytes of each region of {@code tn}, in row order, as the master last heard them
   * from the RegionServer (the region load the normalizer plans by); -1 for a region not heard of.
   */
  private static List<Long> reportedMb(TableName tn) throws IOException {
    List<ServerMetrics> servers = new ArrayList<>(util.getAdmin()
      .getClusterMetrics(EnumSet.of(Option.LIVE_SERVERS)).getLiveServerMetrics().values());
    List<Long> out = new ArrayList<>();
    for (HRegion r : sortedRegions(tn)) {
      long mb = -1;
      for (ServerMetrics s : servers) {
        RegionMetrics m = s.getRegionMetrics().get(r.getRegionInfo().getRegionName());
        if (m != null) {
          mb = (long) m.getStoreFileSize().get(Size.Unit.MEGABYTE);
        }
      }
      out.add(mb);
    }
    return out;
  }

  /**
   * Store file megabytes of each region of {@code tn}, in row order, as its RegionServer reports
   * them now (HBase rounds a size below 1 MB up to 1 unless it is 0).
   */
  private static List<Long> currentMb(TableName tn) {
    List<Long> out = new ArrayList<>();
    for (HRegion r : sortedRegions(tn)) {
      long bytes = r.getStores().stream().mapToLong(HStore::getStorefilesSize).sum();
      out.add(bytes == 0 ? 0 : Math.max(1, bytes / (1024 * 1024)));
    }
    return out;
  }

  /**
   * Waits until the master heard every region's current store file size (the RegionServer reports
   * at its own interval) and returns the sizes of the RLSM table's regions, which must be the
   * twin's (RLSM writes about as many bytes for these values), so both see the same plans.
   */
  private static List<Long> awaitReportedSizes(RlsmTwinTables tw) throws Exception {
    for (TableName tn : new TableName[] { tw.rlsm, tw.dflt }) {
      util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> reportedMb(tn).equals(currentMb(tn)));
    }
    List<Long> sizes = reportedMb(tw.rlsm);
    assertEquals("the sizes the normalizer plans by", reportedMb(tw.dflt), sizes);
    return sizes;
  }

  /**
   * Switches the normalizer on and has it normalize both tables, with compactions switched off so
   * that the regions it makes keep their references; waits until each table has {@code regions}
   * regions and compares them with references.
   */
  private static void normalize(RlsmTwinTables tw, int regions) throws Exception {
    Admin admin = util.getAdmin();
    admin.compactionSwitch(false, List.of());
    try {
      admin.normalizerSwitch(true);
      assertTrue("the normalizer ran", admin.normalize(
        new NormalizeTableFilterParams.Builder().tableNames(List.of(tw.rlsm, tw.dflt)).build()));
      waitForRegions(tw.rlsm, regions);
      waitForRegions(tw.dflt, regions);
      assertTrue("the normalizer's regions reference their parents' files",
        hasReferences(tw.rlsm));
      assertSame(tw, false);
    } finally {
      admin.normalizerSwitch(false);
      admin.compactionSwitch(true, List.of());
    }
  }

  private static List<String> startRows(TableName tn) throws IOException {
    List<String> out = new ArrayList<>();
    for (RegionInfo ri : util.getAdmin().getRegions(tn)) {
      out.add(Bytes.toStringBinary(ri.getStartKey()));
    }
    out.sort(null);
    return out;
  }

  /**
   * Four tiny regions (HBase reports each as 1 MB: it rounds a non-empty store up) next to one of
   * about 7 MB: the average is above 2 MB, so HBase's normalizer merges the tiny regions two by
   * two (it grows a run of adjacent regions while the run stays within the average) and leaves the
   * large one (splits are off for these tables).
   */
  @Test
  public void normalizerMergesSmallRegions() throws Exception {
    RlsmTwinTables tw =
      normalizedTwins("normalizer_merge", false, row(200), row(400), row(600), row(800));
    loadTinyAndLarge(tw, 800);
    List<String> tiny = new ArrayList<>();
    for (RegionInfo ri : util.getAdmin().getRegions(tw.rlsm)) {
      if (!Bytes.equals(ri.getStartKey(), row(800))) {
        tiny.add(ri.getEncodedName());
      }
    }
    List<Long> sizes = awaitReportedSizes(tw);
    assertEquals("tiny regions: " + sizes, List.of(1L, 1L, 1L, 1L), sizes.subList(0, 4));
    normalize(tw, 3);
    assertEquals("merged alike", startRows(tw.dflt), startRows(tw.rlsm));
    assertEquals(List.of("", Bytes.toStringBinary(row(400)), Bytes.toStringBinary(row(800))),
      startRows(tw.rlsm));
    rewriteReferences(tw);
    assertOwnManifests(tw.rlsm);
    assertSame(tw, true);
    util.getAdmin().runCatalogJanitor();
    for (String parent : tiny) {
      util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> !regionDirExists(tw.rlsm, parent));
    }
    write(tw, 0, 1000, "c");
    flush(tw);
    assertSame(tw, false);
  }

  /**
   * Two tiny regions (1 MB each as reported) next to one of about 7 MB, more than twice the
   * average: HBase's normalizer splits the large one (merges are off for these tables), without a
   * split row, so RLSM's store proposes the Level-1 partition boundary nearest its byte midpoint.
   */
  @Test
  public void normalizerSplitsLargeRegion() throws Exception {
    RlsmTwinTables tw = normalizedTwins("normalizer_split", true, row(200), row(400));
    loadTinyAndLarge(tw, 400);
    HRegion large = sortedRegions(tw.rlsm).get(2);
    settle(large);
    List<byte[]> lows = RlsmStoreProbe.partitionLows(large.getStore(F));
    List<Long> sizes = awaitReportedSizes(tw);
    assertTrue("more than twice the average: " + sizes,
      sizes.get(2) * 3 > 2 * (sizes.get(0) + sizes.get(1) + sizes.get(2)));
    normalize(tw, 4);
    byte[] split = sortedRegions(tw.rlsm).get(3).getRegionInfo().getStartKey();
    assertTrue("split at a partition boundary: " + Bytes.toStringBinary(split),
      lows.stream().anyMatch(l -> Bytes.equals(l, split)));
    byte[] twinSplit = sortedRegions(tw.dflt).get(3).getRegionInfo().getStartKey();
    // across both tables' split rows, from and to each
    tw.assertSameScan(new Scan().withStartRow(row(450)).withStopRow(row(1250)).readAllVersions());
    for (byte[] at : new byte[][] { split, twinSplit }) {
      tw.assertSameScan(new Scan().withStartRow(at).readAllVersions());
      tw.assertSameScan(new Scan().withStopRow(at).setReversed(true).readAllVersions());
    }
    rewriteReferences(tw);
    assertOwnManifests(tw.rlsm);
    assertSame(tw, true);
    write(tw, 0, 1300, "c");
    flush(tw);
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
