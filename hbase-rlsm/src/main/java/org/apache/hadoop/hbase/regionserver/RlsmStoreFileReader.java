package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.format.FileMeta;
import org.apache.hadoop.hbase.rlsm.format.Trailer;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Presents an {@link RlsmFileReader} (a format-v1 file) as HBase's {@link StoreFileReader}.
 * HBase's reader wraps an HFile reader; this facade has none and overrides every method that
 * would reach it. Reference counting goes to the {@link StoreFileInfo}, as for HFiles, so
 * compacted files are archived only after their last scanner closed.
 *
 * <p>{@code getHFileReader()} is null here (format v2 files are HFiles, opened by HBase's own
 * reader, so only v1 files meet this). Every caller in HBase 2.6.1's hbase-server was checked:
 * {@code HRegion.getOldestHfileTs} skips a null reader; {@code StoreFileScanner.getFilePath} is
 * overridden by {@link RlsmStoreFileScanner}; {@code HStoreFile.open} (file-info, Bloom filter)
 * is replaced by {@link RlsmStoreFile#initReader}; {@code Compactor.getFileDetails} runs only in
 * HBase's own compactors, which an RLSM store never runs ({@link RlsmCompactionContext} compacts
 * through {@link RlsmCompactionRunner}; the engine's {@code DefaultCompactor} only reports
 * progress), and HBase's default engine is never handed a v1 file (docs/install.md, "Removing
 * RLSM"); {@code LoadIncrementalHFiles} reads bulk-load inputs, never store files. Code outside
 * hbase-server that asks a store file for its HFile reader (tests, coprocessors) gets null for
 * v1 files until a compaction rewrites them into v2.
 */
@InterfaceAudience.Private
public class RlsmStoreFileReader extends StoreFileReader {
  private final StoreFileInfo info;
  private final RlsmFileReader file;
  private final CellComparator comparator;
  private final boolean primaryReplica;

  RlsmStoreFileReader(StoreFileInfo info, RlsmFileReader file, CellComparator comparator,
    boolean primaryReplica) {
    super();
    this.info = info;
    this.primaryReplica = primaryReplica;
    this.file = file;
    this.comparator = comparator;
    this.conf = info.getConf();
    this.bloomFilterType = BloomType.NONE; // the RLSM row filter is consulted by our scanner
    Trailer t = file.trailer();
    this.sequenceID = t.maxSequenceId();
    this.timeRange = t.rowCount() == 0 || t.minTimestamp() < 0
      ? null
      : new TimeRange(t.minTimestamp(), t.maxTimestamp());
  }

  public RlsmFileReader getRlsmFile() {
    return file;
  }

  @Override
  public StoreFileScanner getStoreFileScanner(boolean cacheBlocks, boolean pread,
    boolean isCompaction, long readPt, long scannerOrder, boolean canOptimizeForNonNullColumn) {
    return new RlsmStoreFileScanner(this, !isCompaction, readPt, scannerOrder, null);
  }

  @Override
  int getRefCount() {
    return info.getRefCount();
  }

  @Override
  void incrementRefCount() {
    info.increaseRefCount();
  }

  @Override
  void readCompleted() {
    info.decreaseRefCount();
  }

  @Override
  public boolean isPrimaryReplicaReader() {
    return primaryReplica;
  }

  @Override
  public CellComparator getComparator() {
    return comparator;
  }

  @Override
  public void close(boolean evictOnClose) throws IOException {
    file.close();
  }

  @Override
  public Map<byte[], byte[]> loadFileInfo() {
    return Collections.emptyMap();
  }

  @Override
  public Optional<Cell> getFirstKey() {
    byte[] r = file.firstRow();
    return r == null ? Optional.empty() : Optional.of(PrivateCellUtil.createFirstOnRow(r));
  }

  @Override
  public Optional<Cell> getLastKey() {
    byte[] r = file.lastRow();
    return r == null ? Optional.empty() : Optional.of(PrivateCellUtil.createLastOnRow(r));
  }

  @Override
  public Optional<byte[]> getLastRowKey() {
    return Optional.ofNullable(file.lastRow());
  }

  /**
   * Hash-ordered (format v1) files have no cheap middle key; a store holding one offers no split
   * point until a compaction rewrites it ({@link RlsmStoreFileManager#getSplitPoint}).
   */
  @Override
  public Optional<Cell> midKey() {
    return Optional.empty();
  }

  @Override
  public long length() {
    return file.length();
  }

  @Override
  public long getTotalUncompressedBytes() {
    return file.length();
  }

  @Override
  public long getEntries() {
    return file.trailer().cellCount();
  }

  @Override
  public long getFilterEntries() {
    return file.trailer().rowCount();
  }

  @Override
  public long getDeleteFamilyCnt() {
    return file.meta().getLong(FileMeta.DELETE_FAMILY_COUNT, 0);
  }

  @Override
  public long indexSize() {
    return file.trailer().index().length();
  }

  @Override
  long getUncompressedDataIndexSize() {
    return file.trailer().index().length();
  }

  @Override
  public long getTotalBloomSize() {
    return file.bloom() == null ? 0 : file.bloom().byteSize();
  }

  @Override
  public int getHFileVersion() {
    return 0;
  }

  @Override
  public int getHFileMinorVersion() {
    return 0;
  }

  @Override
  boolean passesBloomFilter(Scan scan, SortedSet<byte[]> columns) {
    byte[] row = scan.getStartRow();
    return !scan.isGetScan() || file.mightContain(row, 0, row.length);
  }

  @Override
  public boolean passesDeleteFamilyBloomFilter(byte[] row, int rowOffset, int rowLen) {
    return getDeleteFamilyCnt() > 0 && file.mightContain(row, rowOffset, rowLen);
  }

  @Override
  public boolean passesGeneralRowColBloomFilter(Cell cell) {
    return file.mightContain(cell.getRowArray(), cell.getRowOffset(), cell.getRowLength());
  }

  @Override
  public String toString() {
    return "RlsmStoreFileReader[" + file.getPath() + " " + file.trailer() + "]";
  }
}
