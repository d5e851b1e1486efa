package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.ScannerContext;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.HFileArchiveUtil;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Compactions interrupted at each stage: a failure while outputs are being written (nothing may
 * be committed), a crash after outputs reached the store directory but before the manifest (the
 * outputs are orphans and are archived at open), a crash after commit but before the inputs were
 * archived (HBase archives them at open from the manifest's compacted-files list), and a
 * RegionServer abort in the middle of a compaction. After each, every row reads its value.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmCompactionCrash {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmCompactionCrash.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(2,
    conf -> conf.setInt("hbase.hstore.compaction.retries", 0));
  private static final HBaseTestingUtility util = CLUSTER.util();

  /**
   * Fails, holds or slows compactions of tables that carry it, on request. A held compaction
   * counts down {@code entered} at its first cell and then waits for {@code release}: the test
   * knows the compaction is running, and decides when it goes on.
   */
  public static class Interrupter implements RegionCoprocessor, RegionObserver {
    static final AtomicInteger failNext = new AtomicInteger();
    static final AtomicReference<Hold> hold = new AtomicReference<>();
    static volatile long stallMillis;
    /** Fails the next compaction once its scan returns a row at or past this one. */
    static final AtomicReference<byte[]> failAtRow = new AtomicReference<>();
    /** The files in the region's temporary directory when {@link #failAtRow} struck. */
    static final AtomicInteger tmpFilesAtFailure = new AtomicInteger(-1);

    @Override
    public Optional<RegionObserver> getRegionObserver() {
      return Optional.of(this);
    }

    @Override
    public InternalScanner preCompact(ObserverContext<RegionCoprocessorEnvironment> c,
      Store store, InternalScanner scanner, ScanType scanType, CompactionLifeCycleTracker tracker,
      CompactionRequest request) {
      TableName table = c.getEnvironment().getRegionInfo().getTable();
      boolean fail = failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
      byte[] failAt = failAtRow.getAndSet(null);
      HRegion region = (HRegion) c.getEnvironment().getRegion();
      long stall = stallMillis;
      return new InternalScanner() {
        int cells;

        @Override
        public boolean next(List<Cell> result, ScannerContext ctx) throws IOException {
          boolean more = scanner.next(result, ctx);
          cells += result.size();
          Hold h = hold.get();
          // Only the first call of one compaction of the held table takes the hold.
          if (h != null && h.table.equals(table) && hold.compareAndSet(h, null)) {
            h.entered.countDown();
            try {
              RlsmTestCluster.awaitLatch(h.release);
            } catch (InterruptedException e) {
              throw new java.io.InterruptedIOException();
            }
          }
          if (fail && cells > 100) {
            throw new IOException("injected compaction failure after " + cells + " cells");
          }
          if (failAt != null && !result.isEmpty()
            && Bytes.compareTo(CellUtil.cloneRow(result.get(result.size() - 1)), failAt) >= 0) {
            tmpFilesAtFailure.set(tmpFiles(region).size());
            throw new IOException("injected compaction failure at row "
              + Bytes.toStringBinary(failAt) + " after " + cells + " cells");
          }
          if (stall > 0) {
            try {
              Thread.sleep(stall);
            } catch (InterruptedException e) {
              throw new java.io.InterruptedIOException();
            }
          }
          return more;
        }

        @Override
        public void close() throws IOException {
          scanner.close();
        }
      };
    }
  }

  /** A compaction of {@code table} to hold: see {@link Interrupter}. */
  static final class Hold {
    final TableName table;
    final CountDownLatch entered;
    final CountDownLatch release;

    Hold(TableName table, CountDownLatch entered, CountDownLatch release) {
      this.table = table;
      this.entered = entered;
      this.release = release;
    }
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row%06d", i));
  }

  private static TableName create(String name) throws Exception {
    return create(name, RlsmTables.family(F));
  }

  private static TableName create(String name, ColumnFamilyDescriptor family) throws Exception {
    TableName tn = TableName.valueOf(name);
    util.getAdmin().createTable(RlsmTables.configure(TableDescriptorBuilder.newBuilder(tn))
      .setColumnFamily(family).setCoprocessor(Interrupter.class.getName()).build());
    util.waitTableAvailable(tn.getName(), RlsmTestCluster.HANG_GUARD_MS);
    return tn;
  }

  private static HRegion region(TableName tn) {
    return util.getHBaseCluster().getRegions(tn).get(0);
  }

  /** Three flushes of overlapping rows; returns the expected value of each row. */
  private static String[] load(TableName tn, int rows, int rounds) throws Exception {
    return load(tn, rows, rounds, "v");
  }

  /** As {@link #load(TableName, int, int)}, values starting with {@code prefix}. */
  private static String[] load(TableName tn, int rows, int rounds, String prefix)
    throws Exception {
    String[] want = new String[rows];
    try (Table t = util.getConnection().getTable(tn)) {
      for (int r = 0; r < rounds; r++) {
        List<Put> puts = new ArrayList<>();
        for (int i = r; i < rows; i += 2) {
          want[i] = prefix + r + "-" + i;
          puts.add(new Put(row(i)).addColumn(F, Q, Bytes.toBytes(want[i])));
        }
        t.put(puts);
        util.getAdmin().flush(tn);
      }
    }
    return want;
  }

  private static void verify(TableName tn, String[] want) throws Exception {
    try (Table t = util.getConnection().getTable(tn)) {
      int live = 0;
      for (int i = 0; i < want.length; i++) {
        if (want[i] != null) {
          live++;
          assertArrayEquals("row " + i, Bytes.toBytes(want[i]),
            t.get(new Get(row(i))).getValue(F, Q));
        }
      }
      int n = 0;
      try (ResultScanner rs = t.getScanner(new Scan())) {
        while (rs.next() != null) {
          n++;
        }
      }
      assertEquals("no row lost or duplicated", live, n);
    }
  }

  /** Every file under the region's temporary directory (HBase's writers create theirs there). */
  private static List<Path> tmpFiles(HRegion region) throws IOException {
    FileSystem fs = region.getRegionFileSystem().getFileSystem();
    Path tmp = region.getRegionFileSystem().getTempDir();
    List<Path> out = new ArrayList<>();
    if (fs.exists(tmp)) {
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(tmp, true);
      while (it.hasNext()) {
        out.add(it.next().getPath());
      }
    }
    return out;
  }

  private static List<String> storeFileNames(TableName tn) {
    List<String> names = new ArrayList<>();
    region(tn).getStore(F).getStorefiles().forEach(f -> names.add(f.getPath().getName()));
    names.sort(null);
    return names;
  }

  private static Path storeDir(TableName tn) {
    return region(tn).getRegionFileSystem().getStoreDir("f");
  }

  private static void reopen(TableName tn) throws Exception {
    util.getAdmin().disableTable(tn);
    util.getAdmin().enableTable(tn);
    util.waitTableAvailable(tn.getName(), RlsmTestCluster.HANG_GUARD_MS);
  }

  @Test
  public void failureWhileWritingCommitsNothing() throws Exception {
    TableName tn = create("crash_write");
    String[] want = load(tn, 2000, 3);
    HStore store = region(tn).getStore(F);
    List<String> before = new ArrayList<>();
    store.getStorefiles().forEach(f -> before.add(f.getPath().getName()));
    Interrupter.failNext.set(1);
    try {
      util.compact(tn, false);
      fail("the injected failure must fail the compaction");
    } catch (IOException e) {
      assertTrue(e.toString(), e.toString().contains("injected compaction failure"));
    }
    List<String> after = new ArrayList<>();
    store.getStorefiles().forEach(f -> after.add(f.getPath().getName()));
    assertEquals("store unchanged", before, after);
    // HBase's writers create their files under .tmp/<family>/; the directory may stay
    assertEquals("no partial output left in .tmp", List.of(), tmpFiles(region(tn)));
    verify(tn, want);
    util.compact(tn, false); // the next attempt succeeds
    assertTrue(store.getStorefiles().size() < before.size());
    verify(tn, want);
    reopen(tn);
    verify(tn, want);
  }

  /**
   * A range-append's segments are closed by the finisher while its scan goes on (one closing
   * thread here, so at most two segments wait): a failure late in the scan, when the segments of
   * the partitions it passed are closed files in {@code .tmp}, commits nothing and leaves none of
   * them behind; the next compaction succeeds.
   */
  @Test
  public void failureAfterFinishedSegmentsCommitsNothing() throws Exception {
    TableName tn = create("crash_finished", RlsmTables.familyBuilder(F)
      .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(16 * 1024))
      .setConfiguration(RlsmCompactionConfig.MERGE_BYTES_KEY, "0")
      .setConfiguration(RlsmCompactionConfig.FINISH_THREADS_KEY, "1").build());
    int rows = 6000;
    String[] want = load(tn, rows, 3, "a");
    HStore store = region(tn).getStore(F);
    for (int i = 0; i < 30 && store.getStoreEngine().needsCompaction(List.of()); i++) {
      util.compact(tn, false);
    }
    int partitions = RlsmStoreProbe.partitions(store);
    assertTrue("partitions to append to: " + partitions, partitions >= 8);
    want = mergeWant(want, load(tn, rows, 3, "b"));
    List<String> before = storeFileNames(tn);
    Interrupter.failAtRow.set(row(rows * 9 / 10));
    try {
      util.compact(tn, false);
      fail("the injected failure must fail the compaction");
    } catch (IOException e) {
      assertTrue(e.toString(), e.toString().contains("injected compaction failure at row"));
    } finally {
      Interrupter.failAtRow.set(null);
    }
    // one segment being written and at most two waiting for the closing thread: any more files
    // were closed segments when the compaction failed
    int atFailure = Interrupter.tmpFilesAtFailure.get();
    assertTrue(partitions + " partitions, files in .tmp at the failure: " + atFailure,
      atFailure > 3);
    assertEquals("store unchanged", before, storeFileNames(tn));
    assertEquals("no output left in .tmp", List.of(), tmpFiles(region(tn)));
    verify(tn, want);
    util.compact(tn, false);
    assertEquals("the next append took Level-0", 0, RlsmStoreProbe.level0Files(store));
    verify(tn, want);
  }

  @Test
  public void outputsWithoutManifestAreOrphansAtOpen() throws Exception {
    TableName tn = create("crash_orphans");
    String[] want = load(tn, 2000, 3);
    util.compact(tn, false);
    want = mergeWant(want, load(tn, 2000, 3));
    FileSystem fs = util.getTestFileSystem();
    Path dir = storeDir(tn);
    // What a crash leaves after the first outputs were renamed into the store and before the
    // manifest was: segments no manifest lists. Copies of a live segment, under new names.
    List<Path> orphans = new ArrayList<>();
    for (FileStatus st : fs.listStatus(dir)) {
      if (orphans.size() < 2 && region(tn).getStore(F).getStorefiles().stream()
        .anyMatch(sf -> sf.getPath().getName().equals(st.getPath().getName())
          && org.apache.hadoop.hbase.regionserver.RlsmFiles.role(sf)
            == org.apache.hadoop.hbase.rlsm.format.FileRole.SEGMENT)) {
        Path copy = new Path(dir, java.util.UUID.randomUUID().toString().replace("-", ""));
        FileUtil.copy(fs, st.getPath(), fs, copy, false, util.getConfiguration());
        orphans.add(copy);
      }
    }
    assertFalse("the first compaction wrote a segment", orphans.isEmpty());
    reopen(tn);
    for (Path p : orphans) {
      assertFalse(p + " must be archived at open", fs.exists(new Path(storeDir(tn),
        p.getName())));
    }
    verify(tn, want);
  }

  @Test
  public void inputsLeftBehindAfterCommitAreArchivedAtOpen() throws Exception {
    TableName tn = create("crash_inputs");
    String[] want = load(tn, 2000, 3);
    FileSystem fs = util.getTestFileSystem();
    Path dir = storeDir(tn);
    List<String> victims = new ArrayList<>();
    region(tn).getStore(F).getStorefiles().forEach(f -> victims.add(f.getPath().getName()));
    util.compact(tn, false);
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> {
      region(tn).getStore(F).closeAndArchiveCompactedFiles();
      return !fs.exists(new Path(storeDir(tn), victims.get(0)));
    });
    // A crash after the manifest was committed but before the inputs were archived: put the
    // archived inputs back into the store directory.
    Path archive = HFileArchiveUtil.getStoreArchivePath(util.getConfiguration(),
      region(tn).getRegionInfo(), CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(
        util.getConfiguration()), tn), F);
    for (String v : victims) {
      assertTrue(FileUtil.copy(fs, new Path(archive, v), fs, new Path(dir, v), false,
        util.getConfiguration()));
    }
    reopen(tn);
    for (String v : victims) {
      assertFalse(v + " must be archived again at open", fs.exists(new Path(storeDir(tn), v)));
    }
    verify(tn, want);
  }

  @Test
  public void regionServerAbortMidCompaction() throws Exception {
    TableName tn = create("crash_abort");
    String[] want = load(tn, 3000, 3);
    MiniHBaseCluster cluster = util.getHBaseCluster();
    HRegion region = region(tn);
    int rsIndex = cluster.getServerWith(region.getRegionInfo().getRegionName());
    HRegionServer victim = cluster.getRegionServer(rsIndex);
    // The compaction is held at its first cell until the abort has been requested, and then
    // goes on slowly: the abort provably lands in the middle of it, at any machine speed.
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Interrupter.hold.set(new Hold(tn, entered, release));
    Interrupter.stallMillis = 20;
    try {
      util.getAdmin().compact(tn);
      RlsmTestCluster.awaitLatch(entered);
      assertTrue(util.getAdmin().getCompactionState(tn)
        != org.apache.hadoop.hbase.client.CompactionState.NONE);
      cluster.abortRegionServer(rsIndex);
      release.countDown();
      cluster.waitOnRegionServer(rsIndex);
    } finally {
      Interrupter.hold.set(null);
      release.countDown();
      Interrupter.stallMillis = 0;
    }
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> {
      List<HRegion> rs = cluster.getRegions(tn);
      return !rs.isEmpty() && rs.get(0).isAvailable() && !cluster
        .getServerHoldingRegion(tn, rs.get(0).getRegionInfo().getRegionName())
        .equals(victim.getServerName());
    });
    util.waitTableAvailable(tn.getName(), RlsmTestCluster.HANG_GUARD_MS);
    verify(tn, want);
    util.compact(tn, false);
    verify(tn, want);
    cluster.startRegionServer();
  }

  private static String[] mergeWant(String[] a, String[] b) {
    String[] out = a.clone();
    for (int i = 0; i < b.length; i++) {
      if (b[i] != null) {
        out[i] = b[i];
      }
    }
    return out;
  }
}
