package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.HDFSBlocksDistribution;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A Level-1 segment as one read sees it: the same file (same {@link StoreFileInfo}, hence the
 * same reference count that keeps it from being archived while read), restricted to the row
 * ranges of the partitions that list it in the store state the read started from. Handing HBase
 * these views from {@code getFilesForScan} keeps superseded copies in shared segments invisible
 * and makes the restriction consistent with the file set the read chose under the store lock.
 * Everything but the scanners is the viewed file's; a v1 file scans through its own ranged
 * scanner, a v2 file through HBase's scanner wrapped in {@link RlsmRangeScanner}.
 */
@InterfaceAudience.Private
final class RlsmSegmentView extends HStoreFile {
  private final HStoreFile file;
  private final List<byte[][]> ranges;

  RlsmSegmentView(HStoreFile file, List<byte[][]> ranges) {
    super(file.getFileInfo(), BloomType.NONE, file.getCacheConf());
    this.file = file;
    this.ranges = ranges;
  }

  /** A scanner over {@code file}'s rows inside {@code ranges}, for reads and compactions. */
  static StoreFileScanner scanner(HStoreFile file, List<byte[][]> ranges, boolean pread,
    boolean cacheBlocks, boolean isCompaction, long readPt, long scannerOrder) throws IOException {
    file.initReader();
    if (file instanceof RlsmStoreFile) {
      return ((RlsmStoreFile) file).getScanner(!isCompaction, readPt, scannerOrder, ranges);
    }
    StoreFileScanner s = pread
      ? file.getPreadScanner(cacheBlocks, readPt, scannerOrder, false)
      : file.getStreamScanner(false, cacheBlocks, isCompaction, readPt, scannerOrder, false);
    return ranges == null ? s : new RlsmRangeScanner(s, ranges, scannerOrder);
  }

  @Override
  public void initReader() throws IOException {
    file.initReader();
  }

  @Override
  public StoreFileReader getReader() {
    return file.getReader();
  }

  @Override
  public StoreFileScanner getPreadScanner(boolean cacheBlocks, long readPt, long scannerOrder,
    boolean canOptimizeForNonNullColumn) {
    try {
      return scanner(file, ranges, true, cacheBlocks, false, readPt, scannerOrder);
    } catch (IOException e) {
      // the reader is open (HBase calls initReader first), so nothing here does I/O
      throw new IllegalStateException(e);
    }
  }

  @Override
  public StoreFileScanner getStreamScanner(boolean canUseDropBehind, boolean cacheBlocks,
    boolean isCompaction, long readPt, long scannerOrder, boolean canOptimizeForNonNullColumn)
    throws IOException {
    return scanner(file, ranges, false, cacheBlocks, isCompaction, readPt, scannerOrder);
  }

  /** The view never owns the reader; the file it shows closes it. */
  @Override
  public synchronized void closeStoreFile(boolean evictOnClose) {
  }

  @Override
  public long getMaxSequenceId() {
    return file.getMaxSequenceId();
  }

  @Override
  public long getMaxMemStoreTS() {
    return file.getMaxMemStoreTS();
  }

  @Override
  public Optional<Cell> getFirstKey() {
    return file.getFirstKey();
  }

  @Override
  public Optional<Cell> getLastKey() {
    return file.getLastKey();
  }

  @Override
  public CellComparator getComparator() {
    return file.getComparator();
  }

  @Override
  public boolean isMajorCompactionResult() {
    return file.isMajorCompactionResult();
  }

  @Override
  public boolean excludeFromMinorCompaction() {
    return file.excludeFromMinorCompaction();
  }

  @Override
  public byte[] getMetadataValue(byte[] key) {
    return file.getMetadataValue(key);
  }

  @Override
  public boolean isBulkLoadResult() {
    return file.isBulkLoadResult();
  }

  @Override
  public OptionalLong getBulkLoadTimestamp() {
    return file.getBulkLoadTimestamp();
  }

  @Override
  public boolean isHistorical() {
    return file.isHistorical();
  }

  @Override
  public boolean isCompactedAway() {
    return file.isCompactedAway();
  }

  @Override
  public HDFSBlocksDistribution getHDFSBlockDistribution() {
    return file.getHDFSBlockDistribution();
  }

  @Override
  Set<String> getCompactedStoreFiles() {
    return file.getCompactedStoreFiles();
  }

  @Override
  public String toString() {
    return file + " (view of " + ranges.size() + " ranges)";
  }

  @Override
  public String toStringDetailed() {
    return file.toStringDetailed() + " (view of " + ranges.size() + " ranges)";
  }
}
