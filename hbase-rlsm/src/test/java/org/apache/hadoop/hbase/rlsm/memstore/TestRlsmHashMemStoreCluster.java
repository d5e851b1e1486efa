package org.apache.hadoop.hbase.rlsm.memstore;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.FlushLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.RlsmStoreFlusher;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The hash memstore in a mini cluster: concurrent multi-column Puts and Increments against Gets and
 * Scans with flushes in the middle (no torn rows, exact counters, nothing lost, exact memstore
 * accounting afterwards), and the hash-order flush against HBase's flush StoreScanner on the same
 * edits (versions, TTL, min versions, deletes, KEEP_DELETED_CELLS).
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmHashMemStoreCluster {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmHashMemStoreCluster.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final int COLUMNS = 10;
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1);
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static byte[] col(int i) {
    return Bytes.toBytes("c" + i);
  }

  /** A complete row: all columns present with one value; returns that value. */
  private static String checkWhole(Result r) {
    assertEquals("torn row " + r, COLUMNS, r.size());
    String v = Bytes.toString(r.getValue(F, col(0)));
    for (int i = 1; i < COLUMNS; i++) {
      assertEquals("torn row " + r, v, Bytes.toString(r.getValue(F, col(i))));
    }
    return v;
  }

  private static void checkCounter(Result r, long atLeast) {
    long n = Bytes.toLong(r.getValue(F, Bytes.toBytes("n")));
    long m = Bytes.toLong(r.getValue(F, Bytes.toBytes("m")));
    assertEquals("increment of n and m seen apart in " + r, 2 * n, m);
    assertTrue(n >= atLeast);
  }

  /**
   * Writers, readers and flushes at once. The interleaving is driven, not timed: each writer
   * passes {@code FLUSHES} checkpoints spread over its puts; the flush thread flushes once all
   * writers have reached checkpoint k, and no writer passes checkpoint k + 1 (or finishes) before
   * flush k has completed. So every flush runs while all writers are still writing, at any
   * machine speed, and the test asserts exactly {@code FLUSHES} flushes.
   */
  @Test
  public void concurrentWritersReadersAndFlushesSeeWholeRows() throws Exception {
    TableName tn = TableName.valueOf("concurrency");
    util.getAdmin().createTable(RlsmTables.table(tn, F).build());
    HRegion region = util.getHBaseCluster().getRegions(tn).get(0);
    // An empty hash memstore weighs exactly its table's fixed overhead (a skip list weighs other).
    assertEquals(HashCellTable.DEEP_OVERHEAD, region.getStore(F).getMemStoreSize().getHeapSize());
    final int writers = 3;
    final int rowsPerWriter = 30;
    final int putsPerWriter = 600;
    final int counters = 4;
    final int incrementsPerWriter = 300;
    final int flushes = 3;
    String[][] lastValue = new String[writers][rowsPerWriter];
    AtomicBoolean stop = new AtomicBoolean();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    AtomicLong reads = new AtomicLong();
    // reached[k]: every writer has written past checkpoint k; flushed[k]: flush k is done.
    CountDownLatch[] reached = new CountDownLatch[flushes];
    CountDownLatch[] flushed = new CountDownLatch[flushes];
    for (int k = 0; k < flushes; k++) {
      reached[k] = new CountDownLatch(writers);
      flushed[k] = new CountDownLatch(1);
    }
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      final int writer = w;
      threads.add(new Thread(() -> {
        Random rnd = new Random(writer);
        int next = 0; // the next checkpoint this writer reaches
        try (Table t = util.getConnection().getTable(tn)) {
          for (int i = 0; i < putsPerWriter; i++) {
            if (next < flushes && i == (next + 1) * putsPerWriter / (flushes + 1)) {
              // Flush next - 1 must be over before this writer writes past checkpoint next.
              if (next > 0) {
                RlsmTestCluster.awaitLatch(flushed[next - 1]);
              }
              reached[next++].countDown();
            }
            int r = rnd.nextInt(rowsPerWriter);
            String v = "w" + writer + "-" + i;
            Put p = new Put(Bytes.toBytes(String.format("row-%d-%03d", writer, r)));
            for (int c = 0; c < COLUMNS; c++) {
              p.addColumn(F, col(c), Bytes.toBytes(v));
            }
            t.put(p);
            lastValue[writer][r] = v;
            if (i % 2 == 0 && i / 2 < incrementsPerWriter) {
              Increment inc = new Increment(Bytes.toBytes("ctr" + (i / 2) % counters));
              inc.addColumn(F, Bytes.toBytes("n"), 1).addColumn(F, Bytes.toBytes("m"), 2);
              t.increment(inc);
            }
          }
          RlsmTestCluster.awaitLatch(flushed[flushes - 1]);
        } catch (Throwable e) {
          errors.add(e);
          // Release the flush thread so a failing writer fails the test instead of hanging it.
          while (next < flushes) {
            reached[next++].countDown();
          }
        }
      }, "writer-" + w));
    }
    for (int rd = 0; rd < 2; rd++) {
      final int reader = rd;
      threads.add(new Thread(() -> {
        Random rnd = new Random(100 + reader);
        try (Table t = util.getConnection().getTable(tn)) {
          while (!stop.get()) {
            Result g = t.get(new Get(Bytes.toBytes(String.format("row-%d-%03d",
              rnd.nextInt(writers), rnd.nextInt(rowsPerWriter)))));
            if (!g.isEmpty()) {
              checkWhole(g);
            }
            Result c = t.get(new Get(Bytes.toBytes("ctr" + rnd.nextInt(counters))));
            if (!c.isEmpty()) {
              checkCounter(c, 1);
            }
            Scan scan = new Scan().withStartRow(Bytes.toBytes("row-" + rnd.nextInt(writers)))
              .setLimit(1 + rnd.nextInt(40));
            try (ResultScanner rs = t.getScanner(scan)) {
              byte[] prev = null;
              for (Result r : rs) {
                assertTrue("scan order", prev == null || Bytes.compareTo(prev, r.getRow()) < 0);
                prev = r.getRow();
                if (Bytes.startsWith(r.getRow(), Bytes.toBytes("ctr"))) {
                  checkCounter(r, 1);
                } else {
                  checkWhole(r);
                }
              }
            }
            reads.incrementAndGet();
          }
        } catch (Throwable e) {
          errors.add(e);
        }
      }, "reader-" + rd));
    }
    threads.forEach(Thread::start);
    Admin admin = util.getAdmin();
    long flushedCells = region.getStore(F).getFlushedCellsCount();
    try {
      for (int k = 0; k < flushes; k++) {
        RlsmTestCluster.awaitLatch(reached[k]);
        admin.flush(tn);
        // Writers wrote before checkpoint 0, and flush k snapshots what they wrote since.
        long now = region.getStore(F).getFlushedCellsCount();
        assertTrue("flush " + k + " wrote no cells", k > 0 || now > flushedCells);
        flushedCells = now;
        flushed[k].countDown();
      }
    } finally {
      for (CountDownLatch l : flushed) {
        l.countDown();
      }
      stop.set(true);
      for (Thread th : threads) {
        th.join();
      }
    }
    assertTrue("errors: " + errors, errors.isEmpty());
    assertTrue(reads.get() > 0);
    verifyFinal(tn, writers, rowsPerWriter, lastValue, counters, writers * incrementsPerWriter);
    admin.flush(tn);
    verifyFinal(tn, writers, rowsPerWriter, lastValue, counters, writers * incrementsPerWriter);
    // After the last flush the region holds nothing but the new empty table's fixed overhead:
    // every delta the memstore reported was subtracted again by the flushes.
    assertEquals(0, region.getMemStoreDataSize());
    assertEquals(HashCellTable.DEEP_OVERHEAD, region.getMemStoreHeapSize());
    assertTrue(RlsmTestCluster.storeFiles(util, tn, "f").size() > 0);
  }

  private static void verifyFinal(TableName tn, int writers, int rowsPerWriter,
    String[][] lastValue, int counters, int increments) throws IOException {
    try (Table t = util.getConnection().getTable(tn)) {
      for (int w = 0; w < writers; w++) {
        for (int r = 0; r < rowsPerWriter; r++) {
          Result g = t.get(new Get(Bytes.toBytes(String.format("row-%d-%03d", w, r))));
          if (lastValue[w][r] == null) {
            assertTrue(g.isEmpty());
          } else {
            assertEquals(lastValue[w][r], checkWhole(g));
          }
        }
      }
      long total = 0;
      for (int c = 0; c < counters; c++) {
        Result r = t.get(new Get(Bytes.toBytes("ctr" + c)));
        checkCounter(r, 1);
        total += Bytes.toLong(r.getValue(F, Bytes.toBytes("n")));
      }
      assertEquals("increments lost or doubled", increments, total);
    }
  }

  /** Passes the flush scanner through unchanged; its presence forces the StoreScanner path. */
  public static final class PassThroughFlushObserver implements RegionCoprocessor, RegionObserver {
    static final AtomicInteger CALLS = new AtomicInteger();

    @Override
    public Optional<RegionObserver> getRegionObserver() {
      return Optional.of(this);
    }

    @Override
    public InternalScanner preFlush(ObserverContext<RegionCoprocessorEnvironment> c, Store store,
      InternalScanner scanner, FlushLifeCycleTracker tracker) {
      CALLS.incrementAndGet();
      return scanner;
    }
  }

  private static final String[] FAMILIES = { "v3", "ttl", "kdc", "kdt" };

  private static ColumnFamilyDescriptor family(String name) {
    switch (name) {
      case "v3":
        return RlsmTables.familyBuilder(Bytes.toBytes(name)).setMaxVersions(3).build();
      case "ttl":
        return RlsmTables.familyBuilder(Bytes.toBytes(name)).setMaxVersions(2).setMinVersions(1)
          .setTimeToLive(3600).build();
      case "kdc":
        return RlsmTables.familyBuilder(Bytes.toBytes(name)).setMaxVersions(1)
          .setKeepDeletedCells(KeepDeletedCells.TRUE).build();
      default:
        return RlsmTables.familyBuilder(Bytes.toBytes(name)).setMaxVersions(2).setMinVersions(1)
          .setTimeToLive(3600).setKeepDeletedCells(KeepDeletedCells.TTL).build();
    }
  }

  @Test
  public void hashOrderFlushKeepsExactlyWhatTheFlushStoreScannerKeeps() throws Exception {
    TableName hashed = TableName.valueOf("flush_hash");
    TableName sorted = TableName.valueOf("flush_storescanner");
    for (TableName tn : new TableName[] { hashed, sorted }) {
      TableDescriptorBuilder b = RlsmTables.configure(TableDescriptorBuilder.newBuilder(tn));
      for (String f : FAMILIES) {
        b.setColumnFamily(family(f));
      }
      if (tn == sorted) {
        b.setCoprocessor(PassThroughFlushObserver.class.getName());
      }
      util.getAdmin().createTable(b.build());
    }
    long now = EnvironmentEdgeManager.currentTime();
    Random rnd = new Random(42);
    List<Object> ops = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      byte[] row = Bytes.toBytes("r" + rnd.nextInt(150));
      byte[] fam = Bytes.toBytes(FAMILIES[rnd.nextInt(FAMILIES.length)]);
      byte[] q = Bytes.toBytes("q" + rnd.nextInt(4));
      // A fifth of the edits are two hours old: past the families' one-hour TTL.
      long ts = rnd.nextInt(5) == 0 ? now - 7_200_000L - rnd.nextInt(10) : now - rnd.nextInt(10);
      switch (rnd.nextInt(10)) {
        case 0:
          ops.add(new Delete(row).addColumn(fam, q, ts));
          break;
        case 1:
          ops.add(new Delete(row).addColumns(fam, q, ts));
          break;
        case 2:
          ops.add(new Delete(row).addFamily(fam, ts));
          break;
        case 3:
          ops.add(new Delete(row).addFamilyVersion(fam, ts));
          break;
        default:
          ops.add(new Put(row).addColumn(fam, q, ts, Bytes.toBytes("v" + i)));
      }
    }
    for (TableName tn : new TableName[] { hashed, sorted }) {
      try (Table t = util.getConnection().getTable(tn)) {
        for (Object op : ops) {
          if (op instanceof Put) {
            t.put((Put) op);
          } else {
            t.delete((Delete) op);
          }
        }
      }
      HRegion region = util.getHBaseCluster().getRegions(tn).get(0);
      for (String f : FAMILIES) {
        assertTrue(region.getStore(Bytes.toBytes(f)).getMemStoreSize().getDataSize() > 0);
      }
      util.getAdmin().flush(tn);
      for (String f : FAMILIES) {
        assertEquals(HashCellTable.DEEP_OVERHEAD,
          region.getStore(Bytes.toBytes(f)).getMemStoreSize().getHeapSize());
      }
    }
    assertTrue("the pass-through coprocessor saw no flush",
      PassThroughFlushObserver.CALLS.get() > 0);
    HRegion hashedRegion = util.getHBaseCluster().getRegions(hashed).get(0);
    HRegion sortedRegion = util.getHBaseCluster().getRegions(sorted).get(0);
    assertFalse(RlsmStoreFlusher.hasFlushScannerHooks(hashedRegion.getCoprocessorHost()));
    assertTrue(RlsmStoreFlusher.hasFlushScannerHooks(sortedRegion.getCoprocessorHost()));
    int compared = 0;
    for (String f : FAMILIES) {
      List<String> a = flushedCells(hashed, f);
      List<String> b = flushedCells(sorted, f);
      assertEquals("family " + f, b, a);
      compared += a.size();
    }
    // Sanity: the edits left something, and the flush dropped something (versions, TTL, deletes).
    assertTrue(compared > 100);
    assertTrue(compared < ops.size());
  }

  /** Every cell of the family's flushed RLSM file, in comparator order (the file's order). */
  private static List<String> flushedCells(TableName tn, String family) throws IOException {
    List<Cell> cells = new ArrayList<>();
    List<Path> files = RlsmTestCluster.storeFiles(util, tn, family);
    assertEquals(1, files.size());
    try (HFile.Reader r = HFile.createReader(util.getTestFileSystem(), files.get(0),
      CacheConfig.DISABLED, true, util.getConfiguration());
      HFileScanner s = r.getScanner(util.getConfiguration(), false, false)) {
      if (s.seekTo()) {
        do {
          cells.add(s.getCell());
        } while (s.next());
      }
    }
    List<Cell> sorted = new ArrayList<>(cells);
    sorted.sort(CellComparator.getInstance());
    assertEquals("a flush file is key-ordered", sorted, cells);
    List<String> out = new ArrayList<>();
    for (Cell c : cells) {
      // Not the sequence id: the two regions number their edits independently.
      out.add(Bytes.toStringBinary(CellUtil.cloneRow(c)) + "/"
        + Bytes.toString(CellUtil.cloneQualifier(c)) + "/" + c.getTimestamp() + "/"
        + KeyValue.Type.codeToType(c.getTypeByte()) + "=" + Bytes.toString(CellUtil.cloneValue(c)));
    }
    return out;
  }
}
