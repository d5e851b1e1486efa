package org.apache.hadoop.hbase.rlsm.fault;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionFileSystem;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.RlsmFiles;
import org.apache.hadoop.hbase.regionserver.RlsmRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreStats;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.tool.Damage;
import org.apache.hadoop.hbase.rlsm.tool.StoreVerifier;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crash sweeps over every RLSM operation: flush, range-append, link, split (index and rewrite
 * mode), chain clean-up, merge, and the archiving of the files a committed manifest replaces. For each, the number N of file system mutations (create,
 * write, sync, close, rename, delete, mkdirs) the operation performs is counted; then for every
 * k in 1..N the operation is stopped at mutation k (an injected failure, every later operation
 * failing too) and the crash materialised (unsynced bytes dropped, or a random part of them kept
 * on odd k), the WAL split and the region reopened. The region must then hold exactly the
 * oracle (every acknowledged write, no deleted row, no duplicated cell in a raw scan), and
 * {@link StoreVerifier} must find nothing in the store. {@code -Drlsm.crash.exhaustive=true}
 * also stops at every open and read, and runs both crash modes at every k.
 */
@Category({ MediumTests.class, IOTests.class })
public class TestRlsmCrashSweep {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmCrashSweep.class);

  private static final Logger LOG = LoggerFactory.getLogger(TestRlsmCrashSweep.class);
  private static final String FAMILY = "f";
  private static final byte[] F = Bytes.toBytes(FAMILY);
  private static final byte[] Q = Bytes.toBytes("q");
  private static final boolean EXHAUSTIVE = Boolean.getBoolean("rlsm.crash.exhaustive");

  /** One step on the region that also updates the oracle. */
  private interface Step {
    void run(HRegion r, TreeMap<String, String> oracle) throws IOException;
  }

  /** Turns the closed set-up region into the region the sweep drives (a daughter, say). */
  private interface Handover {
    void run(CrashableRegion cr, TreeMap<String, String> oracle) throws IOException;
  }

  private static final Handover SAME_REGION = (cr, o) -> {
  };

  /** The operation under test. */
  private interface Operation {
    void run(HRegion r) throws IOException;
  }

  private static String row(int i) {
    return String.format("row%05d", i);
  }

  private static void put(HRegion r, TreeMap<String, String> oracle, int from, int to, int step,
    String tag) throws IOException {
    for (int i = from; i < to; i += step) {
      String v = tag + "-" + i + "-" + "x".repeat(150);
      Put p = new Put(Bytes.toBytes(row(i))).addColumn(F, Q, Bytes.toBytes(v));
      p.setDurability(Durability.SYNC_WAL);
      r.put(p);
      oracle.put(row(i), v);
    }
  }

  private static void delete(HRegion r, TreeMap<String, String> oracle, int... rows)
    throws IOException {
    for (int i : rows) {
      r.delete(new Delete(Bytes.toBytes(row(i))));
      oracle.remove(row(i));
    }
  }

  private static void flush(HRegion r) throws IOException {
    r.flush(true);
  }

  private static void compactUntilSettled(HRegion r) throws IOException {
    for (int i = 0; i < 20 && r.getStore(F).getStoreEngine().needsCompaction(List.of()); i++) {
      r.compact(false);
    }
  }

  private static RlsmStoreStats stats(HRegion r) {
    return ((RlsmStoreEngine) r.getStore(F).getStoreEngine()).getStats();
  }

  private static TableDescriptor descriptor(String name, Map<String, String> family) {
    ColumnFamilyDescriptorBuilder cf = RlsmTables.familyBuilder(F)
      .setConfiguration(RlsmCompactionConfig.MAX_DEAD_FRACTION_KEY, "1.0")
      .setConfiguration(RlsmCompactionConfig.MAX_SEGMENTS_KEY, "32")
      .setConfiguration(RlsmCompactionConfig.MERGE_BYTES_KEY, "0");
    family.forEach(cf::setConfiguration);
    return RlsmTables.configure(TableDescriptorBuilder.newBuilder(TableName.valueOf(name)))
      .setColumnFamily(cf.build()).build();
  }

  /** Counters and layout, to tell which kind of compaction an operation was. */
  private static final class Snap {
    final long append;
    final long split;
    final long merge;
    final long cleanup;
    final long linked;
    final int partitions;
    final int files;
    final int references;
    /** Files compacted away and not yet archived. */
    final int compacted;
    /** Live manifests: the checkpoint and the edits after it. */
    final int manifests;

    Snap(HRegion r) {
      RlsmStoreStats s = stats(r);
      append = s.getAppendBytes();
      split = s.getSplitBytes();
      merge = s.getMergeBytes();
      cleanup = s.getCleanupBytes();
      linked = s.getLinkedFiles();
      partitions = s.getPartitions();
      files = r.getStore(F).getStorefiles().size();
      references = (int) r.getStore(F).getStorefiles().stream()
        .filter(HStoreFile::isReference).count();
      compacted = r.getStore(F).getCompactedFilesCount();
      manifests = manifests(r);
    }
  }

  private static int manifests(HRegion r) {
    return (int) r.getStore(F).getStorefiles().stream()
      .filter(f -> RlsmFiles.role(f) == FileRole.MANIFEST).count();
  }

  /** Checks what the operation did in the fault-free counting run. */
  private interface KindCheck {
    boolean matches(Snap before, Snap after);
  }

  /** The oracle check: Gets, a scan, and a raw scan without duplicated cells. */
  private static void verify(HRegion r, TreeMap<String, String> want, String ctx)
    throws IOException {
    for (Map.Entry<String, String> e : want.entrySet()) {
      Result res = r.get(new Get(Bytes.toBytes(e.getKey())));
      assertArrayEquals(ctx + ": get " + e.getKey(), Bytes.toBytes(e.getValue()),
        res.getValue(F, Q));
    }
    TreeMap<String, String> got = new TreeMap<>();
    try (RegionScanner s = r.getScanner(new Scan())) {
      List<Cell> cells = new ArrayList<>();
      boolean more;
      do {
        cells.clear();
        more = s.next(cells);
        for (Cell c : cells) {
          String old = got.put(Bytes.toString(CellUtil.cloneRow(c)),
            Bytes.toString(CellUtil.cloneValue(c)));
          assertEquals(ctx + ": row scanned twice", null, old);
        }
      } while (more);
    }
    assertEquals(ctx + ": scan equals the oracle", want, got);
    Set<String> keys = new HashSet<>();
    try (RegionScanner s = r.getScanner(new Scan().setRaw(true).readAllVersions())) {
      List<Cell> cells = new ArrayList<>();
      boolean more;
      do {
        cells.clear();
        more = s.next(cells);
        for (Cell c : cells) {
          String k = Bytes.toString(CellUtil.cloneRow(c)) + "/" + c.getTimestamp() + "/"
            + c.getTypeByte();
          assertTrue(ctx + ": duplicated cell " + k + " seq " + c.getSequenceId(), keys.add(k));
        }
      } while (more);
    }
  }

  /**
   * Builds the pre-state with {@code setup} (then closes the region cleanly and snapshots its
   * files), then sweeps {@code op} after {@code prepare} under the family settings
   * {@code sweep}. Returns the number of crash points.
   */
  private int sweep(String name, Map<String, String> setupConf, Step setup,
    Map<String, String> sweepConf, Step prepare, Operation op, KindCheck kind) throws Exception {
    return sweep(name, setupConf, setup, SAME_REGION, sweepConf, prepare, op, kind);
  }

  /**
   * As above; {@code handover} turns the set-up region into the one swept. Files of other
   * regions (a daughter's parent) must survive every crash and recovery untouched.
   */
  private int sweep(String name, Map<String, String> setupConf, Step setup, Handover handover,
    Map<String, String> sweepConf, Step prepare, Operation op, KindCheck kind) throws Exception {
    long start = System.currentTimeMillis();
    Configuration conf = HBaseConfiguration.create();
    File work = new File("target/crash-sweep/" + name);
    CrashableRegion cr = new CrashableRegion(conf, work, descriptor(name, setupConf));
    TreeMap<String, String> base = new TreeMap<>();
    HRegion r = cr.open();
    setup.run(r, base);
    cr.close();
    handover.run(cr, base);
    Map<Path, Long> others = otherRegionsFiles(cr);
    cr.saveSnapshot();
    cr.setDescriptor(descriptor(name, sweepConf));

    // Counting run, no faults.
    cr.restoreSnapshot();
    r = cr.open();
    TreeMap<String, String> want = new TreeMap<>(base);
    prepare.run(r, want);
    put(r, want, 1, 400, 37, "unflushed");
    delete(r, want, 2);
    Snap before = new Snap(r);
    cr.fs().resetCounts();
    op.run(r);
    long n = cr.fs().count(FaultOp.MUTATIONS);
    long reads = cr.fs().count(FaultOp.ALL) - n;
    Snap after = new Snap(r);
    assertTrue(name + ": the operation is the kind under test", kind.matches(before, after));
    verify(r, want, name + " without faults");
    cr.abandon();
    LOG.info("{}: {} mutations and {} opens/reads per operation", name, n, reads);

    long points = EXHAUSTIVE ? n + reads : n;
    int fired = 0;
    int crashes = 0;
    for (long k = 1; k <= points; k++) {
      for (int mode = 0; mode < (EXHAUSTIVE ? 2 : 1); mode++) {
        boolean randomTail = EXHAUSTIVE ? mode == 1 : k % 2 == 1;
        String ctx = name + " crash at " + (EXHAUSTIVE ? "operation " : "mutation ") + k + "/"
          + points + (randomTail ? " (random tail)" : " (unsynced dropped)");
        cr.restoreSnapshot();
        r = cr.open();
        TreeMap<String, String> oracle = new TreeMap<>(base);
        prepare.run(r, oracle);
        put(r, oracle, 1, 400, 37, "unflushed");
        delete(r, oracle, 2);
        cr.fs().failAt(EXHAUSTIVE ? FaultOp.ALL : FaultOp.MUTATIONS, k, true);
        try {
          op.run(r);
        } catch (IOException | RuntimeException e) {
          LOG.debug("{}: operation failed: {}", ctx, e.toString());
        }
        if (cr.fs().fired() != null) {
          fired++;
        }
        try {
          r = cr.crashAndRecover(new Random(k * 31 + mode), randomTail);
          verify(r, oracle, ctx);
          assertEquals(ctx + ": other regions' files untouched", others, otherRegionsFiles(cr));
          StoreVerifier v = new StoreVerifier(cr.fs()).verify(cr.storeDir(FAMILY));
          if (!v.findings().isEmpty()) {
            fail(ctx + ": verify tool findings " + v.findings());
          }
        } catch (IOException e) {
          throw new AssertionError(ctx + ": recovery failed: " + e, e);
        }
        cr.abandon();
        crashes++;
      }
    }
    // The operation's I/O is deterministic, so nearly every point stops it.
    assertTrue(name + ": injected failures fired at " + fired + " of " + crashes + " points",
      fired >= crashes * 9 / 10);
    LOG.info("CRASH-SWEEP {}: {} crash points, {} mutations, {} reads per operation, {} ms", name,
      crashes, n, reads, System.currentTimeMillis() - start);
    return crashes;
  }

  /** Store files of the table's regions other than the swept one, with their lengths. */
  private static Map<Path, Long> otherRegionsFiles(CrashableRegion cr) throws IOException {
    Map<Path, Long> out = new TreeMap<>();
    Path table = cr.regionDir().getParent();
    for (FileStatus region : cr.fs().listStatus(table)) {
      if (!region.isDirectory() || region.getPath().equals(cr.regionDir())
        || region.getPath().getName().startsWith(".")) {
        continue;
      }
      Path store = new Path(region.getPath(), FAMILY);
      if (cr.fs().exists(store)) {
        for (FileStatus f : cr.fs().listStatus(store)) {
          out.put(f.getPath(), f.getLen());
        }
      }
    }
    return out;
  }

  private static final Map<String, String> NONE = Map.of();

  @Test
  public void flush() throws Exception {
    sweep("sweep_flush", NONE, (r, o) -> {
      put(r, o, 0, 300, 1, "a");
      flush(r);
      put(r, o, 0, 300, 2, "b");
      delete(r, o, 10, 11);
      flush(r);
    }, NONE, (r, o) -> put(r, o, 0, 300, 3, "c"), TestRlsmCrashSweep::flush,
      (b, a) -> a.files == b.files + 1);
  }

  /** Level-1 as one partition [row00000, row{last}] from three flushes and a compaction. */
  private static void firstPartition(HRegion r, TreeMap<String, String> o, int rows)
    throws IOException {
    for (int f = 0; f < 3; f++) {
      put(r, o, f, rows, 1 + f, "l" + f);
      flush(r);
    }
    delete(r, o, 5);
    compactUntilSettled(r);
    assertEquals(1, stats(r).getPartitions());
  }

  /** Level-1 as one partition, and two more Level-0 files: the next flush triggers an append. */
  private static void beforeAppend(HRegion r, TreeMap<String, String> o) throws IOException {
    firstPartition(r, o, 200);
    twoLevel0Files(r, o);
  }

  /** Two Level-0 files with rows inside and past the partition [row00000, row00199]. */
  private static void twoLevel0Files(HRegion r, TreeMap<String, String> o) throws IOException {
    put(r, o, 100, 400, 1, "m");
    flush(r);
    put(r, o, 250, 450, 2, "n");
    flush(r);
  }

  private static void thirdLevel0File(HRegion r, TreeMap<String, String> o) throws IOException {
    put(r, o, 300, 500, 4, "p");
    flush(r);
  }

  /** The append's manifest is an edit of the one checkpoint: the chain grows by one. */
  @Test
  public void rangeAppend() throws Exception {
    sweep("sweep_append", NONE, TestRlsmCrashSweep::beforeAppend, NONE,
      TestRlsmCrashSweep::thirdLevel0File, r -> r.compact(false),
      (b, a) -> a.append > b.append && a.compacted > 0 && b.manifests == 1 && a.manifests == 2);
  }

  /** Edits are written while the chain's edits hold less than 100 times its checkpoint. */
  private static final Map<String, String> EDITS =
    Map.of(RlsmCompactionConfig.CHECKPOINT_RATIO_KEY, "100");

  /**
   * A checkpoint, an edit of it from a first range-append, and two more Level-0 files: the
   * next flush triggers a second append.
   */
  private static void chainBeforeAppend(HRegion r, TreeMap<String, String> o)
    throws IOException {
    firstPartition(r, o, 200);
    put(r, o, 50, 260, 3, "e");
    flush(r);
    put(r, o, 60, 280, 5, "f");
    flush(r);
    put(r, o, 70, 300, 7, "g");
    flush(r);
    compactUntilSettled(r);
    assertEquals("a checkpoint and an edit", 2, manifests(r));
    twoLevel0Files(r, o);
  }

  /**
   * An edit of a chain that already holds one: recovery replays the checkpoint and both edits,
   * or, before the commit, the checkpoint and the first.
   */
  @Test
  public void rangeAppendEditsAChain() throws Exception {
    sweep("sweep_append_edit", EDITS, TestRlsmCrashSweep::chainBeforeAppend, EDITS,
      TestRlsmCrashSweep::thirdLevel0File, r -> r.compact(false),
      (b, a) -> a.append > b.append && b.manifests == 2 && a.manifests == 3);
  }

  /** With one edit allowed, the second append writes a checkpoint that retires the chain. */
  private static final Map<String, String> CHECKPOINT_AFTER_ONE_EDIT =
    Map.of(RlsmCompactionConfig.CHECKPOINT_RATIO_KEY, "100",
      RlsmCompactionConfig.CHECKPOINT_EDITS_KEY, "1");

  /**
   * The append's manifest is a checkpoint: the chain it replaces (checkpoint and edit) is
   * retired with the Level-0 victims, named in its compaction-event list.
   */
  @Test
  public void rangeAppendWritesCheckpoint() throws Exception {
    sweepCheckpoint("sweep_append_checkpoint", r -> r.compact(false), false);
  }

  /**
   * The checkpoint's commit, then HBase archives the files it replaces, the whole previous
   * chain among them: a crash between two archive renames leaves chain members the reopen
   * drops (HBase, by the checkpoint's compaction-event list) or archives (the engine, as
   * manifests outside the live chain).
   */
  @Test
  public void archiveAfterCheckpointCommit() throws Exception {
    sweepCheckpoint("sweep_archive_checkpoint", r -> {
      r.compact(false);
      r.getStore(F).closeAndArchiveCompactedFiles();
    }, true);
  }

  /**
   * A second append on a chain of a checkpoint and an edit, writing a checkpoint; the files it
   * retires are then {@code archived} or still waiting for HBase to archive them.
   */
  private void sweepCheckpoint(String name, Operation op, boolean archived) throws Exception {
    sweep(name, EDITS, TestRlsmCrashSweep::chainBeforeAppend, CHECKPOINT_AFTER_ONE_EDIT,
      TestRlsmCrashSweep::thirdLevel0File, op,
      (b, a) -> a.append > b.append && b.manifests == 2 && a.manifests == 1
        && (archived ? a.compacted == 0 : a.compacted >= 3));
  }

  /**
   * The manifest commit's second half: once the new manifest (an edit) is committed, HBase
   * archives the files it replaces (the Level-0 victims; the chain stays live), one rename each,
   * with the new manifest's compaction-event list as the record of what is left to archive.
   */
  @Test
  public void archiveAfterManifestCommit() throws Exception {
    sweep("sweep_archive", NONE, TestRlsmCrashSweep::beforeAppend, NONE,
      TestRlsmCrashSweep::thirdLevel0File, r -> {
        r.compact(false);
        r.getStore(F).closeAndArchiveCompactedFiles();
      }, (b, a) -> a.append > b.append && b.compacted == 0 && a.compacted == 0
        && a.manifests == 2);
  }

  @Test
  public void link() throws Exception {
    sweep("sweep_link", NONE, (r, o) -> {
      firstPartition(r, o, 300);
      put(r, o, 10, 290, 7, "m");
      flush(r);
      put(r, o, 20, 280, 5, "n");
      flush(r);
    }, NONE, (r, o) -> {
      put(r, o, 30, 270, 3, "p");
      flush(r);
    }, r -> r.compact(false), (b, a) -> a.linked > b.linked && a.append == b.append);
  }

  @Test
  public void splitByIndex() throws Exception {
    sweepSplit("sweep_split_index", "index", (b, a) -> a.partitions == b.partitions + 1
      && a.split == b.split);
  }

  @Test
  public void splitByRewrite() throws Exception {
    sweepSplit("sweep_split_rewrite", "rewrite", (b, a) -> a.partitions == b.partitions + 1
      && a.split > b.split);
  }

  private void sweepSplit(String name, String mode, KindCheck kind) throws Exception {
    sweep(name, NONE, (r, o) -> firstPartition(r, o, 600),
      Map.of(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(48 * 1024),
        RlsmCompactionConfig.SPLIT_MODE_KEY, mode),
      (r, o) -> { }, r -> r.compact(false), kind);
  }

  @Test
  public void chainCleanup() throws Exception {
    sweep("sweep_cleanup", NONE, (r, o) -> {
      firstPartition(r, o, 300);
      for (int round = 0; round < 2; round++) {
        for (int f = 0; f < 3; f++) {
          put(r, o, 10 + f + round, 290, 9, "c" + round + f);
          flush(r);
        }
        compactUntilSettled(r);
      }
    }, Map.of(RlsmCompactionConfig.MAX_SEGMENTS_KEY, "3"), (r, o) -> { },
      r -> r.compact(false), (b, a) -> a.cleanup > b.cleanup);
  }

  @Test
  public void merge() throws Exception {
    sweep("sweep_merge", NONE, (r, o) -> {
      firstPartition(r, o, 100);
      for (int f = 0; f < 3; f++) {
        put(r, o, 500 + f, 600, 1 + f, "h" + f);
        flush(r);
      }
      compactUntilSettled(r);
      assertEquals("two partitions", 2, stats(r).getPartitions());
    }, Map.of(RlsmCompactionConfig.MERGE_BYTES_KEY, Long.toString(4L << 20)), (r, o) -> { },
      r -> r.compact(false), (b, a) -> a.merge > b.merge);
  }

  /**
   * Splits the closed region at {@code splitRow} as HBase's split procedure does with the RLSM
   * split policy (a bottom {@code Reference} to every store file, the manifest included) and
   * hands over its lower daughter.
   */
  private static Handover lowerDaughter(byte[] splitRow) {
    return (cr, oracle) -> {
      RegionInfo parent = cr.info();
      RegionInfo lower = RegionInfoBuilder.newBuilder(parent.getTable())
        .setStartKey(parent.getStartKey()).setEndKey(splitRow)
        .setRegionId(parent.getRegionId() + 1).build();
      Configuration conf = cr.fs().getConf();
      Path table = cr.regionDir().getParent();
      HRegionFileSystem.createRegionOnFileSystem(conf, cr.fs(), table, lower);
      HRegionFileSystem parentFs =
        HRegionFileSystem.openRegionFromFileSystem(conf, cr.fs(), table, parent, true);
      RegionSplitPolicy policy = ReflectionUtils.newInstance(RlsmRegionSplitPolicy.class, conf);
      int refs = 0;
      for (FileStatus st : cr.fs().listStatus(cr.storeDir(FAMILY))) {
        if (st.isFile()) {
          HStoreFile f = new HStoreFile(new StoreFileInfo(conf, cr.fs(), st.getPath(), true),
            BloomType.ROW, CacheConfig.DISABLED);
          assertTrue(parentFs.splitStoreFile(lower, FAMILY, f, splitRow, false, policy) != null);
          refs++;
        }
      }
      assertTrue("the parent has files to reference", refs > 2);
      oracle.tailMap(Bytes.toString(splitRow), true).clear();
      cr.switchTo(lower);
    };
  }

  /**
   * A daughter's first compaction rewrites its references to the parent's Level-1 and Level-0
   * files into a layout of its own; a crash at any of its writes leaves either the parent's
   * layout (read through the references) or the daughter's, and the parent's files untouched.
   */
  @Test
  public void daughterRewritesReferences() throws Exception {
    daughterSweep("sweep_daughter", NONE);
  }

  /**
   * The same with a parent whose Level-1 is a chain (a checkpoint and an edit): the daughter
   * references both and replays them until its first compaction writes a checkpoint of its
   * own, which retires the references to both.
   */
  @Test
  public void daughterOfAChain() throws Exception {
    daughterSweep("sweep_daughter_chain", EDITS);
  }

  private void daughterSweep(String name, Map<String, String> conf) throws Exception {
    sweep(name, conf, (r, o) -> {
      firstPartition(r, o, 600);
      put(r, o, 100, 560, 9, "m");
      flush(r);
      if (conf != NONE) {
        put(r, o, 120, 580, 13, "k");
        flush(r);
        put(r, o, 130, 590, 17, "j");
        flush(r);
        compactUntilSettled(r);
        assertEquals("the parent's chain: a checkpoint and an edit", 2, manifests(r));
      }
      delete(r, o, 7, 470);
      flush(r);
    }, lowerDaughter(Bytes.toBytes(row(450))), NONE, (r, o) -> {
      assertTrue("the daughter opened with references",
        r.getStore(F).getStorefiles().stream().anyMatch(HStoreFile::isReference));
      put(r, o, 3, 440, 11, "d");
      flush(r);
    }, r -> r.compact(false), (b, a) -> b.references > 0 && a.references == 0
      && a.manifests == 1);
  }
}
