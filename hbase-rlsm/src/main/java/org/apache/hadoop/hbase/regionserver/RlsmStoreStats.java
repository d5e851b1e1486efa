package org.apache.hadoop.hbase.regionserver;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.ObjLongConsumer;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Byte and time counters of one RLSM store, by source, so write amplification can be broken
 * down (flush, append, index/manifest, split, merge, clean-up, major, leave). Published through
 * HBase's metrics system by {@link RlsmMetricsSource} while the store is open. Counters are
 * {@link LongAdder}s and the layout fields volatile: written by flushes and compactions, read by
 * the metrics system without locks.
 */
@InterfaceAudience.Private
public class RlsmStoreStats {

  private final LongAdder flushBytes = new LongAdder();
  private final LongAdder[] writtenByKind = new LongAdder[CompactionPlan.Kind.values().length];
  private final LongAdder manifestBytes = new LongAdder();
  private final LongAdder compactionReadBytes = new LongAdder();
  private final LongAdder foldedBytes = new LongAdder();
  private final LongAdder compactions = new LongAdder();
  private final LongAdder linkedFiles = new LongAdder();
  private final LongAdder compactionMillis = new LongAdder();
  private volatile int partitions;
  private volatile int segments;
  private volatile int deepestPartition;
  private final LongAdder freedBytes = new LongAdder();
  /** Metric name prefixes while published (set before, cleared after, the source lists it). */
  private volatile String tablePrefix;
  private volatile String storePrefix;

  RlsmStoreStats() {
    for (int i = 0; i < writtenByKind.length; i++) {
      writtenByKind[i] = new LongAdder();
    }
  }

  /** Publishes the counters of store {@code store} (docs/operations.md "Metrics"). */
  void register(HStore store) {
    tablePrefix = RlsmMetricsSource.tablePrefix(store.getTableName());
    storePrefix = RlsmMetricsSource.storePrefix(store);
    RlsmMetricsSource.get().add(this);
  }

  /** Withdraws the counters (the store is closing); idempotent. */
  void unregister() {
    RlsmMetricsSource.get().remove(this);
  }

  String tablePrefix() {
    return tablePrefix;
  }

  String storePrefix() {
    return storePrefix;
  }

  /** Every counter as (metric name, value), the names {@link RlsmMetricsSource} publishes. */
  void snapshot(ObjLongConsumer<String> out) {
    out.accept("rlsmFlushBytes", getFlushBytes());
    out.accept("rlsmAppendBytes", getAppendBytes());
    out.accept("rlsmManifestBytes", getManifestBytes());
    out.accept("rlsmSplitBytes", getSplitBytes());
    out.accept("rlsmMergeBytes", getMergeBytes());
    out.accept("rlsmCleanupBytes", getCleanupBytes());
    out.accept("rlsmMajorBytes", getMajorBytes());
    out.accept("rlsmLeaveBytes", getLeaveBytes());
    out.accept("rlsmCompactionReadBytes", getCompactionReadBytes());
    out.accept("rlsmFoldedBytes", getFoldedBytes());
    out.accept("rlsmCompactions", getCompactions());
    out.accept("rlsmLinkedFiles", getLinkedFiles());
    out.accept("rlsmCompactionMillis", getCompactionMillis());
    out.accept("rlsmPartitions", partitions);
    out.accept("rlsmSegments", segments);
    out.accept("rlsmDeepestPartition", deepestPartition);
    out.accept("rlsmFreedBytes", getFreedBytes());
  }

  void flushed(long bytes) {
    flushBytes.add(bytes);
  }

  /**
   * @param readBytes bytes the compaction read from the file system ({@link FileSystemReads}:
   *               a shared segment's range only, BlockCache hits not at all)
   * @param freed  bytes of the data files the compaction retired minus the bytes it wrote, when
   *               positive: the disk space purging superseded versions, expired and deleted cells
   *               and delete markers released, plus the per-file overhead of the files merged
   * @param folded bytes of the Level-1 segments a range-append read to rewrite them with the
   *               appended rows (the segment bound's folds); 0 for every other kind
   */
  void compacted(CompactionPlan.Kind kind, long dataBytes, long manifest, long readBytes,
    long freed, long folded, int linked, long millis) {
    writtenByKind[kind.ordinal()].add(dataBytes);
    foldedBytes.add(folded);
    freedBytes.add(freed);
    manifestBytes.add(manifest);
    compactionReadBytes.add(readBytes);
    linkedFiles.add(linked);
    compactions.increment();
    compactionMillis.add(millis);
  }

  void layout(int partitions, int segments, int deepestPartition) {
    this.partitions = partitions;
    this.segments = segments;
    this.deepestPartition = deepestPartition;
  }

  private long written(CompactionPlan.Kind k) {
    return writtenByKind[k.ordinal()].sum();
  }

  public long getFlushBytes() {
    return flushBytes.sum();
  }

  public long getAppendBytes() {
    return written(CompactionPlan.Kind.APPEND);
  }

  public long getManifestBytes() {
    return manifestBytes.sum();
  }

  public long getSplitBytes() {
    return written(CompactionPlan.Kind.SPLIT);
  }

  public long getMergeBytes() {
    return written(CompactionPlan.Kind.MERGE);
  }

  public long getCleanupBytes() {
    return written(CompactionPlan.Kind.CLEANUP);
  }

  public long getMajorBytes() {
    return written(CompactionPlan.Kind.MAJOR);
  }

  /** Bytes of the plain HFiles written while the family was leaving RLSM. */
  public long getLeaveBytes() {
    return written(CompactionPlan.Kind.LEAVE);
  }

  /**
   * Bytes of Level-1 segments range-appends rewrote with their appended rows (folds under the
   * segment bound): the part of {@link #getAppendBytes()} that is not a first write of Level-0
   * data, counted at the input (whole files; a segment shared by index-split halves counts
   * whole in each).
   */
  public long getFoldedBytes() {
    return foldedBytes.sum();
  }

  /** Bytes compactions read from the file system (BlockCache hits excluded). */
  public long getCompactionReadBytes() {
    return compactionReadBytes.sum();
  }

  public long getCompactions() {
    return compactions.sum();
  }

  public long getLinkedFiles() {
    return linkedFiles.sum();
  }

  public long getCompactionMillis() {
    return compactionMillis.sum();
  }

  public int getPartitions() {
    return partitions;
  }

  public int getSegments() {
    return segments;
  }

  /** Bytes of data files compactions retired minus bytes they wrote (purged data), summed. */
  public long getFreedBytes() {
    return freedBytes.sum();
  }

  /** Segments of the deepest Level-1 partition (bounded by the planner). */
  public int getDeepestPartition() {
    return deepestPartition;
  }

  @Override
  public String toString() {
    return String.format("flush=%d append=%d manifest=%d split=%d merge=%d cleanup=%d major=%d "
      + "leave=%d read=%d folded=%d freed=%d compactions=%d linked=%d partitions=%d segments=%d "
      + "deepest=%d",
      getFlushBytes(), getAppendBytes(), getManifestBytes(), getSplitBytes(), getMergeBytes(),
      getCleanupBytes(), getMajorBytes(), getLeaveBytes(), getCompactionReadBytes(),
      getFoldedBytes(), getFreedBytes(), getCompactions(), getLinkedFiles(), partitions, segments,
      deepestPartition);
  }
}
