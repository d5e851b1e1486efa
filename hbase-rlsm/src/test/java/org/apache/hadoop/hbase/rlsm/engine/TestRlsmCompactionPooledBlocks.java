package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.io.ByteBuffAllocator;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.RlsmFiles;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.ScannerContext;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestRows;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * A compaction's outputs keep their keys when the blocks it read go back to HBase's buffer pool.
 * A RegionServer reads uncached blocks (a compaction's) into buffers of its
 * {@code ByteBuffAllocator}, and a cell it hands out points into them until the scanner ships or
 * closes; HBase's writer keeps its last cell and the first cell of its open block and serialises
 * them (the last-key file-info entry, the block index) only when it closes, after the compaction
 * scanner closed. Here a coprocessor wraps the compaction scanner and, right after it closes,
 * overwrites every free buffer of the pool, as any other read or RPC reusing those buffers
 * would; every segment's first and last keys (what HBase's key-range check of a scan with a start
 * row reads) must still be the first and last cells in the file, and ranged scans see every row.
 * The row cursor of partition summaries and planner row sources, which also reads blocks into the
 * pool, holds a few of them at a time, not the whole file (counted in pool buffers in use).
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmCompactionPooledBlocks {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmCompactionPooledBlocks.class);

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1);
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int ROWS = 3000;
  /** Pool buffers overwritten after compaction scanners closed. */
  private static final AtomicInteger OVERWRITTEN = new AtomicInteger();

  /** Overwrites the free pool buffers as soon as a compaction scanner has closed. */
  public static final class OverwriteFreedBlocks implements RegionCoprocessor, RegionObserver {
    @Override
    public Optional<RegionObserver> getRegionObserver() {
      return Optional.of(this);
    }

    @Override
    public InternalScanner preCompact(ObserverContext<RegionCoprocessorEnvironment> c,
      Store store, InternalScanner scanner, ScanType scanType,
      CompactionLifeCycleTracker tracker, CompactionRequest request) {
      ByteBuffAllocator pool = ((HStore) store).getCacheConfig().getByteBuffAllocator();
      return new InternalScanner() {
        @Override
        public boolean next(List<Cell> result, ScannerContext ctx) throws IOException {
          return scanner.next(result, ctx);
        }

        @Override
        public void close() throws IOException {
          scanner.close();
          overwriteFree(pool);
        }
      };
    }
  }

  private static void overwriteFree(ByteBuffAllocator pool) {
    if (!pool.isReservoirEnabled()) {
      return;
    }
    List<ByteBuff> taken = new ArrayList<>();
    for (int i = pool.getFreeBufferCount(); i > 0; i--) {
      ByteBuff b = pool.allocateOneBuffer();
      while (b.hasRemaining()) {
        b.put((byte) 0x5a);
      }
      taken.add(b);
    }
    OVERWRITTEN.addAndGet(taken.size());
    taken.forEach(ByteBuff::release);
  }

  @Test
  public void segmentKeysSurviveTheReuseOfTheBlocksTheCompactionRead() throws Exception {
    TableName tn = TableName.valueOf("pooled");
    TableDescriptor td = RlsmTwinTables.descriptor(tn, true, b -> b, F)
      .setCoprocessor(OverwriteFreedBlocks.class.getName()).build();
    util.getAdmin().createTable(td);
    byte[] value = new byte[512];
    try (Table t = util.getConnection().getTable(tn)) {
      for (int round = 0; round < 2; round++) {
        List<Put> puts = new ArrayList<>();
        for (int i = round; i < ROWS; i += 2) {
          puts.add(new Put(RlsmTestRows.row(i)).addColumn(F, Q, value));
        }
        t.put(puts);
        util.flush(tn);
      }
    }
    util.compact(tn, true);
    assertTrue("the compaction read its blocks through the buffer pool", OVERWRITTEN.get() > 0);

    HRegion region = util.getHBaseCluster().getRegions(tn).get(0);
    int segments = 0;
    for (HStoreFile f : region.getStore(F).getStorefiles()) {
      if (RlsmFiles.role(f) == FileRole.SEGMENT) {
        assertKeysMatchCells(f);
        segments++;
      }
    }
    assertTrue("segments: " + segments, segments > 0);
    assertRowCursorHoldsFewBlocks(region);
    try (Table t = util.getConnection().getTable(tn)) {
      for (int from : new int[] { 0, 700, 1500, 2900 }) {
        int to = Math.min(ROWS, from + 600);
        List<String> got = RlsmTwinTables.cells(t,
          new Scan().withStartRow(RlsmTestRows.row(from)).withStopRow(RlsmTestRows.row(to)));
        assertEquals("rows [" + from + ", " + to + ")", to - from, got.size());
      }
    }
  }

  /**
   * The row cursor (partition summaries, planner row sources) reads without caching blocks, so
   * into pooled buffers; it must let go of each block it has left, not hold the whole file.
   */
  private static void assertRowCursorHoldsFewBlocks(HRegion region) throws IOException {
    HStore store = region.getStore(F);
    ByteBuffAllocator pool = store.getCacheConfig().getByteBuffAllocator();
    HStoreFile largest = null;
    for (HStoreFile f : store.getStorefiles()) {
      if (RlsmFiles.role(f) == FileRole.SEGMENT
        && (largest == null || f.getReader().length() > largest.getReader().length())) {
        largest = f;
      }
    }
    long blocks = largest.getReader().length() / store.getColumnFamilyDescriptor().getBlocksize();
    assertTrue("a segment of several blocks: " + blocks, blocks >= 8);
    int held = RlsmStoreProbe.poolBuffersHeldByRowCursor(largest, pool);
    assertTrue("pool buffers held by the row cursor over " + blocks + " blocks: " + held,
      held <= 4);
  }

  /** The file's recorded first and last keys against its first and last cells. */
  private static void assertKeysMatchCells(HStoreFile f) throws IOException {
    Cell first = null;
    Cell last = null;
    try (StoreFileScanner s =
      f.getReader().getStoreFileScanner(false, true, false, Long.MAX_VALUE, 0, false)) {
      s.seek(KeyValue.LOWESTKEY);
      for (Cell c = s.next(); c != null; c = s.next()) {
        if (first == null) {
          first = KeyValueUtil.copyToNewKeyValue(c);
        }
        last = KeyValueUtil.copyToNewKeyValue(c);
      }
    }
    // keys only: a cell read back carries its sequence id, the recorded keys do not
    CellComparator cmp = f.getComparator();
    Cell firstKey = f.getFirstKey().get();
    Cell lastKey = f.getLastKey().get();
    assertEquals(f.getPath().getName() + " first key, row " + row(firstKey) + " vs cell "
      + row(first), 0, cmp.compare(first, firstKey, true));
    assertEquals(f.getPath().getName() + " last key, row " + row(lastKey) + " vs cell "
      + row(last), 0, cmp.compare(last, lastKey, true));
  }

  /** The row only: a damaged key's type byte would make the key's own toString throw. */
  private static String row(Cell c) {
    return Bytes.toStringBinary(CellUtil.cloneRow(c));
  }
}
