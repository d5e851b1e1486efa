package org.apache.hadoop.hbase.regionserver;

import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
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
 * maintained row skip list, brought up to date at the first positioning; a Get (the scan names
 * one row) never touches that index: the row is found by hash, and the scanner declines itself
 * when the row is not in the table. Rows whose first write is still in progress are empty and
 * skipped.
 *
 * <p>Every cell with a sequence id at or below the read point was added before the read point
 * was taken, and so before this scanner looked at the table; the index and the row iterators
 * therefore see all of them (see the {@code rlsm.memstore} package invariants).
 */
@InterfaceAudience.Private
public class RlsmHashScanner extends NonLazyKeyValueScanner {
  private final HashCellTable table;
  private final long readPt;
  private final CellComparator cmp;
  private final boolean forFlush;
  private byte[] onlyRow; // set for a Get before the first positioning
  private NavigableSet<MemRow> rows;
  private Iterator<MemRow> rowIter; // the rows after currentRow
  private MemRow currentRow;
  private Iterator<Cell> cells; // the rest of currentRow
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

  private NavigableSet<MemRow> rows() {
    if (rows == null) {
      if (onlyRow != null) {
        MemRow r = table.getRow(onlyRow);
        rows = new TreeSet<>(MemRow.ROW_ORDER);
        if (r != null) {
          rows.add(r);
        }
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
      nextRows(null);
    }
    return c;
  }

  private void ensurePositioned() {
    if (!positioned && !closed) {
      forward(rows(), null);
    }
  }

  /**
   * Moves to the first visible cell at or after {@code from} in the rows of {@code tail}. Passing
   * {@code from} on to a later row than its own is harmless: all of that row's cells sort after it.
   */
  private boolean forward(NavigableSet<MemRow> tail, Cell from) {
    rowIter = tail.iterator();
    return nextRows(from);
  }

  private boolean nextRows(Cell from) {
    positioned = true;
    while (rowIter.hasNext()) {
      currentRow = rowIter.next();
      cells = currentRow.iterator(from, cmp);
      from = null;
      if (advanceInRow()) {
        return true;
      }
    }
    return exhausted();
  }

  /** Moves to the first visible cell of {@code row}, or of the last earlier row that has one. */
  private boolean backward(MemRow row) {
    positioned = true;
    for (MemRow r = row; r != null; r = rows().lower(r)) {
      cells = r.iterator(null, cmp);
      if (advanceInRow()) {
        currentRow = r;
        rowIter = rows().tailSet(r, false).iterator();
        return true;
      }
    }
    return exhausted();
  }

  private boolean exhausted() {
    rowIter = Collections.emptyIterator();
    currentRow = null;
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

  @Override
  public boolean seek(Cell key) {
    if (closed) {
      return false;
    }
    return forward(rows().tailSet(HashCellTable.probe(key), true), key);
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
      cells = currentRow.iterator(key, cmp);
      return advanceInRow() || nextRows(null);
    }
    return seek(key);
  }

  @Override
  public boolean seekToPreviousRow(Cell key) {
    if (closed) {
      return false;
    }
    return backward(rows().lower(HashCellTable.probe(key)));
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
    NavigableSet<MemRow> rs = rows();
    return backward(rs.isEmpty() ? null : rs.last());
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
