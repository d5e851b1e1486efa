package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.rlsm.cachehint.CacheHints;
import org.apache.hadoop.hbase.rlsm.cachehint.FileKind;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.format.FileMeta;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.PartitionDescriptor;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * An RLSM file presented to HBase as an {@link HStoreFile}, so HBase's flush commit, scanner
 * notification, compaction bookkeeping, archiving and region open work unchanged. Everything the
 * parent would read from HFile metadata comes from the RLSM trailer and meta section instead.
 */
@InterfaceAudience.Private
public class RlsmStoreFile extends HStoreFile {
  private final CellComparator comparator;
  private final boolean primaryReplica;
  private volatile RlsmStoreFileReader reader;
  private volatile Set<String> compactedStoreFiles = Collections.emptySet();
  private volatile FileRole role;
  private volatile long maxSequenceId = -1;
  private volatile long maxMemstoreTs = -1;
  private volatile Optional<Cell> firstKey = Optional.empty();
  private volatile Optional<Cell> lastKey = Optional.empty();
  private volatile List<PartitionDescriptor> partitions = Collections.emptyList();
  private volatile long generation = -1;

  public RlsmStoreFile(StoreFileInfo info, CacheConfig cacheConf, CellComparator comparator,
    boolean primaryReplica) {
    super(info, BloomType.NONE, cacheConf);
    this.comparator = comparator;
    this.primaryReplica = primaryReplica;
  }

  @Override
  public void initReader() throws IOException {
    if (reader != null) {
      return;
    }
    synchronized (this) {
      if (reader != null) {
        return;
      }
      StoreFileInfo info = getFileInfo();
      // HRegion.getHDFSBlocksDistribution() reads this for every store file.
      info.initHDFSBlocksDistribution();
      RlsmFileReader file = RlsmFileReader.open(info.getFileSystem(), info.getPath());
      try {
        // hints are not persisted: a file opened after a restart is told its kind again
        FileRole r = file.trailer().role();
        CacheHints.hintFile(info.getFileSystem(), info.getPath(), FileKind.of(r), r.level());
        String name = file.getPath().toString();
        compactedStoreFiles =
          Collections.unmodifiableSet(new HashSet<>(file.meta().getStringList(name,
            FileMeta.COMPACTED_FILES)));
        if (file.trailer().role() == FileRole.MANIFEST) {
          byte[] v = file.meta().get(FileMeta.MANIFEST_PARTITIONS);
          if (v == null) {
            throw new RlsmCorruptionException(name, file.trailer().meta().offset(),
              "manifest lacks " + FileMeta.MANIFEST_PARTITIONS);
          }
          partitions = PartitionDescriptor.decodeList(name, file.trailer().meta().offset(), v);
          generation = file.meta().getLong(FileMeta.MANIFEST_GENERATION, -1);
        }
      } catch (IOException e) {
        file.close();
        throw e;
      }
      role = file.trailer().role();
      maxSequenceId = file.trailer().maxSequenceId();
      maxMemstoreTs = file.trailer().maxMemstoreTs();
      RlsmStoreFileReader r = new RlsmStoreFileReader(info, file, comparator, primaryReplica);
      firstKey = r.getFirstKey();
      lastKey = r.getLastKey();
      reader = r;
    }
  }

  @Override
  public RlsmStoreFileReader getReader() {
    return reader;
  }

  boolean isPrimaryReplica() {
    return primaryReplica;
  }

  /** Manifest only: the Level-1 partitions it records (empty for other roles). */
  public List<PartitionDescriptor> getPartitions() {
    return partitions;
  }

  /** Manifest only: its generation; -1 for other roles. */
  public long getGeneration() {
    return generation;
  }

  /**
   * A scanner over this file's rows inside {@code ranges} (null: all rows), for reads through
   * a {@link RlsmStoreFileView} and for compaction inputs.
   */
  RlsmStoreFileScanner getScanner(boolean enforceMvcc, long readPt, long scannerOrder,
    List<byte[][]> ranges) {
    return new RlsmStoreFileScanner(reader, enforceMvcc, readPt, scannerOrder, ranges);
  }

  /** The role and level of this file in the RLSM tree; null before {@link #initReader()}. */
  public FileRole getRole() {
    return role;
  }

  @Override
  public StoreFileScanner getPreadScanner(boolean cacheBlocks, long readPt, long scannerOrder,
    boolean canOptimizeForNonNullColumn) {
    return reader.getStoreFileScanner(cacheBlocks, true, false, readPt, scannerOrder,
      canOptimizeForNonNullColumn);
  }

  /**
   * Stream and pread scanners share the one reader: RLSM reads whole records with positional
   * reads, so a second stream would only add a file handle.
   */
  @Override
  public StoreFileScanner getStreamScanner(boolean canUseDropBehind, boolean cacheBlocks,
    boolean isCompaction, long readPt, long scannerOrder, boolean canOptimizeForNonNullColumn)
    throws IOException {
    initReader();
    return reader.getStoreFileScanner(cacheBlocks, false, isCompaction, readPt, scannerOrder,
      canOptimizeForNonNullColumn);
  }

  @Override
  public synchronized void closeStoreFile(boolean evictOnClose) throws IOException {
    RlsmStoreFileReader r = reader;
    reader = null;
    if (r != null) {
      r.close(evictOnClose);
    }
  }

  @Override
  public long getMaxSequenceId() {
    return maxSequenceId;
  }

  @Override
  public long getMaxMemStoreTS() {
    return maxMemstoreTs;
  }

  @Override
  public Optional<Cell> getFirstKey() {
    return firstKey;
  }

  @Override
  public Optional<Cell> getLastKey() {
    return lastKey;
  }

  @Override
  public CellComparator getComparator() {
    return comparator;
  }

  @Override
  public boolean isMajorCompactionResult() {
    return false;
  }

  @Override
  public boolean excludeFromMinorCompaction() {
    return false;
  }

  @Override
  public byte[] getMetadataValue(byte[] key) {
    return null;
  }

  @Override
  public boolean isBulkLoadResult() {
    return false;
  }

  @Override
  public OptionalLong getBulkLoadTimestamp() {
    return OptionalLong.empty();
  }

  @Override
  public boolean isHistorical() {
    return false;
  }

  @Override
  Set<String> getCompactedStoreFiles() {
    return compactedStoreFiles;
  }

  @Override
  public String toStringDetailed() {
    return getPath() + ", rlsm role=" + getRole() + ", seqid=" + getMaxSequenceId();
  }
}
