package org.apache.hadoop.hbase.rlsm.compaction;

import java.util.List;

/**
 * What the planner knows of a Level-1 partition: its closed range, segments (oldest first),
 * the bytes and row entries its segments hold inside the range, and how many distinct rows those
 * entries are (entries minus distinct rows are superseded copies).
 */
public final class PartitionSummary {
  final byte[] low;
  final byte[] high;
  final List<String> segments;
  final long bytes;
  final long entries;
  final long distinctRows;

  public PartitionSummary(byte[] low, byte[] high, List<String> segments, long bytes, long entries,
    long distinctRows) {
    this.low = low;
    this.high = high;
    this.segments = segments;
    this.bytes = bytes;
    this.entries = entries;
    this.distinctRows = distinctRows;
  }

  double deadFraction() {
    return entries == 0 ? 0 : 1.0 - (double) distinctRows / entries;
  }
}
