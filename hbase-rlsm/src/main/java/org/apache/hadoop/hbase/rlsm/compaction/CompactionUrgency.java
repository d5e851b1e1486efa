package org.apache.hadoop.hbase.rlsm.compaction;

import org.apache.hadoop.hbase.regionserver.Store;

/**
 * How urgently a store needs compaction, on HBase's two scales (docs/architecture.md,
 * "Compaction scheduling"), from its Level-0 depth and its deepest Level-1 partition.
 * <ul>
 * <li><b>Priority</b> ({@code Store.getCompactPriority}; lower is more urgent) orders HBase's
 * compaction queue, and HBase re-enqueues a store after each finished compaction only while its
 * priority is at most 0. So the priority is at most 0 exactly while the planner has work, lower
 * the deeper Level-0 lies beyond the trigger and the further the deepest partition lies beyond
 * the segment bound; with no work it is HBase's own {@code blockingStoreFiles - files} over
 * Level-0, always above {@code Store.PRIORITY_USER}, which is reserved for user requests.</li>
 * <li><b>Pressure</b> ({@code Store.getCompactionPressure}; 0 idle, 1 at the blocking count,
 * above 1 the throughput controller stops throttling) is HBase's
 * {@code (files - minFiles) / (blocking - minFiles)} over Level-0, with the trigger as
 * {@code minFiles}; a partition beyond the segment bound (a bound lowered by configuration, or
 * a layout written before it held) is as urgent as a blocked store: above 1, by its excess.</li>
 * </ul>
 * Pure functions of counts; the store file manager supplies the counts.
 */
public final class CompactionUrgency {
  /**
   * Priority of a store holding split or merge references: ahead of every other compaction.
   * Until it rewrote them the region can neither split nor merge again, and its parent's files
   * cannot be archived. Above {@code Store.NO_PRIORITY}, which HBase reads as "ask the store".
   */
  public static final int REFERENCES = Integer.MIN_VALUE + 1;

  private final int trigger;
  private final int maxSegments;
  private final int blockingFiles;

  public CompactionUrgency(RlsmCompactionConfig config, int blockingFiles) {
    this.trigger = config.l0Trigger;
    this.maxSegments = config.maxSegments;
    this.blockingFiles = blockingFiles;
  }

  /**
   * @param level0   Level-0 files
   * @param deepest  segments of the deepest partition
   * @param work     whether the planner has a compaction to run
   */
  public int priority(int level0, int deepest, boolean work) {
    if (work) {
      return Math.min(0, trigger - 1 - level0 - beyondBound(deepest));
    }
    return Math.max(Store.PRIORITY_USER + 1, blockingFiles - level0);
  }

  public double pressure(int level0, int deepest) {
    double l0 = level0 <= trigger ? 0
      : (double) (level0 - trigger) / Math.max(1, blockingFiles - trigger);
    double segments = deepest <= maxSegments ? 0 : 1 + (double) beyondBound(deepest) / maxSegments;
    return Math.max(l0, segments);
  }

  private int beyondBound(int deepest) {
    return Math.max(0, deepest - maxSegments);
  }
}
