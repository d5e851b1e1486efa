package org.apache.hadoop.hbase.regionserver;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.apache.hbase.thirdparty.com.google.common.collect.ImmutableCollection;
import org.apache.hbase.thirdparty.com.google.common.collect.ImmutableList;
import org.apache.hbase.thirdparty.com.google.common.collect.Iterables;

/**
 * The set of files of one RLSM store. State is an immutable snapshot replaced as a whole under
 * the store's write lock (as HBase's own managers do), so readers never see a half-applied flush
 * or compaction. Level-0 holds flushed files (and any bulk-loaded HFiles), ordered by sequence id.
 */
@InterfaceAudience.Private
public class RlsmStoreFileManager implements StoreFileManager {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmStoreFileManager.class);
  private static final Comparator<HStoreFile> ORDER = StoreFileComparators.SEQ_ID;

  private final int blockingFileCount;
  private volatile ImmutableList<HStoreFile> level0 = ImmutableList.of();
  private volatile ImmutableList<HStoreFile> compactedFiles = ImmutableList.of();

  public RlsmStoreFileManager(int blockingFileCount) {
    this.blockingFileCount = blockingFileCount;
  }

  @Override
  public void loadFiles(List<HStoreFile> storeFiles) {
    level0 = ImmutableList.sortedCopyOf(ORDER, storeFiles);
  }

  @Override
  public void insertNewFiles(Collection<HStoreFile> sfs) {
    level0 = ImmutableList.sortedCopyOf(ORDER, Iterables.concat(level0, sfs));
  }

  @Override
  public void addCompactionResults(Collection<HStoreFile> compacted,
    Collection<HStoreFile> results) {
    level0 = ImmutableList.sortedCopyOf(ORDER,
      Iterables.concat(Iterables.filter(level0, sf -> !compacted.contains(sf)), results));
    compacted.forEach(HStoreFile::markCompactedAway);
    compactedFiles = ImmutableList.sortedCopyOf(ORDER, Iterables.concat(compactedFiles, compacted));
  }

  @Override
  public void removeCompactedFiles(Collection<HStoreFile> removed) {
    compactedFiles = ImmutableList.sortedCopyOf(ORDER,
      Iterables.filter(compactedFiles, sf -> !removed.contains(sf)));
  }

  @Override
  public ImmutableCollection<HStoreFile> clearFiles() {
    ImmutableList<HStoreFile> result = level0;
    level0 = ImmutableList.of();
    return result;
  }

  @Override
  public Collection<HStoreFile> clearCompactedFiles() {
    ImmutableList<HStoreFile> result = compactedFiles;
    compactedFiles = ImmutableList.of();
    return result;
  }

  @Override
  public Collection<HStoreFile> getStoreFiles() {
    return level0;
  }

  @Override
  public Collection<HStoreFile> getCompactedfiles() {
    return compactedFiles;
  }

  @Override
  public int getStorefileCount() {
    return level0.size();
  }

  @Override
  public int getCompactedFilesCount() {
    return compactedFiles.size();
  }

  /** Level-0 files may hold any row; each file scanner prunes itself by key range and Bloom. */
  @Override
  public Collection<HStoreFile> getFilesForScan(byte[] startRow, boolean includeStartRow,
    byte[] stopRow, boolean includeStopRow, boolean onlyLatestVersion) {
    return level0;
  }

  @Override
  public Iterator<HStoreFile> getCandidateFilesForRowKeyBefore(KeyValue targetKey) {
    return level0.reverse().iterator();
  }

  @Override
  public Iterator<HStoreFile> updateCandidateFilesForRowKeyBefore(
    Iterator<HStoreFile> candidateFiles, KeyValue targetKey, Cell candidate) {
    return candidateFiles;
  }

  /** RLSM regions do not split (the table helper disables it); never propose a split point. */
  @Override
  public Optional<byte[]> getSplitPoint() {
    return Optional.empty();
  }

  @Override
  public int getStoreCompactionPriority() {
    int priority = blockingFileCount - level0.size();
    return priority == HStore.PRIORITY_USER ? priority + 1 : priority;
  }

  /** Whole Level-0 files whose newest cell expired by TTL; never the newest file. */
  @Override
  public Collection<HStoreFile> getUnneededFiles(long maxTs, List<HStoreFile> filesCompacting) {
    List<HStoreFile> out = new ArrayList<>();
    ImmutableList<HStoreFile> files = level0;
    for (int i = 0; i < files.size() - 1; i++) {
      HStoreFile sf = files.get(i);
      if (sf.getReader().getMaxTimestamp() < maxTs && !filesCompacting.contains(sf)) {
        LOG.info("Found an expired store file {} whose maxTimestamp is {}, which is below {}",
          sf.getPath(), sf.getReader().getMaxTimestamp(), maxTs);
        out.add(sf);
      }
    }
    return out;
  }

  @Override
  public double getCompactionPressure() {
    return 0.0;
  }

  @Override
  public Comparator<HStoreFile> getStoreFileComparator() {
    return ORDER;
  }
}
