package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The Level-1 partitions one read may reach, in key order, handed to HBase by
 * {@code getFilesForScan} as a single file so that HBase makes one scanner of them: a
 * {@link RlsmChainScanner}, which opens a partition's segments only when the read gets there.
 * HBase would otherwise create and seek a scanner on every segment of every partition in the
 * scan's range, whatever the scan's limit.
 *
 * <p><b>Reference counts.</b> HBase counts references on the files {@code getFilesForScan}
 * returns while it holds the store's read lock ({@code HStore.getScanners}) and drops them once
 * the scanners exist; the chain forwards those counts to every segment it lists, and its scanner
 * takes its own reference on each of them for its whole life. So no segment a later partition
 * opens can be archived by a compaction that commits after the read chose its files, exactly as
 * if HBase held a scanner on each of them.
 *
 * <p>Everything but the scanner and the reference counts is the first segment's (HBase sorts the
 * files it scans by {@link #getMaxSequenceId}, the newest segment's here).
 */
@InterfaceAudience.Private
final class RlsmPartitionChain extends HStoreFile {
  private final List<RlsmStoreFileManager.Partition> partitions;
  private final HStoreFile first;
  private final long maxSequenceId;
  private final long maxMemStoreTs;

  /** @param partitions ascending, disjoint, at least one holding a segment */
  RlsmPartitionChain(List<RlsmStoreFileManager.Partition> partitions) {
    this(partitions, firstSegment(partitions));
  }

  private RlsmPartitionChain(List<RlsmStoreFileManager.Partition> partitions, HStoreFile first) {
    super(first.getFileInfo(), BloomType.NONE, first.getCacheConf());
    this.partitions = partitions;
    this.first = first;
    long seq = -1;
    long ts = -1;
    for (RlsmStoreFileManager.Partition p : partitions) {
      for (HStoreFile seg : p.segments) {
        seq = Math.max(seq, seg.getMaxSequenceId());
        ts = Math.max(ts, seg.getMaxMemStoreTS());
      }
    }
    this.maxSequenceId = seq;
    this.maxMemStoreTs = ts;
  }

  private static HStoreFile firstSegment(List<RlsmStoreFileManager.Partition> partitions) {
    for (RlsmStoreFileManager.Partition p : partitions) {
      if (!p.segments.isEmpty()) {
        return p.segments.get(0);
      }
    }
    throw new IllegalArgumentException("no segment in " + partitions);
  }

  List<RlsmStoreFileManager.Partition> partitions() {
    return partitions;
  }

  @Override
  long increaseRefCount() {
    return eachSegment(HStoreFile::increaseRefCount);
  }

  @Override
  long decreaseRefCount() {
    return eachSegment(HStoreFile::decreaseRefCount);
  }

  /** Applies a reference count change to every segment; returns the last count. */
  private long eachSegment(ToLongFunction<HStoreFile> change) {
    long n = 0;
    for (RlsmStoreFileManager.Partition p : partitions) {
      for (HStoreFile seg : p.segments) {
        n = change.applyAsLong(seg);
      }
    }
    return n;
  }

  @Override
  public void initReader() throws IOException {
    for (RlsmStoreFileManager.Partition p : partitions) {
      for (HStoreFile seg : p.segments) {
        seg.initReader();
      }
    }
  }

  @Override
  public StoreFileReader getReader() {
    return first.getReader();
  }

  @Override
  public StoreFileScanner getPreadScanner(boolean cacheBlocks, long readPt, long scannerOrder,
    boolean canOptimizeForNonNullColumn) {
    return scanner(true, cacheBlocks, false, readPt, scannerOrder);
  }

  @Override
  public StoreFileScanner getStreamScanner(boolean canUseDropBehind, boolean cacheBlocks,
    boolean isCompaction, long readPt, long scannerOrder, boolean canOptimizeForNonNullColumn) {
    return scanner(false, cacheBlocks, isCompaction, readPt, scannerOrder);
  }

  private StoreFileScanner scanner(boolean pread, boolean cacheBlocks, boolean isCompaction,
    long readPt, long scannerOrder) {
    return new RlsmChainScanner(this, scannerOrder, (p, use) -> {
      RlsmStoreFileManager.Reading r = p.reading();
      List<StoreFileScanner> out = new ArrayList<>(r.segments.size());
      try {
        for (int i = 0; i < r.segments.size(); i++) {
          HStoreFile seg = r.segments.get(i);
          if (use.test(seg)) {
            // no ranges: the chain scanner keeps the merged segments inside the partition
            out.add(RlsmSegmentView.scanner(seg, null, pread, cacheBlocks, isCompaction, readPt,
              i));
          }
        }
      } catch (IOException | RuntimeException e) {
        out.forEach(StoreFileScanner::close);
        throw e;
      }
      return out;
    });
  }

  /** The chain never owns a reader; each segment's file closes its own. */
  @Override
  public synchronized void closeStoreFile(boolean evictOnClose) {
  }

  @Override
  public long getMaxSequenceId() {
    return maxSequenceId;
  }

  @Override
  public long getMaxMemStoreTS() {
    return maxMemStoreTs;
  }

  @Override
  public Optional<Cell> getFirstKey() {
    return first.getFirstKey();
  }

  @Override
  public Optional<Cell> getLastKey() {
    return first.getLastKey();
  }

  @Override
  public CellComparator getComparator() {
    return first.getComparator();
  }

  @Override
  public OptionalLong getBulkLoadTimestamp() {
    return OptionalLong.empty();
  }

  @Override
  public boolean isBulkLoadResult() {
    return false;
  }

  @Override
  public boolean isCompactedAway() {
    return first.isCompactedAway();
  }

  @Override
  public String toString() {
    return "chain of " + partitions.size() + " partitions from " + first;
  }

  @Override
  public String toStringDetailed() {
    return toString();
  }
}
