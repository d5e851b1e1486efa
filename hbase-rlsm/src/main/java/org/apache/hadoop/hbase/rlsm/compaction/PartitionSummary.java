package org.apache.hadoop.hbase.rlsm.compaction;

import java.util.List;

/**
 * What the planner knows of a Level-1 partition: its closed range, segments (oldest first),
 * the bytes and row entries its segments hold inside the range, and how many distinct rows those
 * entries are (entries minus distinct rows are superseded copies). With {@link #stats} (the
 * glue's summaries always have them) the planner carries a partition's statistics into the next
 * layout without reading rows.
 */
public final class PartitionSummary {
  final byte[] low;
  final byte[] high;
  final List<String> segments;
  final long bytes;
  final long entries;
  final long distinctRows;
  /** The statistics behind the counts, or null when only the counts are known. */
  final RowStats stats;
  /** Whether every segment's rows lie inside the range (no segment shared with a neighbour). */
  final boolean exclusive;

  /** Counts only: the planner cannot carry them into the next layout. */
  public PartitionSummary(byte[] low, byte[] high, List<String> segments, long bytes, long entries,
    long distinctRows) {
    this.low = low;
    this.high = high;
    this.segments = segments;
    this.bytes = bytes;
    this.entries = entries;
    this.distinctRows = distinctRows;
    this.stats = null;
    this.exclusive = false;
  }

  /**
   * @param exclusive whether every segment's rows lie inside {@code [low, high]} (so a wider
   *                  range holds no more of them)
   */
  public PartitionSummary(byte[] low, byte[] high, List<String> segments, RowStats stats,
    boolean exclusive) {
    this.low = low;
    this.high = high;
    this.segments = segments;
    this.bytes = stats.bytes();
    this.entries = stats.entries();
    this.distinctRows = stats.distinctRows();
    this.stats = stats;
    this.exclusive = exclusive;
  }

  public RowStats stats() {
    return stats;
  }

  double deadFraction() {
    return entries == 0 ? 0 : 1.0 - (double) distinctRows / entries;
  }
}
