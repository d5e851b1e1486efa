package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A Level-1 segment as one read sees it: the same file (same {@link StoreFileInfo}, hence
 * the same reference count that keeps it from being archived while read), restricted to the row
 * ranges of the partitions that list it in the store state the read started from. Handing HBase
 * these views from {@code getFilesForScan} keeps superseded copies in shared segments invisible
 * and makes the restriction consistent with the file set the read chose under the store lock.
 * Everything but the scanners is the viewed file's.
 */
@InterfaceAudience.Private
final class RlsmStoreFileView extends RlsmStoreFile {
  private final RlsmStoreFile file;
  private final List<byte[][]> ranges;

  RlsmStoreFileView(RlsmStoreFile file, List<byte[][]> ranges) {
    super(file.getFileInfo(), file.getCacheConf(), file.getComparator(), file.isPrimaryReplica());
    this.file = file;
    this.ranges = ranges;
  }

  @Override
  public void initReader() throws IOException {
    file.initReader();
  }

  @Override
  public RlsmStoreFileReader getReader() {
    return file.getReader();
  }

  @Override
  public StoreFileScanner getPreadScanner(boolean cacheBlocks, long readPt, long scannerOrder,
    boolean canOptimizeForNonNullColumn) {
    return file.getScanner(true, readPt, scannerOrder, ranges);
  }

  @Override
  public StoreFileScanner getStreamScanner(boolean canUseDropBehind, boolean cacheBlocks,
    boolean isCompaction, long readPt, long scannerOrder, boolean canOptimizeForNonNullColumn)
    throws IOException {
    file.initReader();
    return file.getScanner(!isCompaction, readPt, scannerOrder, ranges);
  }

  /** The view never owns the reader; the file it shows closes it. */
  @Override
  public synchronized void closeStoreFile(boolean evictOnClose) {
  }

  @Override
  public FileRole getRole() {
    return file.getRole();
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
  public String toString() {
    return file + " (view of " + ranges.size() + " ranges)";
  }
}
