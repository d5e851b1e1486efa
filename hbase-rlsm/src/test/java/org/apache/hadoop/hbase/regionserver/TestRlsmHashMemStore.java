package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.InnerStoreCellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.exceptions.UnexpectedStateException;
import org.apache.hadoop.hbase.rlsm.memstore.HashCellTable;
import org.apache.hadoop.hbase.rlsm.memstore.HashMemStoreConfig;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The hash memstore against HBase's DefaultMemStore on the same cells: MVCC visibility, scanner
 * behaviour (seek, reseek, reversed operations) while rows keep arriving, size accounting,
 * snapshot and clear-snapshot. Both run with and without MSLAB.
 */
@Category({ SmallTests.class, RegionServerTests.class })
public class TestRlsmHashMemStore {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmHashMemStore.class);

  private static final CellComparator CMP = InnerStoreCellComparator.INNER_STORE_COMPARATOR;
  private static final byte[] F = Bytes.toBytes("f");

  @BeforeClass
  public static void initChunkCreator() {
    // What a RegionServer does at start when MSLAB is on; MemStoreLABImpl needs it.
    ChunkCreator.initialize(MemStoreLAB.CHUNK_SIZE_DEFAULT, false, 256L << 20, 0.2f, 0f, null,
      MemStoreLAB.INDEX_CHUNK_SIZE_PERCENTAGE_DEFAULT);
  }

  private static Configuration conf(boolean mslab, int rowArrayMaxCells) {
    Configuration conf = HBaseConfiguration.create();
    conf.setBoolean(MemStoreLAB.USEMSLAB_KEY, mslab);
    conf.setInt(HashMemStoreConfig.ROW_ARRAY_MAX_CELLS_KEY, rowArrayMaxCells);
    return conf;
  }

  private static KeyValue kv(String row, String q, long ts, KeyValue.Type type, long seqId,
    String value) {
    KeyValue kv = new KeyValue(Bytes.toBytes(row), F, Bytes.toBytes(q), ts, type,
      Bytes.toBytes(value));
    kv.setSequenceId(seqId);
    return kv;
  }

  private static KeyValue put(String row, String q, long seqId) {
    return kv(row, q, 100, KeyValue.Type.Put, seqId, row + "/" + q + "@" + seqId);
  }

  /** Everything a memstore's scanners yield at a read point, merged in comparator order. */
  private static List<Cell> scanAll(MemStore ms, long readPt) throws IOException {
    List<Cell> out = new ArrayList<>();
    for (KeyValueScanner s : ms.getScanners(readPt)) {
      s.seek(KeyValue.LOWESTKEY);
      for (Cell c = s.next(); c != null; c = s.next()) {
        out.add(c);
      }
      s.close();
    }
    out.sort(CMP);
    return out;
  }

  @Test
  public void multiColumnWriteIsVisibleWholeAtItsReadPointOnly() throws Exception {
    RlsmHashMemStore ms = new RlsmHashMemStore(conf(true, 64), CMP, null);
    MemStoreSizing sizing = new NonThreadSafeMemStoreSizing();
    ms.add(Arrays.asList(put("r1", "a", 5), put("r1", "b", 5), put("r1", "c", 5)), sizing);
    ms.add(Arrays.asList(put("r1", "a", 7), put("r1", "c", 7)), sizing);
    ms.add(put("r0", "a", 6), sizing);
    assertEquals(0, scanAll(ms, 4).size());
    List<Cell> at5 = scanAll(ms, 5);
    assertEquals(3, at5.size());
    for (Cell c : at5) {
      assertEquals(5, c.getSequenceId());
    }
    assertEquals(4, scanAll(ms, 6).size());
    List<Cell> at7 = scanAll(ms, 7);
    assertEquals(6, at7.size());
    assertEquals("r0", Bytes.toString(CellUtil.cloneRow(at7.get(0))));
    // Within r1 column a: the newer write (seq 7) sorts first.
    assertEquals(7, at7.get(1).getSequenceId());
  }

  @Test
  public void upsertKeepsEveryVersionLikeAdd() throws Exception {
    RlsmHashMemStore ms = new RlsmHashMemStore(conf(false, 4), CMP, null);
    MemStoreSizing sizing = new NonThreadSafeMemStoreSizing();
    for (int i = 1; i <= 20; i++) {
      ms.upsert(List.of(kv("counter", "n", i, KeyValue.Type.Put, i, Integer.toString(i))), 10,
        sizing);
    }
    assertEquals(20, sizing.getCellsCount());
    List<Cell> cells = scanAll(ms, 15);
    assertEquals(15, cells.size());
    assertEquals("15", Bytes.toString(CellUtil.cloneValue(cells.get(0))));
  }

  @Test
  public void dataSizeAndCountEqualDefaultMemStoreHeapIsCompactAndConsistent() throws Exception {
    for (boolean mslab : new boolean[] { false, true }) {
      Configuration conf = conf(mslab, 64);
      DefaultMemStore dms = new DefaultMemStore(conf, CMP, null);
      RlsmHashMemStore hms = new RlsmHashMemStore(conf, CMP, null);
      MemStoreSizing dSizing = new NonThreadSafeMemStoreSizing();
      MemStoreSizing hSizing = new NonThreadSafeMemStoreSizing();
      Random rnd = new Random(11);
      long cellHeap = 0;
      for (int i = 0; i < 2000; i++) {
        String row = "user" + rnd.nextInt(1_000_000);
        List<Cell> cells = new ArrayList<>();
        for (int q = 0; q < 10; q++) {
          byte[] value = new byte[100];
          rnd.nextBytes(value);
          KeyValue c = new KeyValue(Bytes.toBytes(row), F, Bytes.toBytes("field" + q), 100,
            KeyValue.Type.Put, value);
          c.setSequenceId(i + 1);
          cells.add(c);
          cellHeap += c.heapSize();
        }
        dms.add(cells, dSizing);
        hms.add(cells, hSizing);
      }
      // The same exact duplicate twice: counted once, as by HBase's CellSet.
      dms.add(put("dup", "q", 1), dSizing);
      hms.add(put("dup", "q", 1), hSizing);
      dms.add(put("dup", "q", 1), dSizing);
      hms.add(put("dup", "q", 1), hSizing);
      String what = "mslab=" + mslab;
      assertEquals(what, dSizing.getDataSize(), hSizing.getDataSize());
      assertEquals(what, dSizing.getCellsCount(), hSizing.getCellsCount());
      assertEquals(what, dms.size().getDataSize(), hms.size().getDataSize());
      assertTrue(what + " heap " + hSizing.getHeapSize() + " below the cells' own " + cellHeap,
        hSizing.getHeapSize() > cellHeap);
      assertTrue(what + " heap " + hSizing.getHeapSize() + " vs skip list " + dSizing.getHeapSize(),
        hSizing.getHeapSize() < dSizing.getHeapSize());
      // The memstore's own size is its fixed overhead plus exactly the reported deltas.
      MemStoreSize size = hms.size();
      assertEquals(what, HashCellTable.DEEP_OVERHEAD + hSizing.getHeapSize(), size.getHeapSize());
      assertEquals(what, hSizing.getCellsCount(), size.getCellsCount());
      MemStoreSnapshot snap = hms.snapshot();
      assertEquals(what, size, snap.getMemStoreSize());
      assertEquals(what, size, hms.getFlushableSize());
      assertEquals(what, HashCellTable.DEEP_OVERHEAD, hms.size().getHeapSize());
      assertEquals(what, 0, hms.size().getDataSize());
      hms.clearSnapshot(snap.getId());
      assertEquals(what, 0, hms.getSnapshotSize().getHeapSize());
      assertEquals(what, 0, hms.getSnapshotSize().getDataSize());
      hms.close();
    }
  }

  @Test
  public void snapshotThenClearKeepsEveryCellReadableUntilCleared() throws Exception {
    RlsmHashMemStore ms = new RlsmHashMemStore(conf(true, 64), CMP, null);
    MemStoreSizing sizing = new NonThreadSafeMemStoreSizing();
    ms.add(put("a", "q", 1), sizing);
    ms.add(put("b", "q", 2), sizing);
    long beforeEdit = ms.timeOfOldestEdit();
    assertTrue(beforeEdit < Long.MAX_VALUE);
    MemStoreSnapshot snap = ms.snapshot();
    assertEquals(2, snap.getCellsCount());
    assertEquals(Long.MAX_VALUE, ms.timeOfOldestEdit());
    ms.add(put("a", "q", 3), sizing);
    assertEquals(3, scanAll(ms, 10).size());
    assertEquals(2, ms.getScanners(10).size());
    // A second snapshot before the clear returns the pending one unchanged.
    MemStoreSnapshot again = ms.snapshot();
    assertEquals(snap.getId(), again.getId());
    assertEquals(2, again.getCellsCount());
    try {
      ms.clearSnapshot(snap.getId() + 1);
      fail("cleared a snapshot by a wrong id");
    } catch (UnexpectedStateException expected) {
      // the pending snapshot must stay
    }
    // The flush reads the snapshot through its own scanners (in sorted order for StoreScanner).
    List<KeyValueScanner> flushScanners = snap.getScanners();
    assertEquals(1, flushScanners.size());
    KeyValueScanner fs = flushScanners.get(0);
    assertTrue(fs.seek(KeyValue.LOWESTKEY));
    assertEquals("a", Bytes.toString(CellUtil.cloneRow(fs.next())));
    assertEquals("b", Bytes.toString(CellUtil.cloneRow(fs.next())));
    assertNull(fs.next());
    fs.close();
    ms.clearSnapshot(snap.getId());
    List<Cell> left = scanAll(ms, 10);
    assertEquals(1, left.size());
    assertEquals(3, left.get(0).getSequenceId());
    assertEquals(1, ms.getScanners(10).size());
    MemStoreSnapshot second = ms.snapshot();
    assertEquals(1, second.getCellsCount());
    ms.clearSnapshot(second.getId());
    assertEquals(0, scanAll(ms, 10).size());
    // Clearing twice (an already cleared snapshot) is harmless, as in HBase.
    ms.clearSnapshot(second.getId());
  }

  @Test
  public void getScanFindsItsRowByHashAndDeclinesAbsentRows() throws Exception {
    RlsmHashMemStore ms = new RlsmHashMemStore(conf(false, 64), CMP, null);
    MemStoreSizing sizing = new NonThreadSafeMemStoreSizing();
    for (int i = 0; i < 100; i++) {
      ms.add(Arrays.asList(put("r" + i, "a", 1), put("r" + i, "b", 1)), sizing);
    }
    KeyValueScanner s = ms.getScanners(1).get(0);
    HStore store = null;
    Scan absent = new Scan(new Get(Bytes.toBytes("nope")));
    assertFalse(s.shouldUseScanner(absent, store, Long.MIN_VALUE));
    s.close();
    s = ms.getScanners(1).get(0);
    Scan get = new Scan(new Get(Bytes.toBytes("r42")));
    assertTrue(s.shouldUseScanner(get, store, Long.MIN_VALUE));
    assertTrue(s.seek(PrivateCellUtil.createFirstOnRow(Bytes.toBytes("r42"))));
    assertEquals("r42/a@1", Bytes.toString(CellUtil.cloneValue(s.next())));
    assertEquals("r42/b@1", Bytes.toString(CellUtil.cloneValue(s.next())));
    assertNull("a Get scanner stops at its row", s.next());
    s.close();
  }

  /**
   * Random cells (several types, timestamps, sequence ids, exact duplicates, hot rows that
   * switch to a skip list) go into both memstores in batches; between batches both are scanned
   * with random seek, reseek, next and reversed operations at random read points, and must agree
   * on every answer. New rows between scans exercise the incremental sorted row index.
   */
  @Test
  public void scannersAgreeWithDefaultMemStoreWhileRowsArrive() throws Exception {
    for (int arrayMax : new int[] { 2, 64 }) {
      Random rnd = new Random(arrayMax);
      Configuration conf = conf(arrayMax == 2, arrayMax);
      DefaultMemStore dms = new DefaultMemStore(conf, CMP, null);
      RlsmHashMemStore hms = new RlsmHashMemStore(conf, CMP, null);
      MemStoreSizing sizing = new NonThreadSafeMemStoreSizing();
      KeyValue.Type[] types = { KeyValue.Type.Put, KeyValue.Type.Put, KeyValue.Type.Delete,
        KeyValue.Type.DeleteColumn, KeyValue.Type.DeleteFamily };
      long seq = 0;
      for (int round = 0; round < 30; round++) {
        for (int w = 0; w < 40; w++) {
          seq++;
          String row = "row" + rnd.nextInt(round < 15 ? 60 : 400);
          List<Cell> batch = new ArrayList<>();
          int n = 1 + rnd.nextInt(4);
          for (int i = 0; i < n; i++) {
            KeyValue.Type t = types[rnd.nextInt(types.length)];
            String q = t == KeyValue.Type.DeleteFamily ? "" : "q" + rnd.nextInt(5);
            long s = rnd.nextInt(10) == 0 ? Math.max(1, seq - 1) : seq;
            batch.add(kv(row, q, 1 + rnd.nextInt(3), t, s, "v" + seq));
          }
          dms.add(batch, sizing);
          hms.add(batch, null);
        }
        long readPt = rnd.nextInt(10) == 0 ? Long.MAX_VALUE : rnd.nextInt((int) seq + 1);
        assertEquals(scanAll(dms, readPt).toString(), scanAll(hms, readPt).toString());
        compareScanners(dms.getScanners(readPt), hms.getScanners(readPt), rnd, "arrayMax="
          + arrayMax + " round=" + round + " readPt=" + readPt);
      }
      assertEquals(dms.size().getDataSize(), hms.size().getDataSize());
      assertEquals(dms.size().getCellsCount(), hms.size().getCellsCount());
    }
  }

  private static void compareScanners(List<KeyValueScanner> expected, List<KeyValueScanner> actual,
    Random rnd, String what) throws IOException {
    assertEquals(what, expected.size(), actual.size());
    if (expected.isEmpty()) {
      return;
    }
    KeyValueScanner e = expected.get(0);
    KeyValueScanner a = actual.get(0);
    for (int op = 0; op < 300; op++) {
      Cell key = PrivateCellUtil.createFirstOnRow(Bytes.toBytes("row" + rnd.nextInt(450)));
      String step = what + " op=" + op;
      switch (rnd.nextInt(7)) {
        case 0:
          assertEquals(step, e.seek(key), a.seek(key));
          break;
        case 1:
          Cell pe = e.peek();
          if (pe != null && CMP.compare(key, pe) > 0) {
            assertEquals(step, e.reseek(key), a.reseek(key));
          }
          break;
        case 2:
          assertEquals(step, e.seekToPreviousRow(key), a.seekToPreviousRow(key));
          break;
        case 3:
          assertEquals(step, e.backwardSeek(key), a.backwardSeek(key));
          break;
        case 4:
          assertEquals(step, e.seekToLastRow(), a.seekToLastRow());
          break;
        default:
          // As KeyValueHeap: a scanner whose peek is null is dropped, never advanced.
          for (int i = rnd.nextInt(20); i >= 0 && e.peek() != null; i--) {
            assertSameCell(step, e.next(), a.next());
          }
      }
      assertSameCell(step, e.peek(), a.peek());
    }
    e.close();
    a.close();
  }

  private static void assertSameCell(String what, Cell e, Cell a) {
    if (e == null || a == null) {
      assertSame(what, e, a);
      return;
    }
    assertEquals(what, 0, CMP.compare(e, a));
    assertArrayEquals(what, CellUtil.cloneValue(e), CellUtil.cloneValue(a));
  }
}
