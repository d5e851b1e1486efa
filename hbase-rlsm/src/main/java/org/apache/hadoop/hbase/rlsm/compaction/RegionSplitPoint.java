package org.apache.hadoop.hbase.rlsm.compaction;

import org.apache.hadoop.hbase.util.Bytes;

/**
 * Where a region of an RLSM table splits: at the Level-1 partition boundary nearest the byte
 * midpoint of the partitions, so that both daughters start with whole partitions and about half
 * the bytes. O(partitions), from sizes the caller already holds: no I/O.
 */
public final class RegionSplitPoint {
  private RegionSplitPoint() {
  }

  /**
   * The low key of the partition that starts the upper half, or null when no boundary lies
   * strictly inside the region's rows {@code (start, end)} (fewer than two partitions, say).
   * @param lows  partition low keys, ascending
   * @param bytes partition sizes, same order
   * @param start the region's start row (empty: open)
   * @param end   the region's end row (empty: open)
   */
  public static byte[] nearestMidpoint(byte[][] lows, long[] bytes, byte[] start, byte[] end) {
    long total = 0;
    for (long b : bytes) {
      total += b;
    }
    byte[] best = null;
    long bestDistance = Long.MAX_VALUE;
    long below = bytes.length == 0 ? 0 : bytes[0];
    for (int i = 1; i < lows.length; i++) {
      byte[] low = lows[i];
      boolean inside = Bytes.compareTo(low, start) > 0
        && (end.length == 0 || Bytes.compareTo(low, end) < 0);
      // |below - (total - below)|: twice the distance from the midpoint, no overflow for sizes
      long distance = Math.abs(2 * below - total);
      if (inside && distance < bestDistance) {
        best = low;
        bestDistance = distance;
      }
      below += bytes[i];
    }
    return best;
  }
}
