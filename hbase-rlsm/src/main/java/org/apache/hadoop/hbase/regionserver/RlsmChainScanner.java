package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.function.Predicate;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The scanner of a {@link RlsmPartitionChain}: the partitions of the chain concatenated in key
 * order, one partition open at a time. A partition is opened (HBase's own scanner on each of its
 * segments that HBase's per-file checks accept, positioned) only when a seek lands in it or the
 * partition before it, in the direction of the scan, runs out; its segments are merged by HBase's
 * own {@link KeyValueHeap} (forward) or {@link ReversedKeyValueHeap} (reversed), so lazy seeks,
 * Bloom filters, MVCC read points and the block cache work as on any store file. Partitions are
 * disjoint ranges, so the concatenation is in key order.
 *
 * <p><b>Range.</b> A segment shared with other partitions (after an index split) holds
 * superseded rows outside the partition, which must stay hidden. The merged heap returns cells in
 * key order, so they are kept out on the heap, not per segment: forwards, every cell at or before
 * the partition's high row comes before any after it, so the partition ends at the heap's first
 * cell past its high row, and a seek never starts before its low row; backwards, symmetrically.
 * That is one row comparison per cell returned, and only for a partition with such a segment
 * ({@link RlsmStoreFileManager.Reading#bounded}); a wrapper on each shared segment cost two per
 * cell and segment, plus a scanner object and a call layer per cell.
 *
 * <p>Invariant after every call: either the open heap has a cell, or no partition is open and
 * the chain is exhausted in the scan's direction. Its top has always had a real seek, so
 * {@link #realSeekDone} is true. A heap is reused for a seek only when the seek does not go back
 * behind where the heap already is (HBase's heaps move one way only); otherwise the partition
 * is opened afresh.
 *
 * <p>A partition left behind is not closed at once: cells already returned may still refer to
 * its blocks until HBase calls {@link #shipped} (or {@link #close}), as in {@link KeyValueHeap}.
 * The scanner holds a reference on every segment of the chain from its creation to
 * {@link #close}, see {@link RlsmPartitionChain}. Not thread-safe, like every HBase scanner.
 */
@InterfaceAudience.Private
final class RlsmChainScanner extends StoreFileScanner {
  /**
   * The unpositioned scanners on those of a partition's segments that {@code use} accepts,
   * restricted to its range; no scanner is created on a segment {@code use} refuses.
   */
  @FunctionalInterface
  interface SegmentOpener {
    List<StoreFileScanner> open(RlsmStoreFileManager.Partition p, Predicate<HStoreFile> use)
      throws IOException;
  }

  /** Positions a freshly opened segment scanner. */
  @FunctionalInterface
  private interface Fresh {
    boolean apply(KeyValueScanner s) throws IOException;
  }

  /** Positions the heap of the open partition. */
  @FunctionalInterface
  private interface Reuse {
    boolean apply(KeyValueHeap h) throws IOException;
  }

  private final RlsmPartitionChain chain;
  private final StoreFileReader reader;
  private final List<RlsmStoreFileManager.Partition> partitions;
  private final SegmentOpener opener;
  private final CellComparator comparator;
  /** Heaps of partitions left behind, closed at the next {@link #shipped} or {@link #close}. */
  private final List<KeyValueHeap> retired = new ArrayList<>();
  /** HBase's per-file checks, as last asked by {@link #shouldUseScanner}; none before. */
  private Scan scan;
  private HStore store;
  private long oldestUnexpiredTS;
  /** The open partition; -1 or size() when exhausted backwards or forwards. */
  private int current = -1;
  private KeyValueHeap heap;
  private boolean reversed;
  /** Where the open heap is: the last seek key or returned cell (null: unknown). */
  private Cell mark;
  /** Whether the heap may still be in {@link #mark}'s row at or after it (reversed only). */
  private boolean markRowOpen;
  /** The open partition when its range must be checked on the heap, else null. */
  private RlsmStoreFileManager.Partition bounds;
  private int partitionsOpened;
  private int segmentScannersOpened;
  private int boundedPartitionsOpened;
  private boolean closed;

  RlsmChainScanner(RlsmPartitionChain chain, long scannerOrder, SegmentOpener opener) {
    super(chain.getReader(), null, false, false, Long.MAX_VALUE, scannerOrder, false, false);
    this.chain = chain;
    this.reader = chain.getReader();
    this.partitions = chain.partitions();
    this.opener = opener;
    this.comparator = reader.getComparator();
    chain.increaseRefCount();
  }

  /** Partitions opened so far (each opening counts, reopenings included). */
  int partitionsOpened() {
    return partitionsOpened;
  }

  /** Segment scanners created so far. */
  int segmentScannersOpened() {
    return segmentScannersOpened;
  }

  /** Those of the partitions opened whose range is checked on the heap (a shared segment). */
  int boundedPartitionsOpened() {
    return boundedPartitionsOpened;
  }

  /** The scanners of the open partition's heap, for tests; empty when none is open. */
  List<KeyValueScanner> openScanners() {
    List<KeyValueScanner> out = new ArrayList<>();
    if (heap != null) {
      out.addAll(heap.getHeap());
      if (heap.getCurrentForTesting() != null) {
        out.add(heap.getCurrentForTesting());
      }
    }
    return out;
  }

  /** Index of the first partition whose high row is at or after {@code c}'s; size() if none. */
  private int atOrAfter(Cell c) {
    int lo = 0;
    int hi = partitions.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      byte[] high = partitions.get(mid).high;
      if (comparator.compareRows(c, high, 0, high.length) > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * Index of the last partition whose low row is before {@code c}'s row, or at it unless
   * {@code strict}; -1 if none.
   */
  private int atOrBefore(Cell c, boolean strict) {
    int lo = 0;
    int hi = partitions.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      byte[] low = partitions.get(mid).low;
      int cmp = comparator.compareRows(c, low, 0, low.length);
      if (strict ? cmp > 0 : cmp >= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo - 1;
  }

  private void retire() {
    if (heap != null) {
      retired.add(heap);
      heap = null;
      bounds = null;
    }
  }

  private void closeRetired() {
    retired.forEach(KeyValueHeap::close);
    retired.clear();
  }

  private void open(int i, Fresh position, boolean backwards) throws IOException {
    retire();
    current = i;
    reversed = backwards;
    RlsmStoreFileManager.Partition p = partitions.get(i);
    bounds = p.reading().bounded ? p : null;
    List<StoreFileScanner> all = opener.open(p, seg -> mayHold(p, seg));
    partitionsOpened++;
    segmentScannersOpened += all.size();
    if (bounds != null) {
      boundedPartitionsOpened++;
    }
    try {
      for (StoreFileScanner s : all) {
        position.apply(s);
      }
      heap = backwards ? new ReversedKeyValueHeap(all, comparator)
        : new KeyValueHeap(all, comparator);
    } catch (IOException | RuntimeException e) {
      all.forEach(StoreFileScanner::close);
      throw e;
    }
  }

  /**
   * HBase's per-file checks ({@link StoreFileScanner#shouldUseScanner}: time range, key range,
   * Bloom filter), asked of the segment's reader before any scanner exists, and for a Get whether
   * its row is in the partition's range (the rest of a shared segment is superseded). A scanner
   * on a refused segment would be created only to be dropped: for a Get, that is every segment
   * of the partition but those holding the row. Every segment is used before HBase passed its
   * checks' arguments ({@link #shouldUseScanner}).
   */
  private boolean mayHold(RlsmStoreFileManager.Partition p, HStoreFile seg) {
    if (scan == null) {
      return true;
    }
    if (scan.isGetScan()) {
      byte[] row = scan.getStartRow();
      if (Bytes.compareTo(row, p.low) < 0 || Bytes.compareTo(row, p.high) > 0) {
        return false;
      }
    }
    byte[] cf = store.getColumnFamilyDescriptor().getName();
    TimeRange tr = scan.getColumnFamilyTimeRange().get(cf);
    StoreFileReader r = seg.getReader();
    return r.passesTimerangeFilter(tr == null ? scan.getTimeRange() : tr, oldestUnexpiredTS)
      && r.passesKeyRangeFilter(scan) && r.passesBloomFilter(scan, scan.getFamilyMap().get(cf));
  }

  private boolean forward(Cell key, Reuse reuse, Fresh fresh) throws IOException {
    int i = atOrAfter(key);
    if (
      heap != null && !reversed && i == current && mark != null
        && comparator.compare(key, mark) >= 0
    ) {
      reuse.apply(heap);
      mark = key;
    } else if (i == partitions.size()) {
      retire();
      current = i;
      mark = key;
    } else {
      RlsmStoreFileManager.Partition p = partitions.get(i);
      if (p.reading().bounded && comparator.compareRows(key, p.low, 0, p.low.length) < 0) {
        // a key in the gap before the partition, where its shared segments hold superseded rows
        Cell low = PrivateCellUtil.createFirstOnRow(p.low);
        open(i, s -> s.seek(low), false);
        mark = low;
      } else {
        open(i, fresh, false);
        mark = key;
      }
    }
    return settleForward();
  }

  /**
   * Whether {@code c}, the open heap's top in a forward scan, is a cell of the open partition:
   * not null and, for a partition with shared segments, not past its high row.
   */
  private boolean inForward(Cell c) {
    return c != null
      && (bounds == null || comparator.compareRows(c, bounds.high, 0, bounds.high.length) <= 0);
  }

  /** As {@link #inForward} for a reversed scan: not null and not before the low row. */
  private boolean inBackward(Cell c) {
    return c != null
      && (bounds == null || comparator.compareRows(c, bounds.low, 0, bounds.low.length) >= 0);
  }

  /** Opens the following partitions while the open one has run out. */
  private boolean settleForward() throws IOException {
    while (heap != null && !inForward(heap.peek())) {
      retire();
      if (current + 1 >= partitions.size()) {
        current = partitions.size();
        return false;
      }
      Cell low = PrivateCellUtil.createFirstOnRow(partitions.get(current + 1).low);
      open(current + 1, s -> s.seek(low), false);
      mark = low;
    }
    return heap != null;
  }

  private boolean backward(int i, boolean reusable, Reuse reuse, Fresh fresh, Cell newMark,
    boolean rowOpen) throws IOException {
    if (heap != null && reversed && i == current && reusable) {
      reuse.apply(heap);
    } else if (i < 0) {
      retire();
      current = -1;
    } else {
      open(i, fresh, true);
    }
    mark = newMark;
    markRowOpen = rowOpen;
    if (heap != null && bounds != null) {
      Cell top = heap.peek();
      if (top != null && comparator.compareRows(top, bounds.high, 0, bounds.high.length) > 0) {
        // a shared segment's superseded rows above the partition: back to its last row, the
        // greatest below high + 0x00
        heap.seekToPreviousRow(
          PrivateCellUtil.createFirstOnRow(Bytes.add(bounds.high, new byte[1])));
      }
    }
    return settleBackward();
  }

  /** Opens the preceding partitions, from their high row, while the open one has run out. */
  private boolean settleBackward() throws IOException {
    while (heap != null && !inBackward(heap.peek())) {
      retire();
      if (current <= 0) {
        current = -1;
        return false;
      }
      Cell high = PrivateCellUtil.createFirstOnRow(partitions.get(current - 1).high);
      open(current - 1, s -> s.backwardSeek(high), true);
      mark = high;
      markRowOpen = true;
    }
    return heap != null;
  }

  @Override
  public Cell peek() {
    return heap == null ? null : heap.peek();
  }

  @Override
  public Cell next() throws IOException {
    if (heap == null) {
      return null;
    }
    Cell c = heap.next();
    mark = c;
    markRowOpen = true;
    if (reversed) {
      settleBackward();
    } else {
      settleForward();
    }
    return c;
  }

  @Override
  public boolean seek(Cell key) throws IOException {
    return forward(key, h -> h.seek(key), s -> s.seek(key));
  }

  @Override
  public boolean reseek(Cell key) throws IOException {
    return forward(key, h -> h.reseek(key), s -> s.seek(key));
  }

  /** The heap seeks its segments lazily; its top, and so this scanner, is always real. */
  @Override
  public boolean requestSeek(Cell kv, boolean forward, boolean useBloom) throws IOException {
    return forward(kv, h -> h.requestSeek(kv, forward, useBloom),
      s -> s.requestSeek(kv, false, useBloom));
  }

  @Override
  public boolean realSeekDone() {
    return true;
  }

  @Override
  public void enforceSeek() {
  }

  @Override
  public boolean backwardSeek(Cell key) throws IOException {
    boolean reusable = mark != null && (comparator.compareRows(key, mark) < 0
      || (markRowOpen && comparator.compareRows(key, mark) == 0
        && comparator.compare(key, mark) >= 0));
    return backward(atOrBefore(key, false), reusable, h -> h.backwardSeek(key),
      s -> s.backwardSeek(key), key, true);
  }

  @Override
  public boolean seekToPreviousRow(Cell key) throws IOException {
    boolean reusable = mark != null && comparator.compareRows(key, mark) <= 0;
    return backward(atOrBefore(key, true), reusable, h -> h.seekToPreviousRow(key),
      s -> s.seekToPreviousRow(key), PrivateCellUtil.createFirstOnRow(key), false);
  }

  @Override
  public boolean seekToLastRow() throws IOException {
    int last = partitions.size() - 1;
    return backward(last, false, h -> false, KeyValueScanner::seekToLastRow,
      PrivateCellUtil.createLastOnRow(partitions.get(last).high), true);
  }

  /**
   * Keeps HBase's per-file checks for the segments of each partition opened later; the chain
   * itself is used (its partitions overlap the scan, or HBase would not have been given it).
   */
  @Override
  public boolean shouldUseScanner(Scan scan, HStore store, long oldestUnexpiredTS) {
    this.scan = scan;
    this.store = store;
    this.oldestUnexpiredTS = oldestUnexpiredTS;
    return true;
  }

  @Override
  public Cell getNextIndexedKey() {
    return heap == null ? null : heap.getNextIndexedKey();
  }

  @Override
  public void recordBlockSize(IntConsumer blockSizeConsumer) {
    if (heap != null && heap.peek() != null) {
      heap.recordBlockSize(blockSizeConsumer);
    }
  }

  /**
   * Copies {@link #mark} first: it may be a cell of a block that the heap and the retired heaps
   * release now (a scan that does not cache blocks reads them into HBase's buffer pool, which
   * hands them to the next read), as HBase's StoreScanner copies its previous cell.
   */
  @Override
  public void shipped() throws IOException {
    if (mark != null) {
      mark = KeyValueUtil.toNewKeyCell(mark);
    }
    closeRetired();
    if (heap != null) {
      heap.shipped();
    }
  }

  @Override
  public Path getFilePath() {
    return chain.getPath();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    retire();
    closeRetired();
    chain.decreaseRefCount();
    reader.readCompleted();
  }

  @Override
  public String toString() {
    return "RlsmChainScanner[" + partitions.size() + " partitions, open " + current + "]";
  }
}
