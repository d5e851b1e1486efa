package org.apache.hadoop.hbase.rlsm.compaction;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * Compaction keys of the RLSM engine (listed with defaults in docs/configuration.md). Read from
 * the store's configuration, so each can be set per table or column family.
 */
public final class CompactionConfig {
  /** Contract key: compact when this many Level-0 files exist (the paper's threshold). */
  public static final String L0_TRIGGER_KEY = "hbase.rlsm.compaction.l0.trigger";
  public static final int DEFAULT_L0_TRIGGER = 3;
  /** Most Level-0 files one range-append takes (union-set victims first, then densest). */
  public static final String MAX_VICTIMS_KEY = "hbase.rlsm.compaction.max.victims";
  public static final int DEFAULT_MAX_VICTIMS = 16;
  /** Rows that must fall in one gap between partitions to start a new partition there. */
  public static final String NEW_PARTITION_MIN_ROWS_KEY =
    "hbase.rlsm.compaction.new.partition.min.rows";
  public static final int DEFAULT_NEW_PARTITION_MIN_ROWS = 2;
  /** Contract key: split a partition holding more bytes than this (the paper's 120 MB). */
  public static final String SPLIT_BYTES_KEY = "hbase.rlsm.partition.split.bytes";
  public static final long DEFAULT_SPLIT_BYTES = 120L * 1024 * 1024;
  /**
   * Whether split, merge and clean-up rewrites drop delete markers when no Level-0 file overlaps
   * the rewritten range (all data of the range is then in the inputs). False keeps markers until a
   * major compaction, as HBase's default engine does; the two differ only for a put whose
   * timestamp is older than an earlier delete (HBase book, "Deletes mask Puts").
   */
  public static final String REWRITE_DROP_DELETES_KEY =
    "hbase.rlsm.compaction.rewrite.drop.deletes";
  public static final boolean DEFAULT_REWRITE_DROP_DELETES = true;
  /** {@code index} (new heads share the segments) or {@code rewrite} (the paper: two new files). */
  public static final String SPLIT_MODE_KEY = "hbase.rlsm.partition.split.mode";
  public static final SplitMode DEFAULT_SPLIT_MODE = SplitMode.INDEX;
  /** Neighbours both smaller than this are merged; default split bytes / 16. */
  public static final String MERGE_BYTES_KEY = "hbase.rlsm.partition.merge.bytes";
  /** Chain clean-up: rewrite a partition that has more member files than this. */
  public static final String MAX_SEGMENTS_KEY = "hbase.rlsm.partition.max.segments";
  public static final int DEFAULT_MAX_SEGMENTS = 32;
  /** Chain clean-up: rewrite a partition whose superseded share of row entries exceeds this. */
  public static final String MAX_DEAD_FRACTION_KEY = "hbase.rlsm.partition.max.dead.fraction";
  public static final double DEFAULT_MAX_DEAD_FRACTION = 0.5;

  /** How an oversized partition is divided. */
  public enum SplitMode {
    INDEX, REWRITE
  }

  final int l0Trigger;
  final int maxVictims;
  final int newPartitionMinRows;
  final long splitBytes;
  final SplitMode splitMode;
  final long mergeBytes;
  final int maxSegments;
  final double maxDeadFraction;
  final boolean rewriteDropDeletes;

  public CompactionConfig(Configuration conf) {
    this(conf.getInt(L0_TRIGGER_KEY, DEFAULT_L0_TRIGGER),
      conf.getInt(MAX_VICTIMS_KEY, DEFAULT_MAX_VICTIMS),
      conf.getInt(NEW_PARTITION_MIN_ROWS_KEY, DEFAULT_NEW_PARTITION_MIN_ROWS),
      conf.getLong(SPLIT_BYTES_KEY, DEFAULT_SPLIT_BYTES),
      SplitMode.valueOf(conf.get(SPLIT_MODE_KEY, DEFAULT_SPLIT_MODE.name()).trim()
        .toUpperCase(Locale.ROOT)),
      conf.getLong(MERGE_BYTES_KEY, conf.getLong(SPLIT_BYTES_KEY, DEFAULT_SPLIT_BYTES) / 16),
      conf.getInt(MAX_SEGMENTS_KEY, DEFAULT_MAX_SEGMENTS),
      conf.getDouble(MAX_DEAD_FRACTION_KEY, DEFAULT_MAX_DEAD_FRACTION),
      conf.getBoolean(REWRITE_DROP_DELETES_KEY, DEFAULT_REWRITE_DROP_DELETES));
  }

  public CompactionConfig(int l0Trigger, int maxVictims, int newPartitionMinRows, long splitBytes,
    SplitMode splitMode, long mergeBytes, int maxSegments, double maxDeadFraction,
    boolean rewriteDropDeletes) {
    check(l0Trigger >= 2, L0_TRIGGER_KEY + " must be at least 2 but was " + l0Trigger);
    check(maxVictims >= 1, MAX_VICTIMS_KEY + " must be at least 1 but was " + maxVictims);
    check(newPartitionMinRows >= 1, NEW_PARTITION_MIN_ROWS_KEY + " must be at least 1");
    check(splitBytes > 0, SPLIT_BYTES_KEY + " must be positive but was " + splitBytes);
    check(mergeBytes >= 0 && mergeBytes < splitBytes,
      MERGE_BYTES_KEY + " must be in [0, split bytes) but was " + mergeBytes);
    check(maxSegments >= 2, MAX_SEGMENTS_KEY + " must be at least 2 but was " + maxSegments);
    check(maxDeadFraction > 0 && maxDeadFraction <= 1,
      MAX_DEAD_FRACTION_KEY + " must be in (0, 1] but was " + maxDeadFraction);
    this.l0Trigger = l0Trigger;
    this.maxVictims = maxVictims;
    this.newPartitionMinRows = newPartitionMinRows;
    this.splitBytes = splitBytes;
    this.splitMode = splitMode;
    this.mergeBytes = mergeBytes;
    this.maxSegments = maxSegments;
    this.maxDeadFraction = maxDeadFraction;
    this.rewriteDropDeletes = rewriteDropDeletes;
  }

  private static void check(boolean ok, String msg) {
    if (!ok) {
      throw new IllegalArgumentException(msg);
    }
  }
}
