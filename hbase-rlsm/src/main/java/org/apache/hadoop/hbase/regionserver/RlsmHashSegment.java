package org.apache.hadoop.hbase.regionserver;

import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.rlsm.memstore.HashCellTable;
import org.apache.hadoop.hbase.util.ClassSize;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A frozen {@link HashCellTable} (a memstore snapshot) dressed as the {@link ImmutableSegment}
 * that {@link MemStoreSnapshot} requires. Its size, time range and tags flag are fixed at
 * construction from the table, which no longer changes (HBase takes the snapshot under the
 * region's update lock). It has no {@code CellSet}: its scanners are {@link RlsmHashScanner}s,
 * which the RLSM flusher recognises to write the rows in hash order without sorting them.
 */
@InterfaceAudience.Private
public class RlsmHashSegment extends ImmutableSegment {
  private final HashCellTable table;

  RlsmHashSegment(HashCellTable table) {
    super(table.getComparator());
    this.table = table;
    if (!table.isEmpty()) {
      // An empty snapshot reports zero, like DefaultMemStore's; a real one carries everything the
      // table added to the region's counters, which the flush then subtracts.
      incMemStoreSize(table.getDataSize(), table.getHeapSize(), table.getOffHeapSize(),
        table.getCellsCount());
      TimeRangeTracker trt = table.getTimeRangeTracker();
      timeRangeTracker.includeTimestamp(trt.getMin());
      timeRangeTracker.includeTimestamp(trt.getMax());
    }
    this.tagsPresent = table.isTagsPresent();
  }

  HashCellTable getTable() {
    return table;
  }

  @Override
  public boolean isEmpty() {
    return table.isEmpty();
  }

  @Override
  protected CellSet getCellSet() {
    throw new UnsupportedOperationException("a hash memstore segment has no sorted cell set");
  }

  @Override
  public int getNumUniqueKeys() {
    return CellSet.UNKNOWN_NUM_UNIQUES;
  }

  @Override
  protected boolean canBeFlattened() {
    return false;
  }

  @Override
  protected long indexEntrySize() {
    return ClassSize.REFERENCE;
  }

  @Override
  public Cell maybeCloneWithAllocator(Cell cell, boolean forceCloneOfBigCell) {
    throw new IllegalStateException("a memstore snapshot is immutable");
  }

  @Override
  public boolean shouldSeek(TimeRange tr, long oldestUnexpiredTS) {
    return !isEmpty() && (tr.isAllTime() || timeRangeTracker.includesTimeRange(tr))
      && timeRangeTracker.getMax() >= oldestUnexpiredTS;
  }

  @Override
  protected KeyValueScanner getScanner(long readPoint) {
    return new RlsmHashScanner(table, readPoint, false);
  }

  @Override
  public List<KeyValueScanner> getScanners(long readPoint) {
    return Collections.singletonList(getScanner(readPoint));
  }

  @Override
  List<KeyValueScanner> getSnapshotScanners() {
    return Collections.singletonList(new RlsmHashScanner(table, Long.MAX_VALUE, true));
  }

  @Override
  public void incScannerCount() {
    table.incScannerCount();
  }

  @Override
  public void decScannerCount() {
    table.decScannerCount();
  }

  @Override
  public void close() {
    table.close();
  }

  @Override
  public String toString() {
    return "type=RlsmHashSegment, rows=" + table.rowCount() + ", cellCount=" + getCellsCount()
      + ", cellSize=" + getDataSize() + ", totalHeapSize=" + getHeapSize();
  }
}
