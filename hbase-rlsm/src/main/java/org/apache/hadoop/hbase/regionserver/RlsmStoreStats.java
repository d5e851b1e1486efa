package org.apache.hadoop.hbase.regionserver;

import java.util.concurrent.atomic.LongAdder;
import javax.management.ObjectName;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan;
import org.apache.hadoop.metrics2.util.MBeans;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Byte and time counters of one RLSM store, by source, so write amplification can be broken
 * down (flush, append, index/manifest, split, merge, clean-up, major). Exposed over JMX as
 * {@code Hadoop:service=hbase-rlsm,name=Store-<region>-<family>} while the store is open.
 */
@InterfaceAudience.Private
public class RlsmStoreStats implements RlsmStoreStatsMXBean {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmStoreStats.class);

  private final LongAdder flushBytes = new LongAdder();
  private final LongAdder[] writtenByKind = new LongAdder[CompactionPlan.Kind.values().length];
  private final LongAdder manifestBytes = new LongAdder();
  private final LongAdder compactionReadBytes = new LongAdder();
  private final LongAdder compactions = new LongAdder();
  private final LongAdder linkedFiles = new LongAdder();
  private final LongAdder compactionMillis = new LongAdder();
  private final LongAdder freedBytes = new LongAdder();
  private volatile int partitions;
  private volatile int segments;
  private volatile int deepestPartition;
  private volatile ObjectName mbean;

  RlsmStoreStats() {
    for (int i = 0; i < writtenByKind.length; i++) {
      writtenByKind[i] = new LongAdder();
    }
  }

  void register(String name) {
    try {
      mbean = MBeans.register("hbase-rlsm", name, this);
    } catch (RuntimeException e) {
      LOG.warn("Could not register JMX bean for {}", name, e);
    }
  }

  void unregister() {
    ObjectName n = mbean;
    mbean = null;
    if (n != null) {
      MBeans.unregister(n);
    }
  }

  void flushed(long bytes) {
    flushBytes.add(bytes);
  }

  /**
   * @param freed bytes of the data files the compaction retired minus the bytes it wrote, when
   *              positive: the disk space purging superseded versions, expired and deleted cells
   *              and delete markers released, plus the per-file overhead of the files merged
   */
  void compacted(CompactionPlan.Kind kind, long dataBytes, long manifest, long readBytes,
    long freed, int linked, long millis) {
    writtenByKind[kind.ordinal()].add(dataBytes);
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

  @Override
  public long getFlushBytes() {
    return flushBytes.sum();
  }

  @Override
  public long getAppendBytes() {
    return written(CompactionPlan.Kind.APPEND);
  }

  @Override
  public long getManifestBytes() {
    return manifestBytes.sum();
  }

  @Override
  public long getSplitBytes() {
    return written(CompactionPlan.Kind.SPLIT);
  }

  @Override
  public long getMergeBytes() {
    return written(CompactionPlan.Kind.MERGE);
  }

  @Override
  public long getCleanupBytes() {
    return written(CompactionPlan.Kind.CLEANUP);
  }

  @Override
  public long getMajorBytes() {
    return written(CompactionPlan.Kind.MAJOR);
  }

  @Override
  public long getCompactionReadBytes() {
    return compactionReadBytes.sum();
  }

  @Override
  public long getCompactions() {
    return compactions.sum();
  }

  @Override
  public long getLinkedFiles() {
    return linkedFiles.sum();
  }

  @Override
  public long getCompactionMillis() {
    return compactionMillis.sum();
  }

  @Override
  public long getFreedBytes() {
    return freedBytes.sum();
  }

  @Override
  public int getDeepestPartition() {
    return deepestPartition;
  }

  @Override
  public int getPartitions() {
    return partitions;
  }

  @Override
  public int getSegments() {
    return segments;
  }

  @Override
  public String toString() {
    return String.format("flush=%d append=%d manifest=%d split=%d merge=%d cleanup=%d major=%d "
      + "read=%d freed=%d compactions=%d linked=%d partitions=%d segments=%d deepest=%d",
      getFlushBytes(), getAppendBytes(), getManifestBytes(), getSplitBytes(), getMergeBytes(),
      getCleanupBytes(), getMajorBytes(), getCompactionReadBytes(), getFreedBytes(),
      getCompactions(), getLinkedFiles(), partitions, segments, deepestPartition);
  }
}
