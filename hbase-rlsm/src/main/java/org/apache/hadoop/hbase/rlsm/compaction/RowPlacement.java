package org.apache.hadoop.hbase.rlsm.compaction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Range-append placement (docs/design.md "Range-append", the RLSM paper's Figure 3.4): every row of
 * the victims goes to the Level-1 partition whose range holds it; rows that fall in a gap between
 * partitions create a new partition when a gap receives at least {@code minRowsForNewPartition}
 * rows, and otherwise widen the partition after the gap (or, after the last partition, the one
 * before it).
 *
 * <p>Ranges are closed {@code [low, high]}. Widening moves a bound only into its own gap, so the
 * resulting ranges stay disjoint and ascending.
 */
public final class RowPlacement {
  /** One resulting range; {@code existing} is its index in the input, or -1 when new. */
  public static final class Range {
    public final byte[] low;
    public final byte[] high;
    public final int existing;

    Range(byte[] low, byte[] high, int existing) {
      this.low = low;
      this.high = high;
      this.existing = existing;
    }

    @Override
    public String toString() {
      return "[" + Bytes.toStringBinary(low) + "-" + Bytes.toStringBinary(high) + "]"
        + (existing < 0 ? "new" : "#" + existing);
    }
  }

  private final List<Range> ranges;
  private final int[] target;

  private RowPlacement(List<Range> ranges, int[] target) {
    this.ranges = ranges;
    this.target = target;
  }

  /** The ranges after placement, ascending. */
  public List<Range> ranges() {
    return ranges;
  }

  /** Index into {@link #ranges()} of row {@code i} of the input. */
  public int target(int i) {
    return target[i];
  }

  /**
   * @param lows  existing partition low keys, ascending
   * @param highs existing partition high keys
   * @param rows  the rows to place, ascending and distinct
   */
  public static RowPlacement place(byte[][] lows, byte[][] highs, byte[][] rows,
    int minRowsForNewPartition) {
    int p = lows.length;
    // gapStart[g]/gapEnd[g]: rows falling before existing range g (g == p: after the last).
    int[] gapStart = new int[p + 1];
    int[] gapEnd = new int[p + 1];
    Arrays.fill(gapStart, -1);
    int[] inRange = new int[rows.length];
    int j = 0;
    for (int i = 0; i < rows.length; i++) {
      while (j < p && Bytes.compareTo(highs[j], rows[i]) < 0) {
        j++;
      }
      if (j < p && Bytes.compareTo(lows[j], rows[i]) <= 0) {
        inRange[i] = j;
      } else {
        inRange[i] = -1 - j; // in gap j
        if (gapStart[j] < 0) {
          gapStart[j] = i;
        }
        gapEnd[j] = i + 1;
      }
    }
    byte[][] newLows = lows.clone();
    byte[][] newHighs = highs.clone();
    boolean[] gapIsNew = new boolean[p + 1];
    for (int g = 0; g <= p; g++) {
      if (gapStart[g] < 0) {
        continue;
      }
      int count = gapEnd[g] - gapStart[g];
      if (count >= minRowsForNewPartition || p == 0) {
        gapIsNew[g] = true;
      } else if (g < p) {
        newLows[g] = rows[gapStart[g]];
      } else {
        newHighs[p - 1] = rows[gapEnd[g] - 1];
      }
    }
    List<Range> out = new ArrayList<>();
    int[] gapIndex = new int[p + 1];
    int[] existingIndex = new int[p];
    for (int g = 0; g <= p; g++) {
      if (gapIsNew[g]) {
        gapIndex[g] = out.size();
        out.add(new Range(rows[gapStart[g]], rows[gapEnd[g] - 1], -1));
      }
      if (g < p) {
        existingIndex[g] = out.size();
        out.add(new Range(newLows[g], newHighs[g], g));
      }
    }
    int[] target = new int[rows.length];
    for (int i = 0; i < rows.length; i++) {
      if (inRange[i] >= 0) {
        target[i] = existingIndex[inRange[i]];
      } else {
        int g = -1 - inRange[i];
        target[i] = gapIsNew[g] ? gapIndex[g] : g < p ? existingIndex[g] : existingIndex[p - 1];
      }
    }
    return new RowPlacement(out, target);
  }
}
