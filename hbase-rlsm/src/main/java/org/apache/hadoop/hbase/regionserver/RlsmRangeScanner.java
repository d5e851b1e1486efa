package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.List;
import java.util.function.IntConsumer;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * HBase's scanner over one v2 Level-1 segment, restricted to closed row ranges: a segment shared
 * by several partitions is valid only inside the ranges of the partitions that list it (the
 * rest of it is superseded), see {@link RlsmSegmentView}. Every positioning call is passed to
 * HBase's own {@link StoreFileScanner} (Bloom filters, lazy seeks, block cache, MVCC) and the
 * result is then moved into the ranges: forwards to the next range's low row, backwards to the
 * previous range's high row, or past the end.
 *
 * <p>The delegate holds its own reference on the reader; this scanner takes one more (the
 * superclass constructor), and {@link #close} releases both.
 */
@InterfaceAudience.Private
final class RlsmRangeScanner extends StoreFileScanner {
  private final StoreFileScanner delegate;
  private final StoreFileReader reader;
  private final CellComparator comparator;
  /** Closed ranges {low, high}, ascending and disjoint. */
  private final List<byte[][]> ranges;
  private boolean exhausted;
  private boolean closed;

  RlsmRangeScanner(StoreFileScanner delegate, List<byte[][]> ranges, long scannerOrder) {
    super(delegate.getReader(), null, false, false, Long.MAX_VALUE, scannerOrder, false, false);
    this.delegate = delegate;
    this.reader = delegate.getReader();
    this.comparator = reader.getComparator();
    this.ranges = ranges;
  }

  /** Index of the first range whose high row is at or after {@code c}'s row; size() if none. */
  private int rangeAtOrAfter(Cell c) {
    int lo = 0;
    int hi = ranges.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      byte[] high = ranges.get(mid)[1];
      if (comparator.compareRows(c, high, 0, high.length) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private boolean insideLow(Cell c, int i) {
    byte[] low = ranges.get(i)[0];
    return comparator.compareRows(c, low, 0, low.length) >= 0;
  }

  /** Moves the delegate forwards into a range, or marks the scanner exhausted. */
  private boolean settleForward() throws IOException {
    exhausted = false;
    while (true) {
      Cell c = delegate.peek();
      if (c == null) {
        return false;
      }
      int i = rangeAtOrAfter(c);
      if (i == ranges.size()) {
        exhausted = true;
        return false;
      }
      if (insideLow(c, i)) {
        return true;
      }
      if (!delegate.reseek(PrivateCellUtil.createFirstOnRow(ranges.get(i)[0]))) {
        return false;
      }
    }
  }

  /** Moves the delegate backwards into a range, or marks the scanner exhausted. */
  private boolean settleBackward() throws IOException {
    exhausted = false;
    while (true) {
      Cell c = delegate.peek();
      if (c == null) {
        return false;
      }
      int i = rangeAtOrAfter(c);
      if (i < ranges.size() && insideLow(c, i)) {
        return true;
      }
      if (i == 0) {
        exhausted = true;
        return false;
      }
      // the greatest row below high + 0x00 is at most high: the previous range's last row
      byte[] above = Bytes.add(ranges.get(i - 1)[1], new byte[1]);
      if (!delegate.seekToPreviousRow(PrivateCellUtil.createFirstOnRow(above))) {
        return false;
      }
    }
  }

  @Override
  public Cell peek() {
    return exhausted ? null : delegate.peek();
  }

  @Override
  public Cell next() throws IOException {
    Cell c = peek();
    if (c != null) {
      delegate.next();
      settleForward();
    }
    return c;
  }

  @Override
  public boolean seek(Cell key) throws IOException {
    delegate.seek(key);
    return settleForward();
  }

  @Override
  public boolean reseek(Cell key) throws IOException {
    delegate.reseek(key);
    return settleForward();
  }

  @Override
  public boolean requestSeek(Cell kv, boolean forward, boolean useBloom) throws IOException {
    boolean found = delegate.requestSeek(kv, forward, useBloom);
    if (!delegate.realSeekDone()) {
      exhausted = false;
      return found; // a fake key on kv's row; enforceSeek settles
    }
    return forward ? settleForward() : settleBackward();
  }

  @Override
  public boolean realSeekDone() {
    return delegate.realSeekDone();
  }

  @Override
  public void enforceSeek() throws IOException {
    delegate.enforceSeek();
    settleForward();
  }

  @Override
  public boolean seekToPreviousRow(Cell key) throws IOException {
    delegate.seekToPreviousRow(key);
    return settleBackward();
  }

  @Override
  public boolean seekToLastRow() throws IOException {
    delegate.seekToLastRow();
    return settleBackward();
  }

  @Override
  public boolean backwardSeek(Cell key) throws IOException {
    delegate.backwardSeek(key);
    return settleBackward();
  }

  /** HBase's checks (time range, key range, Bloom) and, for a Get, the row in a range. */
  @Override
  public boolean shouldUseScanner(Scan scan, HStore store, long oldestUnexpiredTS) {
    if (scan.isGetScan()) {
      byte[] row = scan.getStartRow();
      Cell probe = PrivateCellUtil.createFirstOnRow(row);
      int i = rangeAtOrAfter(probe);
      if (i == ranges.size() || !insideLow(probe, i)) {
        return false;
      }
    }
    return delegate.shouldUseScanner(scan, store, oldestUnexpiredTS);
  }

  @Override
  public Cell getNextIndexedKey() {
    return delegate.getNextIndexedKey();
  }

  @Override
  public void recordBlockSize(IntConsumer blockSizeConsumer) {
    delegate.recordBlockSize(blockSizeConsumer);
  }

  @Override
  public void shipped() throws IOException {
    delegate.shipped();
  }

  @Override
  public Path getFilePath() {
    return delegate.getFilePath();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    delegate.close();
    reader.readCompleted();
  }

  @Override
  public String toString() {
    return "RlsmRangeScanner[" + delegate + ", " + ranges.size() + " ranges]";
  }
}
