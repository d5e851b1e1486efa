package org.apache.hadoop.hbase.rlsm.compaction;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * Compaction keys of the RLSM engine (listed with defaults in docs/configuration.md) and their
 * checked values. Read from the store's configuration, so each can be set per table or column
 * family; tests set values by name through {@link #builder()}. (HBase's own
 * {@code CompactionConfiguration} holds the default engine's keys; RLSM reads none of those.)
 */
public final class RlsmCompactionConfig {
  /** Contract key: compact when this many Level-0 files exist (the RLSM paper's threshold). */
  public static final String L0_TRIGGER_KEY = "hbase.rlsm.compaction.l0.trigger";
  public static final int DEFAULT_L0_TRIGGER = 3;
  /** Most Level-0 files one range-append takes (union-set victims first, then densest). */
  public static final String MAX_VICTIMS_KEY = "hbase.rlsm.compaction.max.victims";
  public static final int DEFAULT_MAX_VICTIMS = 16;
  /** Rows that must fall in one gap between partitions to start a new partition there. */
  public static final String NEW_PARTITION_MIN_ROWS_KEY =
    "hbase.rlsm.compaction.new.partition.min.rows";
  public static final int DEFAULT_NEW_PARTITION_MIN_ROWS = 2;
  /** Contract key: split a partition holding more bytes than this (the RLSM paper's 120 MB). */
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
  /** {@code index} (new heads share the segments) or {@code rewrite} (the RLSM paper's). */
  public static final String SPLIT_MODE_KEY = "hbase.rlsm.partition.split.mode";
  public static final SplitMode DEFAULT_SPLIT_MODE = SplitMode.INDEX;
  /**
   * Whether a split reads every row key of the partition for an exact median and exact halves'
   * statistics. False (the default) divides it at a boundary of its segments' row quantiles
   * (a meta block per segment, no data block read; {@link PartitionHalves}) when every segment
   * records them, and the halves' statistics are estimates.
   */
  public static final String SPLIT_READ_ROWS_KEY = "hbase.rlsm.partition.split.read.rows";
  public static final boolean DEFAULT_SPLIT_READ_ROWS = false;
  /**
   * Whether a range-append also divides, by index, the partitions it finds above the split size
   * (in {@code index} split mode). Under sustained ingest Level-0 is at the trigger after nearly
   * every append, so a split that waits for a compaction of its own rarely runs and partitions
   * grow far past the split size (seen at 16 GB). False (the default) keeps splits as
   * compactions of their own: at 4 GB, where they still kept up, dividing in appends loaded 11 %
   * slower with 45 % more files (docs/benchmarks.md, "16 GB").
   */
  public static final String SPLIT_IN_APPEND_KEY = "hbase.rlsm.partition.split.in.append";
  public static final boolean DEFAULT_SPLIT_IN_APPEND = false;
  /**
   * When Level-0 is at the trigger, a divisible partition above this many times the split size
   * splits before the range-append (one below it waits until Level-0 is under the trigger), so
   * that splits keep up with sustained ingest: a partition then stays under about this times the
   * split size plus one append's rows. 0 turns the rule off (splits wait behind every append, as
   * before it); otherwise at least 1. Ignored while appends divide partitions themselves
   * ({@link #SPLIT_IN_APPEND_KEY} in {@code index} mode).
   */
  public static final String OVERDUE_SPLIT_FACTOR_KEY = "hbase.rlsm.partition.overdue.split.factor";
  public static final double DEFAULT_OVERDUE_SPLIT_FACTOR = 2.0;
  /** Neighbours both smaller than this are merged; default split bytes / 16. */
  public static final String MERGE_BYTES_KEY = "hbase.rlsm.partition.merge.bytes";
  /** Chain clean-up: rewrite a partition that has more segments than this. */
  public static final String MAX_SEGMENTS_KEY = "hbase.rlsm.partition.max.segments";
  public static final int DEFAULT_MAX_SEGMENTS = 32;
  /**
   * The segment bound's fold takes in an older segment while it holds at most this times the
   * bytes the fold has taken in so far ({@link SegmentTiers}): 1 gives tiers of doubling sizes;
   * larger values rewrite big old segments sooner, smaller ones later.
   */
  public static final String TIER_RATIO_KEY = "hbase.rlsm.partition.tier.ratio";
  public static final double DEFAULT_TIER_RATIO = 1.0;
  /**
   * Whether a range-append also folds, before the segment bound, some of the partitions holding
   * at least half the bound in segments, deepest first: as many as spread the eligible ones over
   * the appends left before the deepest reaches the bound. Every append adds a segment to every
   * partition it reaches, so without it the partitions reach the bound together and one append
   * folds all of them (at 4 GB a 28 s client stall; with the spread 1.25 s, loading 1.42x as
   * fast for 6 % more bytes written, docs/benchmarks.md). An early fold keeps at most half the
   * partition's segments, then takes in older ones by size tiers. Partitions over segments
   * shared with a neighbour (after an index split: nearly all of them in a store that splits)
   * fold early too; a fold counts a rewritten shared segment's rows in the partition's range,
   * so the kept statistics stay exact.
   */
  public static final String FOLD_SPREAD_KEY = "hbase.rlsm.partition.fold.spread";
  public static final boolean DEFAULT_FOLD_SPREAD = true;
  /** Chain clean-up: rewrite a partition whose superseded share of row entries exceeds this. */
  public static final String MAX_DEAD_FRACTION_KEY = "hbase.rlsm.partition.max.dead.fraction";
  public static final double DEFAULT_MAX_DEAD_FRACTION = 0.5;
  /**
   * Most edits a store's manifest chain holds after its checkpoint (docs/format/rlsm-file.md,
   * "Manifest chain"): a compaction writes an edit (only the partitions it changed) while the
   * chain has fewer, else a checkpoint (the whole Level-1 layout), which retires the chain. It
   * bounds the manifests a region open replays; 0 makes every manifest a checkpoint.
   */
  public static final String CHECKPOINT_EDITS_KEY = "hbase.rlsm.manifest.checkpoint.edits";
  public static final int DEFAULT_CHECKPOINT_EDITS = 16;
  /**
   * A compaction writes a checkpoint once the chain's edits hold at least this times the bytes
   * of its checkpoint: a small layout, whose checkpoint costs about what an edit does, is
   * checkpointed often; a large one is rewritten once per that many bytes of edits.
   */
  public static final String CHECKPOINT_RATIO_KEY = "hbase.rlsm.manifest.checkpoint.ratio";
  public static final double DEFAULT_CHECKPOINT_RATIO = 1.0;
  /**
   * Contract key: the family is leaving RLSM (docs/install.md, "Removing RLSM"). Every compaction
   * then rewrites the whole store into one plain HFile (no Level-1, no manifest, no RLSM entries),
   * and Level-1 is never built again, so that once such a compaction has run the store can be
   * handed to HBase's default engine. {@code bin/rlsm-leave} sets it, and the master observer
   * refuses to remove the engine key from a family without it.
   */
  public static final String LEAVE_KEY = "hbase.rlsm.leave";
  public static final boolean DEFAULT_LEAVE = false;
  /**
   * Threads that close a compaction's segments while its scan goes on (once the scan has passed
   * a segment's partition); at most twice as many segments wait for them. 0 closes each on the
   * compaction thread. Read by the compaction runner, not the planner.
   */
  public static final String FINISH_THREADS_KEY = "hbase.rlsm.compaction.finish.threads";
  public static final int DEFAULT_FINISH_THREADS = 4;

  /** How an oversized partition is divided. */
  public enum SplitMode {
    INDEX, REWRITE
  }

  final int l0Trigger;
  final int maxVictims;
  final int newPartitionMinRows;
  final long splitBytes;
  final SplitMode splitMode;
  final boolean splitReadRows;
  final boolean splitInAppend;
  final double overdueSplitFactor;
  final long mergeBytes;
  final int maxSegments;
  final double tierRatio;
  final boolean foldSpread;
  final double maxDeadFraction;
  final boolean rewriteDropDeletes;
  final boolean leave;
  final int checkpointEdits;
  final double checkpointRatio;

  /** The values of {@code conf}, defaults for keys it does not set. */
  public RlsmCompactionConfig(Configuration conf) {
    this(builder().l0Trigger(conf.getInt(L0_TRIGGER_KEY, DEFAULT_L0_TRIGGER))
      .maxVictims(conf.getInt(MAX_VICTIMS_KEY, DEFAULT_MAX_VICTIMS))
      .newPartitionMinRows(conf.getInt(NEW_PARTITION_MIN_ROWS_KEY, DEFAULT_NEW_PARTITION_MIN_ROWS))
      .splitBytes(conf.getLong(SPLIT_BYTES_KEY, DEFAULT_SPLIT_BYTES))
      .splitMode(SplitMode.valueOf(conf.get(SPLIT_MODE_KEY, DEFAULT_SPLIT_MODE.name()).trim()
        .toUpperCase(Locale.ROOT)))
      .splitReadRows(conf.getBoolean(SPLIT_READ_ROWS_KEY, DEFAULT_SPLIT_READ_ROWS))
      .splitInAppend(conf.getBoolean(SPLIT_IN_APPEND_KEY, DEFAULT_SPLIT_IN_APPEND))
      .overdueSplitFactor(conf.getDouble(OVERDUE_SPLIT_FACTOR_KEY, DEFAULT_OVERDUE_SPLIT_FACTOR))
      .mergeBytes(conf.getLong(MERGE_BYTES_KEY, conf.getLong(SPLIT_BYTES_KEY, DEFAULT_SPLIT_BYTES)
        / 16))
      .maxSegments(conf.getInt(MAX_SEGMENTS_KEY, DEFAULT_MAX_SEGMENTS))
      .tierRatio(conf.getDouble(TIER_RATIO_KEY, DEFAULT_TIER_RATIO))
      .foldSpread(conf.getBoolean(FOLD_SPREAD_KEY, DEFAULT_FOLD_SPREAD))
      .maxDeadFraction(conf.getDouble(MAX_DEAD_FRACTION_KEY, DEFAULT_MAX_DEAD_FRACTION))
      .rewriteDropDeletes(conf.getBoolean(REWRITE_DROP_DELETES_KEY, DEFAULT_REWRITE_DROP_DELETES))
      .leave(conf.getBoolean(LEAVE_KEY, DEFAULT_LEAVE))
      .checkpointEdits(conf.getInt(CHECKPOINT_EDITS_KEY, DEFAULT_CHECKPOINT_EDITS))
      .checkpointRatio(conf.getDouble(CHECKPOINT_RATIO_KEY, DEFAULT_CHECKPOINT_RATIO)));
  }

  private RlsmCompactionConfig(Builder b) {
    long mergeBytes = b.mergeBytes != null ? b.mergeBytes : b.splitBytes / 16;
    check(b.l0Trigger >= 2, L0_TRIGGER_KEY + " must be at least 2 but was " + b.l0Trigger);
    check(b.maxVictims >= 1, MAX_VICTIMS_KEY + " must be at least 1 but was " + b.maxVictims);
    check(b.newPartitionMinRows >= 1, NEW_PARTITION_MIN_ROWS_KEY + " must be at least 1");
    check(b.splitBytes > 0, SPLIT_BYTES_KEY + " must be positive but was " + b.splitBytes);
    check(mergeBytes >= 0 && mergeBytes < b.splitBytes,
      MERGE_BYTES_KEY + " must be in [0, split bytes) but was " + mergeBytes);
    check(b.overdueSplitFactor == 0
      || (b.overdueSplitFactor >= 1 && b.overdueSplitFactor < Double.POSITIVE_INFINITY),
      OVERDUE_SPLIT_FACTOR_KEY + " must be 0 or at least 1 but was " + b.overdueSplitFactor);
    check(b.maxSegments >= 2, MAX_SEGMENTS_KEY + " must be at least 2 but was " + b.maxSegments);
    check(b.tierRatio > 0 && b.tierRatio < Double.POSITIVE_INFINITY,
      TIER_RATIO_KEY + " must be positive and finite but was " + b.tierRatio);
    check(b.maxDeadFraction > 0 && b.maxDeadFraction <= 1,
      MAX_DEAD_FRACTION_KEY + " must be in (0, 1] but was " + b.maxDeadFraction);
    check(b.checkpointEdits >= 0,
      CHECKPOINT_EDITS_KEY + " must be at least 0 but was " + b.checkpointEdits);
    check(b.checkpointRatio > 0 && b.checkpointRatio < Double.POSITIVE_INFINITY,
      CHECKPOINT_RATIO_KEY + " must be positive and finite but was " + b.checkpointRatio);
    this.l0Trigger = b.l0Trigger;
    this.maxVictims = b.maxVictims;
    this.newPartitionMinRows = b.newPartitionMinRows;
    this.splitBytes = b.splitBytes;
    this.splitMode = b.splitMode;
    this.splitReadRows = b.splitReadRows;
    this.splitInAppend = b.splitInAppend;
    this.overdueSplitFactor = b.overdueSplitFactor;
    this.mergeBytes = mergeBytes;
    this.maxSegments = b.maxSegments;
    this.tierRatio = b.tierRatio;
    this.foldSpread = b.foldSpread;
    this.maxDeadFraction = b.maxDeadFraction;
    this.rewriteDropDeletes = b.rewriteDropDeletes;
    this.leave = b.leave;
    this.checkpointEdits = b.checkpointEdits;
    this.checkpointRatio = b.checkpointRatio;
  }

  /**
   * Whether the next manifest of a chain holding {@code edits} edits of {@code editBytes} bytes
   * after a checkpoint of {@code checkpointBytes} bytes must be a checkpoint.
   */
  public boolean checkpointDue(int edits, long editBytes, long checkpointBytes) {
    return edits >= checkpointEdits || editBytes >= checkpointRatio * checkpointBytes;
  }

  /** A builder starting from the defaults; each setter is named after its key. */
  public static Builder builder() {
    return new Builder();
  }

  private static void check(boolean ok, String msg) {
    if (!ok) {
      throw new IllegalArgumentException(msg);
    }
  }

  /**
   * Named values for {@link RlsmCompactionConfig}, starting from the defaults; {@link #build}
   * checks them (an {@link IllegalArgumentException} names the key of a bad value).
   */
  public static final class Builder {
    private int l0Trigger = DEFAULT_L0_TRIGGER;
    private int maxVictims = DEFAULT_MAX_VICTIMS;
    private int newPartitionMinRows = DEFAULT_NEW_PARTITION_MIN_ROWS;
    private long splitBytes = DEFAULT_SPLIT_BYTES;
    private SplitMode splitMode = DEFAULT_SPLIT_MODE;
    private boolean splitReadRows = DEFAULT_SPLIT_READ_ROWS;
    private boolean splitInAppend = DEFAULT_SPLIT_IN_APPEND;
    private double overdueSplitFactor = DEFAULT_OVERDUE_SPLIT_FACTOR;
    private Long mergeBytes; // null: split bytes / 16
    private int maxSegments = DEFAULT_MAX_SEGMENTS;
    private double tierRatio = DEFAULT_TIER_RATIO;
    private boolean foldSpread = DEFAULT_FOLD_SPREAD;
    private double maxDeadFraction = DEFAULT_MAX_DEAD_FRACTION;
    private boolean rewriteDropDeletes = DEFAULT_REWRITE_DROP_DELETES;
    private boolean leave = DEFAULT_LEAVE;
    private int checkpointEdits = DEFAULT_CHECKPOINT_EDITS;
    private double checkpointRatio = DEFAULT_CHECKPOINT_RATIO;

    private Builder() {
    }

    /** {@link #CHECKPOINT_EDITS_KEY}. */
    public Builder checkpointEdits(int edits) {
      this.checkpointEdits = edits;
      return this;
    }

    /** {@link #CHECKPOINT_RATIO_KEY}. */
    public Builder checkpointRatio(double ratio) {
      this.checkpointRatio = ratio;
      return this;
    }

    /** {@link #L0_TRIGGER_KEY}. */
    public Builder l0Trigger(int files) {
      this.l0Trigger = files;
      return this;
    }

    /** {@link #MAX_VICTIMS_KEY}. */
    public Builder maxVictims(int files) {
      this.maxVictims = files;
      return this;
    }

    /** {@link #NEW_PARTITION_MIN_ROWS_KEY}. */
    public Builder newPartitionMinRows(int rows) {
      this.newPartitionMinRows = rows;
      return this;
    }

    /** {@link #SPLIT_BYTES_KEY}. */
    public Builder splitBytes(long bytes) {
      this.splitBytes = bytes;
      return this;
    }

    /** {@link #SPLIT_MODE_KEY}. */
    public Builder splitMode(SplitMode mode) {
      this.splitMode = mode;
      return this;
    }

    /** {@link #SPLIT_READ_ROWS_KEY}. */
    public Builder splitReadRows(boolean read) {
      this.splitReadRows = read;
      return this;
    }

    /** {@link #SPLIT_IN_APPEND_KEY}. */
    public Builder splitInAppend(boolean split) {
      this.splitInAppend = split;
      return this;
    }

    /** {@link #OVERDUE_SPLIT_FACTOR_KEY}. */
    public Builder overdueSplitFactor(double factor) {
      this.overdueSplitFactor = factor;
      return this;
    }

    /** {@link #MERGE_BYTES_KEY}; unset, split bytes / 16. */
    public Builder mergeBytes(long bytes) {
      this.mergeBytes = bytes;
      return this;
    }

    /** {@link #MAX_SEGMENTS_KEY}. */
    public Builder maxSegments(int segments) {
      this.maxSegments = segments;
      return this;
    }

    /** {@link #TIER_RATIO_KEY}. */
    public Builder tierRatio(double ratio) {
      this.tierRatio = ratio;
      return this;
    }

    /** {@link #FOLD_SPREAD_KEY}. */
    public Builder foldSpread(boolean spread) {
      this.foldSpread = spread;
      return this;
    }

    /** {@link #MAX_DEAD_FRACTION_KEY}. */
    public Builder maxDeadFraction(double fraction) {
      this.maxDeadFraction = fraction;
      return this;
    }

    /** {@link #REWRITE_DROP_DELETES_KEY}. */
    public Builder rewriteDropDeletes(boolean drop) {
      this.rewriteDropDeletes = drop;
      return this;
    }

    /** {@link #LEAVE_KEY}. */
    public Builder leave(boolean leaving) {
      this.leave = leaving;
      return this;
    }

    public RlsmCompactionConfig build() {
      return new RlsmCompactionConfig(this);
    }
  }
}
