package org.apache.hadoop.hbase.rlsm.memstore;

import java.util.Arrays;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.ExtendedCell;
import org.apache.hadoop.hbase.MetaCellComparator;
import org.apache.hadoop.hbase.regionserver.MemStoreLAB;
import org.apache.hadoop.hbase.regionserver.MemStoreSizing;
import org.apache.hadoop.hbase.regionserver.TimeRangeTracker;
import org.apache.hadoop.hbase.rlsm.index.RowHash;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ClassSize;

/**
 * The cells of one memstore generation (the active buffer, later its snapshot): a
 * {@link ConcurrentHashMap} from row to {@link MemRow}. A write finds its row by hash and inserts
 * into that row's small sorted set; nothing is sorted across rows. Scans ask for
 * {@link #sortedRows()}, a skip list of rows that each call extends with the rows created since
 * the previous call; a flush walks it too, so flush files are key-ordered.
 *
 * <p>Size accounting follows HBase's {@code Segment}: data size is the sum of the cells'
 * serialized sizes (identical to {@code DefaultMemStore}); heap size is the cells' heap size plus
 * this structure's own overhead instead of one skip-list entry per cell: per row its object, key,
 * hash-map entry and slots, creation-log slot, row-index entry, and its cell container (one
 * array slot per cell, or skip-list entries for a large row). Every delta is added to the table's
 * counters and to the caller's {@code MemStoreSizing} together, so the two never drift.
 */
public final class HashCellTable {
  /** Heap of an empty table: this object, the map, the log, the index holder and the counters. */
  public static final long DEEP_OVERHEAD = ClassSize.align(ClassSize.OBJECT
    + 11 * ClassSize.REFERENCE + 2 * Bytes.SIZEOF_INT + Bytes.SIZEOF_BOOLEAN)
    + ClassSize.CONCURRENT_HASHMAP + 4 * ClassSize.ATOMIC_LONG + ClassSize.SYNC_TIMERANGE_TRACKER
    + ClassSize.align(ClassSize.OBJECT + 2 * ClassSize.REFERENCE) // RowLog
    + ClassSize.ATOMIC_INTEGER + ClassSize.align(ClassSize.ARRAY + 16 * ClassSize.REFERENCE)
    + ClassSize.CONCURRENT_SKIPLISTMAP; // the row index

  /** Per-row structure outside the row object: hash-map node and slots, log slot, index entry. */
  private static final long ROW_SLOTS = ClassSize.CONCURRENT_HASHMAP_ENTRY + 3 * ClassSize.REFERENCE
    + ClassSize.CONCURRENT_SKIPLISTMAP_ENTRY;

  private final CellComparator comparator;
  private final int rowArrayMaxCells;
  private final MemStoreLAB lab;
  private final ConcurrentHashMap<MemRow, MemRow> rows = new ConcurrentHashMap<>();
  private final RowLog log = new RowLog();
  private final Object indexLock = new Object();
  private final ConcurrentSkipListSet<MemRow> index = new ConcurrentSkipListSet<>(MemRow.ROW_ORDER);
  private volatile int indexedUpTo; // log entries [0, indexedUpTo) are in index; under indexLock
  private final LongAdder dataSize = new LongAdder();
  private final LongAdder heapSize = new LongAdder();
  private final LongAdder offHeapSize = new LongAdder();
  private final LongAdder cellsCount = new LongAdder();
  private final TimeRangeTracker timeRange = TimeRangeTracker.create(TimeRangeTracker.Type.SYNC);
  private volatile boolean tagsPresent;

  /**
   * @param lab the MSLAB cells are copied into, or {@code null} (cells are deep-copied, as
   *            {@code DefaultMemStore} does, so that no cell refers to an RPC buffer)
   */
  public HashCellTable(CellComparator comparator, int rowArrayMaxCells, MemStoreLAB lab) {
    if (comparator instanceof MetaCellComparator) {
      // Rows are ordered by plain unsigned bytes here; hbase:meta orders them differently.
      throw new IllegalArgumentException("the hash memstore does not support hbase:meta");
    }
    this.comparator = comparator;
    this.rowArrayMaxCells = rowArrayMaxCells;
    this.lab = lab;
    heapSize.add(DEEP_OVERHEAD);
  }

  public CellComparator getComparator() {
    return comparator;
  }

  public void add(Cell cell, MemStoreSizing sizing) {
    Cell[] run = { cell };
    addRun(run, 1, sizing);
  }

  /** Adds cells; consecutive cells of one row (a Put's cells) are inserted into it at once. */
  public void add(Iterable<Cell> cells, MemStoreSizing sizing) {
    Cell[] run = new Cell[8];
    int n = 0;
    for (Cell cell : cells) {
      if (n > 0 && !CellUtil.matchingRows(run[0], cell)) {
        addRun(run, n, sizing);
        Arrays.fill(run, 0, n, null);
        n = 0;
      }
      if (n == run.length) {
        run = Arrays.copyOf(run, n * 2);
      }
      run[n++] = cell;
    }
    if (n > 0) {
      addRun(run, n, sizing);
    }
  }

  private void addRun(Cell[] run, int n, MemStoreSizing sizing) {
    boolean[] inLab = new boolean[n];
    for (int i = 0; i < n; i++) {
      run[i] = copy(run[i], inLab, i);
    }
    long heap = 0;
    byte[] rowKey = CellUtil.cloneRow(run[0]);
    MemRow probe = new MemRow(rowKey, RowHash.hash(rowKey));
    MemRow row = rows.get(probe);
    if (row == null) {
      row = rows.putIfAbsent(probe, probe);
      if (row == null) {
        row = probe;
        log.append(row);
        row.markLogged();
        heap += row.keyHeapSize() + ROW_SLOTS + MemRow.emptyContainerHeapSize();
      }
    }
    awaitLogged(row);
    boolean[] dup = new boolean[n];
    heap += row.insert(run, n, dup, comparator, rowArrayMaxCells);
    long data = 0;
    long offHeap = 0;
    int added = 0;
    for (int i = 0; i < n; i++) {
      Cell c = run[i];
      // As HBase's Segment.updateMetaInfo: a duplicate that took MSLAB space still counts.
      if (!dup[i] || inLab[i]) {
        data += c.getSerializedSize();
        if (inLab[i] && lab.isOffHeap()) {
          offHeap += c.heapSize();
        } else {
          heap += c.heapSize();
        }
      }
      if (!dup[i]) {
        added++;
      }
      timeRange.includeTimestamp(c);
      if (c.getTagsLength() > 0) {
        tagsPresent = true;
      }
    }
    dataSize.add(data);
    heapSize.add(heap);
    offHeapSize.add(offHeap);
    cellsCount.add(added);
    if (sizing != null) {
      sizing.incMemStoreSize(data, heap, offHeap, added);
    }
  }

  private Cell copy(Cell cell, boolean[] inLab, int i) {
    if (lab != null) {
      Cell copy = lab.copyCellInto(cell);
      if (copy != null) {
        inLab[i] = true;
        return copy;
      }
    }
    // The cell may point into an RPC buffer that is reused after the call (HBASE-15180).
    return cell instanceof ExtendedCell ? ((ExtendedCell) cell).deepClone() : cell;
  }

  /**
   * The creator of a row logs it right after publishing it in the map; another writer of the same
   * row (HBase's row lock makes this rare) must not add cells before that, or a scan's sorted index
   * could miss a row holding visible cells.
   */
  private static void awaitLogged(MemRow row) {
    while (!row.isLogged()) {
      Thread.onSpinWait();
    }
  }

  /** The row's cells, or {@code null} if the row is not in this table. */
  public MemRow getRow(byte[] row) {
    return rows.get(new MemRow(row, RowHash.hash(row)));
  }

  /**
   * All rows in row order: a skip list of rows that each call brings up to date by inserting the
   * rows created since the previous call (O(log n) each; writes never touch it). The result holds
   * at least every row created before the call; rows added by later calls may appear while it is
   * iterated, which scanners ignore (their cells are above the scanner's read point or absent).
   */
  public NavigableSet<MemRow> sortedRows() {
    if (indexedUpTo >= log.size()) {
      return index;
    }
    synchronized (indexLock) {
      int n = log.size();
      for (int i = indexedUpTo; i < n; i++) {
        index.add(log.get(i));
      }
      indexedUpTo = n;
    }
    return index;
  }

  /** A key for navigating {@link #sortedRows()} to the row of {@code cell}. */
  public static MemRow probe(Cell cell) {
    return new MemRow(CellUtil.cloneRow(cell), 0);
  }

  /** Number of rows. */
  public int rowCount() {
    return log.size();
  }

  public boolean isEmpty() {
    return cellsCount.sum() == 0;
  }

  public long getDataSize() {
    return dataSize.sum();
  }

  public long getHeapSize() {
    return heapSize.sum();
  }

  public long getOffHeapSize() {
    return offHeapSize.sum();
  }

  public int getCellsCount() {
    return (int) cellsCount.sum();
  }

  public TimeRangeTracker getTimeRangeTracker() {
    return timeRange;
  }

  public boolean isTagsPresent() {
    return tagsPresent;
  }

  /** Pins the MSLAB chunks while a scanner reads cells that live in them. */
  public void incScannerCount() {
    if (lab != null) {
      lab.incScannerCount();
    }
  }

  public void decScannerCount() {
    if (lab != null) {
      lab.decScannerCount();
    }
  }

  /** Releases the MSLAB once no scanner holds it; called when the generation is discarded. */
  public void close() {
    if (lab != null) {
      lab.close();
    }
  }
}
