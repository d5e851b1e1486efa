package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.List;
import java.util.function.IntConsumer;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.index.SortedRowView;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Scans one RLSM file in key order through its {@link SortedRowView}: rows are visited in sorted
 * order and each row's record is read and checked when the scanner reaches it; within a record
 * cells are already in {@code CellComparator} order. HBase's {@code StoreScanner} merges this
 * with the memstore and the other files and applies versions, deletes, TTL and filters.
 *
 * <p>The parent class wraps an HFile scanner, which this facade does not have: every method that
 * would touch it is overridden. Seeks are never lazy (the Bloom filter is applied once, in
 * {@link #shouldUseScanner}). With MVCC enforced (user scans), cells whose sequence id is above
 * the read point are invisible.
 */
@InterfaceAudience.Private
public class RlsmStoreFileScanner extends StoreFileScanner {
  private final RlsmStoreFileReader reader;
  private final RlsmFileReader file;
  private final SortedRowView view;
  private final CellComparator comparator;
  private final boolean enforceMvcc;
  private final long readPt;

  // Sorted-position intervals [start[i], end[i]) this scanner may return; null = whole file.
  // A Level-1 segment shared by partitions is valid only inside the ranges of the partitions that
  // list it in the current manifest; its rows elsewhere are superseded copies.
  private final int[] allowedStart;
  private final int[] allowedEnd;
  private int rowPos = -1; // sorted position of the loaded row
  private Cell[] rowCells;
  private int cellIdx;
  private Cell cur;
  private boolean closed;

  /**
   * @param ranges closed row ranges {@code {low, high}} to serve, ascending and disjoint; null
   *               serves the whole file
   */
  RlsmStoreFileScanner(RlsmStoreFileReader reader, boolean enforceMvcc, long readPt,
    long scannerOrder, List<byte[][]> ranges) {
    super(reader, null, enforceMvcc, true, readPt, scannerOrder, false, false);
    this.reader = reader;
    this.file = reader.getRlsmFile();
    this.view = file.sortedView();
    this.comparator = reader.getComparator();
    this.enforceMvcc = enforceMvcc;
    this.readPt = readPt;
    if (ranges == null || ranges.isEmpty()) {
      allowedStart = null;
      allowedEnd = null;
    } else {
      allowedStart = new int[ranges.size()];
      allowedEnd = new int[ranges.size()];
      for (int i = 0; i < ranges.size(); i++) {
        byte[] low = ranges.get(i)[0];
        byte[] high = ranges.get(i)[1];
        allowedStart[i] = view.lowerBound(low, 0, low.length);
        allowedEnd[i] = view.upperBound(high, 0, high.length);
      }
    }
  }

  /** The first allowed position at or after {@code pos}. */
  private int nextAllowed(int pos) {
    if (allowedStart == null) {
      return pos;
    }
    for (int i = 0; i < allowedStart.length; i++) {
      if (pos < allowedEnd[i]) {
        return Math.max(pos, allowedStart[i]);
      }
    }
    return view.size();
  }

  /** The last allowed position at or before {@code pos}; -1 when none. */
  private int prevAllowed(int pos) {
    if (allowedStart == null) {
      return pos;
    }
    for (int i = allowedStart.length - 1; i >= 0; i--) {
      if (pos >= allowedStart[i]) {
        return Math.min(pos, allowedEnd[i] - 1);
      }
    }
    return -1;
  }

  /** True when some allowed row may lie within the scan's rows (or is the Get's row). */
  private boolean allowedOverlap(Scan scan) {
    if (allowedStart == null) {
      return true;
    }
    byte[] lo = scan.isReversed() ? scan.getStopRow() : scan.getStartRow();
    byte[] hi = scan.isReversed() ? scan.getStartRow() : scan.getStopRow();
    int from = lo.length == 0 ? 0 : view.lowerBound(lo, 0, lo.length);
    int to = hi.length == 0 ? view.size() : view.upperBound(hi, 0, hi.length);
    int first = nextAllowed(from);
    return first < to;
  }

  private boolean visible(Cell c) {
    return !enforceMvcc || c.getSequenceId() <= readPt;
  }

  private void loadRow(int pos) throws IOException {
    if (pos != rowPos) {
      rowCells = file.readEntry(view.entry(pos));
      rowPos = pos;
    }
  }

  /** Positions at the first visible cell at or after (pos, idx), moving to later rows. */
  private boolean settleForward(int pos, int idx) throws IOException {
    int allowed = nextAllowed(pos);
    if (allowed != pos) {
      pos = allowed;
      idx = 0;
    }
    while (pos < view.size()) {
      loadRow(pos);
      for (int i = idx; i < rowCells.length; i++) {
        if (visible(rowCells[i])) {
          cellIdx = i;
          cur = rowCells[i];
          return true;
        }
      }
      pos = nextAllowed(pos + 1);
      idx = 0;
    }
    cur = null;
    return false;
  }

  /** First index in the loaded row, from {@code from}, of a cell {@code >= key}. */
  private int lowerBoundInRow(Cell key, int from) {
    int lo = from;
    int hi = rowCells.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (comparator.compare(rowCells[mid], key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  @Override
  public Cell peek() {
    return cur;
  }

  @Override
  public Cell next() throws IOException {
    Cell ret = cur;
    if (cur != null) {
      settleForward(rowPos, cellIdx + 1);
    }
    return ret;
  }

  /**
   * Sorted position of the first row {@code >= key}'s row: the hash index finds an existing row
   * in O(1) (the common case: Gets and row seeks), a binary search handles absent rows.
   */
  private int rowPosition(Cell key) {
    int e = file.index().find(key.getRowArray(), key.getRowOffset(), key.getRowLength());
    return e >= 0
      ? view.position(e)
      : view.lowerBound(key.getRowArray(), key.getRowOffset(), key.getRowLength());
  }

  @Override
  public boolean seek(Cell key) throws IOException {
    int pos = rowPosition(key);
    if (pos >= view.size()) {
      cur = null;
      return false;
    }
    loadRow(pos);
    int idx = comparator.compareRows(rowCells[0], key) == 0 ? lowerBoundInRow(key, 0) : 0;
    return settleForward(pos, idx);
  }

  @Override
  public boolean reseek(Cell key) throws IOException {
    if (cur == null) {
      return false;
    }
    if (comparator.compare(cur, key) >= 0) {
      return true; // reseek never moves backwards
    }
    if (comparator.compareRows(cur, key) == 0) {
      return settleForward(rowPos, lowerBoundInRow(key, cellIdx));
    }
    return seek(key);
  }

  @Override
  public boolean requestSeek(Cell kv, boolean forward, boolean useBloom) throws IOException {
    return forward ? reseek(kv) : seek(kv);
  }

  @Override
  public boolean realSeekDone() {
    return true;
  }

  @Override
  public void enforceSeek() {
  }

  /** Positions at the first visible cell of the last row before {@code pos} that has one. */
  private boolean settleBackward(int pos) throws IOException {
    for (int p = prevAllowed(pos); p >= 0; p = prevAllowed(p - 1)) {
      loadRow(p);
      for (int i = 0; i < rowCells.length; i++) {
        if (visible(rowCells[i])) {
          cellIdx = i;
          cur = rowCells[i];
          return true;
        }
      }
    }
    cur = null;
    return false;
  }

  @Override
  public boolean seekToPreviousRow(Cell originalKey) throws IOException {
    return settleBackward(view.lastBefore(originalKey.getRowArray(), originalKey.getRowOffset(),
      originalKey.getRowLength()));
  }

  @Override
  public boolean seekToLastRow() throws IOException {
    return settleBackward(view.size() - 1);
  }

  @Override
  public boolean backwardSeek(Cell key) throws IOException {
    seek(key);
    if (cur == null || comparator.compareRows(cur, key) > 0) {
      return seekToPreviousRow(key);
    }
    return true;
  }

  @Override
  public boolean shouldUseScanner(Scan scan, HStore store, long oldestUnexpiredTS) {
    byte[] cf = store.getColumnFamilyDescriptor().getName();
    TimeRange tr = scan.getColumnFamilyTimeRange().get(cf);
    if (tr == null) {
      tr = scan.getTimeRange();
    }
    return reader.passesTimerangeFilter(tr, oldestUnexpiredTS)
      && reader.passesKeyRangeFilter(scan) && allowedOverlap(scan)
      && reader.passesBloomFilter(scan, null);
  }

  @Override
  public Cell getNextIndexedKey() {
    return null;
  }

  @Override
  public void recordBlockSize(IntConsumer blockSizeConsumer) {
    // No blocks: reads are whole row records, accounted by HBase per cell.
  }

  @Override
  public void shipped() {
    // Cells own their bytes (decoded copies), nothing to release.
  }

  @Override
  public Path getFilePath() {
    return file.getPath();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    cur = null;
    rowCells = null;
    reader.readCompleted();
  }

  @Override
  public String toString() {
    return "RlsmStoreFileScanner[" + file.getPath() + ", cur=" + cur + "]";
  }
}
