package org.apache.hadoop.hbase.regionserver;

import java.util.Iterator;
import java.util.Map;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.rlsm.memstore.HashCellTable;
import org.apache.hadoop.hbase.rlsm.memstore.MemRow;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Scanner over one {@link HashCellTable} at an MVCC read point: cells with a larger sequence id
 * are skipped, as in HBase's {@code SegmentScanner}. Row order comes from the table's lazily
 * maintained sorted row index, fetched at the first positioning; a Get (the scan names one row)
 * never touches that index: the row is found by hash, and the scanner declines itself when the
 * row is not in the table. Rows whose first write is still in progress are empty and skipped.
 *
 * <p>Every cell with a sequence id at or below the read point was added before the read point
 * was taken, and so before this scanner looked at the table; the index and the row iterators
 * therefore see all of them (see the {@code rlsm.memstore} package invariants).
 */
@InterfaceAudience.Private
public class RlsmHashScanner extends NonLazyKeyValueScanner {
  private static final MemRow[] NO_ROWS = new MemRow[0];

  private final HashCellTable table;
  private final long readPt;
  private final CellComparator cmp;
  private final boolean forFlush;
  private byte[] onlyRow; // set for a Get before the first positioning
  private MemRow[] rows;
  private int rowIdx;
  private Iterator<Cell> cells;
  private Cell current;
  private boolean positioned;
  private boolean closed;

  /**
   * @param forFlush the snapshot scanner handed to the flusher: like HBase's
   *                 {@code SnapshotSegmentScanner} it is never excluded by time range
   */
  RlsmHashScanner(HashCellTable table, long readPt, boolean forFlush) {
    this.table = table;
    this.readPt = readPt;
    this.cmp = table.getComparator();
    this.forFlush = forFlush;
    table.incScannerCount();
  }

  /** The table this scanner reads; the flusher writes it directly in hash order. */
  HashCellTable getTable() {
    return table;
  }

  boolean isForFlush() {
    return forFlush;
  }

  private MemRow[] rows() {
    if (rows == null) {
      if (onlyRow != null) {
        MemRow r = table.getRow(onlyRow);
        rows = r == null ? NO_ROWS : new MemRow[] { r };
      } else {
        rows = table.sortedRows();
      }
    }
    return rows;
  }

  @Override
  public Cell peek() {
    ensurePositioned();
    return current;
  }

  @Override
  public Cell next() {
    ensurePositioned();
    Cell c = current;
    if (c != null && !advanceInRow()) {
      positionForward(rowIdx + 1, null);
    }
    return c;
  }

  private void ensurePositioned() {
    if (!positioned && !closed) {
      positionForward(0, null);
    }
  }

  /** Moves to the first visible cell at or after {@code from} in row {@code idx}, or later. */
  private boolean positionForward(int idx, Cell from) {
    positioned = true;
    MemRow[] rs = rows();
    for (rowIdx = idx; rowIdx < rs.length; rowIdx++, from = null) {
      cells = rs[rowIdx].iterator(from, cmp);
      if (advanceInRow()) {
        return true;
      }
    }
    cells = null;
    current = null;
    return false;
  }

  /** Moves to the first visible cell of the last row before {@code idx + 1} that has one. */
  private boolean positionBackward(int idx) {
    positioned = true;
    MemRow[] rs = rows();
    for (rowIdx = idx; rowIdx >= 0; rowIdx--) {
      cells = rs[rowIdx].iterator(null, cmp);
      if (advanceInRow()) {
        return true;
      }
    }
    cells = null;
    current = null;
    return false;
  }

  private boolean advanceInRow() {
    while (cells.hasNext()) {
      Cell c = cells.next();
      if (c.getSequenceId() <= readPt) {
        current = c;
        return true;
      }
    }
    current = null;
    return false;
  }

  /** Index of the first row at or after the row of {@code key}. */
  private int lowerBound(Cell key) {
    MemRow[] rs = rows();
    int lo = 0;
    int hi = rs.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      byte[] r = rs[mid].getRow();
      if (cmp.compareRows(key, r, 0, r.length) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private boolean isRow(int idx, Cell key) {
    MemRow[] rs = rows();
    if (idx >= rs.length) {
      return false;
    }
    byte[] r = rs[idx].getRow();
    return cmp.compareRows(key, r, 0, r.length) == 0;
  }

  @Override
  public boolean seek(Cell key) {
    if (closed) {
      return false;
    }
    int idx = lowerBound(key);
    return positionForward(idx, isRow(idx, key) ? key : null);
  }

  @Override
  public boolean reseek(Cell key) {
    if (closed) {
      return false;
    }
    if (positioned && (current == null || cmp.compare(key, current) <= 0)) {
      return current != null; // reseek never moves backwards
    }
    if (positioned && cmp.compareRows(key, current) == 0) {
      cells = rows()[rowIdx].iterator(key, cmp);
      return advanceInRow() || positionForward(rowIdx + 1, null);
    }
    return seek(key);
  }

  @Override
  public boolean seekToPreviousRow(Cell key) {
    if (closed) {
      return false;
    }
    return positionBackward(lowerBound(key) - 1);
  }

  @Override
  public boolean backwardSeek(Cell key) {
    if (closed) {
      return false;
    }
    seek(key);
    if (current == null || cmp.compareRows(current, key) > 0) {
      return seekToPreviousRow(key);
    }
    return true;
  }

  @Override
  public boolean seekToLastRow() {
    if (closed) {
      return false;
    }
    return positionBackward(rows().length - 1);
  }

  @Override
  public boolean shouldUseScanner(Scan scan, HStore store, long oldestUnexpiredTS) {
    if (forFlush) {
      return true;
    }
    if (scan.isGetScan() && !positioned) {
      onlyRow = scan.getStartRow();
      rows = null;
      if (table.getRow(onlyRow) == null) {
        return false; // a later write of the row is above this scan's read point
      }
    }
    Map<byte[], TimeRange> familyRanges = scan.getColumnFamilyTimeRange();
    TimeRange tr = familyRanges.isEmpty()
      ? scan.getTimeRange()
      : familyRanges.getOrDefault(store.getColumnFamilyDescriptor().getName(), scan.getTimeRange());
    TimeRangeTracker trt = table.getTimeRangeTracker();
    return !table.isEmpty() && (tr.isAllTime() || trt.includesTimeRange(tr))
      && trt.getMax() >= oldestUnexpiredTS;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      current = null;
      table.decScannerCount();
    }
  }

  @Override
  public String toString() {
    return "RlsmHashScanner readPt=" + readPt + " current=" + current;
  }
}
