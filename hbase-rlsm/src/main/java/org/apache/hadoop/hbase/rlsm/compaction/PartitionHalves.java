package org.apache.hadoop.hbase.rlsm.compaction;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.rlsm.index.RowQuantiles;
import org.apache.hadoop.hbase.rlsm.index.RowSketch;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The two halves a split divides a partition into: the lower half's range ends with
 * {@link #lowerHigh}, the upper half's starts at {@link #upperLow}, and no row lies between them;
 * with the statistics of the rows each half keeps of the partition's segments (an index split;
 * a split by rewrite starts both empty).
 *
 * <p>Found from the segments' row quantiles when every segment records them
 * ({@link #fromQuantiles}: no row read, the common case), else from the rows themselves
 * ({@link #fromRows}: every row key of the partition read, its median by
 * {@link QuickselectPartitioner}).
 */
final class PartitionHalves {
  final byte[] lowerHigh;
  final byte[] upperLow;
  final RowStats lower;
  final RowStats upper;
  /** Per segment of the partition (its order): the row entries and bytes each half takes. */
  private final long[] lowerEntries;
  private final long[] lowerBytes;
  private final long[] upperEntries;
  private final long[] upperBytes;

  private PartitionHalves(byte[] lowerHigh, byte[] upperLow, RowStats lower, RowStats upper,
    long[][] perSegment) {
    this.lowerHigh = lowerHigh;
    this.upperLow = upperLow;
    this.lower = lower;
    this.upper = upper;
    this.lowerEntries = perSegment[0];
    this.lowerBytes = perSegment[1];
    this.upperEntries = perSegment[2];
    this.upperBytes = perSegment[3];
  }

  /**
   * The halves of {@code p}: from its rows when {@code readRows}, else from its segments'
   * quantiles when they allow, else from its rows; null when its rows hold fewer than two
   * distinct rows (the selection excludes such partitions by their sketch, exact up to its
   * exact size).
   */
  static PartitionHalves of(PartitionSummary p, RowSource source, boolean readRows) {
    PartitionHalves h = readRows ? null : fromQuantiles(p, source);
    return h != null ? h : fromRows(p, source);
  }

  /**
   * The lower half of {@code p} (the partition these halves divide) as a partition: its
   * segments, shared with the upper half, with the entries and bytes this half takes of each.
   */
  PartitionSummary lowerOf(PartitionSummary p) {
    return new PartitionSummary(p.low, lowerHigh, p.segments, lower, lowerBytes, lowerEntries,
      false);
  }

  /** The upper half of {@code p} as a partition, as {@link #lowerOf}. */
  PartitionSummary upperOf(PartitionSummary p) {
    return new PartitionSummary(upperLow, p.high, p.segments, upper, upperBytes, upperEntries,
      false);
  }

  /**
   * The halves at the bucket boundary of the segments' quantiles that comes nearest to halving
   * the partition's row entries; null when a segment records no quantiles or no boundary
   * divides the partition's rows.
   *
   * <p>A boundary is the last row {@code c} of a bucket with {@code low <= c < high}; the lower
   * half ends with it, the upper one starts at its successor {@code c + 0x00}, so every key of
   * the range stays in one half. The entries a segment holds up to {@code c} are its buckets
   * inside the range and up to {@code c}, plus the part of each bucket that straddles a bound
   * that its key span puts on the inside ({@link #share}; its rows on either side are not known
   * without reading). A half's sketch is the union of the sketches of the buckets it meets: a
   * straddling bucket's rows on the other side count in both, so distinct rows are over-counted
   * by at most a bucket per segment and bound (a {@link RowStats} never counts more distinct
   * rows than entries). The halves' entries share the partition's recorded entries in the
   * proportion the quantiles give; bytes as {@link #fromRows} gives them, per segment its bytes
   * per row times the entries the half takes of it.
   */
  static PartitionHalves fromQuantiles(PartitionSummary p, RowSource source) {
    int n = p.segments.size();
    RowQuantiles[] q = new RowQuantiles[n];
    List<byte[]> candidates = new ArrayList<>();
    for (int s = 0; s < n; s++) {
      q[s] = source.quantiles(p.segments.get(s));
      if (q[s] == null) {
        return null;
      }
      for (RowQuantiles.Bucket b : q[s].buckets()) {
        if (Bytes.compareTo(b.last(), p.low) >= 0 && Bytes.compareTo(b.last(), p.high) < 0) {
          candidates.add(b.last());
        }
      }
    }
    double[] inRange = new double[n];
    double total = 0;
    for (int s = 0; s < n; s++) {
      inRange[s] = rows(q[s], p.low, p.high);
      total += inRange[s];
    }
    byte[] best = null;
    double bestBelow = 0;
    double[] bestBelowPerSegment = null; // each segment's entries up to best
    for (byte[] c : candidates) {
      double[] perSegment = new double[n];
      double below = 0;
      for (int s = 0; s < n; s++) {
        perSegment[s] = rows(q[s], p.low, c);
        below += perSegment[s];
      }
      if (best == null || Math.abs(below - total / 2) < Math.abs(bestBelow - total / 2)) {
        best = c;
        bestBelow = below;
        bestBelowPerSegment = perSegment;
      }
    }
    if (best == null || bestBelow <= 0 || bestBelow >= total) {
      return null;
    }
    byte[] upperLow = Arrays.copyOf(best, best.length + 1);
    // the quantiles give the proportions; the partition's recorded entries are the total
    double scale = p.entries / total;
    RowSketch lowerRows = new RowSketch();
    RowSketch upperRows = new RowSketch();
    double lowerBytes = 0;
    double upperBytes = 0;
    long[][] perSegment = new long[4][n];
    for (int s = 0; s < n; s++) {
      double below = bestBelowPerSegment[s];
      double above = inRange[s] - below;
      double perRow = PlacedLayouts.bytesPerRow(source, p.segments.get(s),
        Math.round(inRange[s] * scale));
      lowerBytes += perRow * below * scale;
      upperBytes += perRow * above * scale;
      perSegment[0][s] = Math.round(below * scale);
      perSegment[1][s] = Math.round(perRow * below * scale);
      perSegment[2][s] = Math.round(above * scale);
      perSegment[3][s] = Math.round(perRow * above * scale);
      List<RowQuantiles.Bucket> buckets = q[s].buckets();
      for (int j = 0; j < buckets.size(); j++) {
        if (share(q[s], j, p.low, best) > 0) {
          lowerRows.addAll(buckets.get(j).sketch());
        }
        if (share(q[s], j, upperLow, p.high) > 0) {
          upperRows.addAll(buckets.get(j).sketch());
        }
      }
    }
    long lowerEntries = Math.round(bestBelow * scale);
    return new PartitionHalves(best, upperLow,
      new RowStats(lowerEntries, Math.round(lowerBytes), lowerRows),
      new RowStats(p.entries - lowerEntries, Math.round(upperBytes), upperRows), perSegment);
  }

  /** The row entries of a file within {@code [low, high]} as its quantiles tell them. */
  private static double rows(RowQuantiles q, byte[] low, byte[] high) {
    double rows = 0;
    List<RowQuantiles.Bucket> buckets = q.buckets();
    for (int j = 0; j < buckets.size(); j++) {
      rows += share(q, j, low, high) * buckets.get(j).rows();
    }
    return rows;
  }

  /**
   * How much of bucket {@code j} lies within {@code [low, high]}, from 0 to 1: the part of the
   * bucket's key span the range covers, by {@link KeySpan#between} (rows spread evenly over the
   * keys within one bucket, as they are with hashed or sequential keys). Bucket {@code j} holds
   * rows from the file's first row (j = 0) or above the previous bucket's last row, up to its
   * own last row.
   */
  private static double share(RowQuantiles q, int j, byte[] low, byte[] high) {
    byte[] last = q.buckets().get(j).last();
    byte[] after = j == 0 ? null : q.buckets().get(j - 1).last(); // exclusive
    byte[] start = j == 0 ? q.first() : after;
    double upTo; // the part at or below high
    if (Bytes.compareTo(high, last) >= 0) {
      upTo = 1;
    } else if (after != null ? Bytes.compareTo(high, after) <= 0
      : Bytes.compareTo(high, start) < 0) {
      return 0;
    } else {
      upTo = KeySpan.between(start, last, high);
    }
    double below; // the part below low
    if (after != null ? successorAtLeast(after, low) : Bytes.compareTo(start, low) >= 0) {
      below = 0;
    } else if (Bytes.compareTo(low, last) > 0) {
      return 0;
    } else {
      below = KeySpan.between(start, last, low);
    }
    return Math.max(0, upTo - below);
  }

  /**
   * Whether {@code a + 0x00}, the smallest key above {@code a}, is at least {@code low}: a bucket
   * after {@code a} then holds no row below {@code low} (an upper half starts at such a key).
   */
  private static boolean successorAtLeast(byte[] a, byte[] low) {
    if (Bytes.compareTo(a, low) >= 0) {
      return true;
    }
    return low.length == a.length + 1 && low[a.length] == 0
      && Bytes.equals(a, 0, a.length, low, 0, a.length);
  }

  /**
   * The halves at the median of the segments' rows in range (each row once per segment holding
   * it), the rows read: the median ends the lower half when a smaller row exists, else it starts
   * the upper one; null when the rows hold fewer than two distinct rows.
   */
  static PartitionHalves fromRows(PartitionSummary p, RowSource source) {
    byte[][][] perSegment = new byte[p.segments.size()][][];
    List<byte[]> all = new ArrayList<>();
    for (int s = 0; s < perSegment.length; s++) {
      perSegment[s] = source.rows(p.segments.get(s), p.low, p.high);
      all.addAll(Arrays.asList(perSegment[s]));
    }
    byte[][] bounds = median(all.toArray(new byte[0][]));
    if (bounds == null) {
      return null;
    }
    long[][] counts = new long[4][perSegment.length];
    RowStats[] stats = halfStats(p.segments, perSegment, bounds[0], source, counts);
    return new PartitionHalves(bounds[0], bounds[1], stats[0], stats[1], counts);
  }

  /**
   * The failure of a split of {@code p} whose rows hold fewer than two distinct rows (the
   * selection excludes such partitions by their sketch: a layout the planner did not expect).
   */
  static UncheckedIOException indivisible(PartitionSummary p) {
    return new UncheckedIOException(new IOException("partition [" + Bytes.toStringBinary(p.low)
      + ", " + Bytes.toStringBinary(p.high) + "] holds fewer than two distinct rows and "
      + "cannot be split; nothing was written"));
  }

  /**
   * The bounds next to the median of {@code keys}: {@code {lower high, upper low}}, the median
   * ending the lower half when a smaller row exists, else starting the upper one; null for fewer
   * than two distinct rows.
   */
  private static byte[][] median(byte[][] keys) {
    if (keys.length < 2) {
      return null;
    }
    QuickselectPartitioner<byte[]> qs = new QuickselectPartitioner<>(Bytes.BYTES_COMPARATOR);
    byte[] median = qs.select(keys, keys.length, keys.length / 2);
    byte[] below = null; // largest row < median
    byte[] above = null; // smallest row > median
    for (byte[] k : keys) {
      int c = Bytes.compareTo(k, median);
      if (c < 0 && (below == null || Bytes.compareTo(k, below) > 0)) {
        below = k;
      } else if (c > 0 && (above == null || Bytes.compareTo(k, above) < 0)) {
        above = k;
      }
    }
    if (below != null) {
      return new byte[][] { below, median };
    }
    if (above != null) {
      return new byte[][] { median, above };
    }
    return null;
  }

  /**
   * The statistics of the two halves, from the rows read for the median (a row once per segment
   * holding it). Bytes per segment: its length in proportion to the share of its own rows in
   * each half (file-info: length and row count), so a heavy segment counts only where its rows
   * are, and a linked file listed by both halves counts only in the half holding its rows.
   * Sharing the partition's bytes in proportion to all entries instead would give a light
   * segment's rows a heavy segment's weight.
   * @param segments   the partition's segments
   * @param perSegment each segment's rows in the partition's range, same order
   * @param counts     filled per segment: lower entries, lower bytes, upper entries, upper bytes
   */
  private static RowStats[] halfStats(List<String> segments, byte[][][] perSegment,
    byte[] lowerHigh, RowSource source, long[][] counts) {
    RowSketch lowerRows = new RowSketch();
    RowSketch upperRows = new RowSketch();
    long lowerEntries = 0;
    long upperEntries = 0;
    long lowerBytes = 0;
    long upperBytes = 0;
    for (int s = 0; s < perSegment.length; s++) {
      long below = 0;
      for (byte[] k : perSegment[s]) {
        if (Bytes.compareTo(k, lowerHigh) <= 0) {
          lowerRows.add(k);
          below++;
        } else {
          upperRows.add(k);
        }
      }
      long above = perSegment[s].length - below;
      double perRow = PlacedLayouts.bytesPerRow(source, segments.get(s), perSegment[s].length);
      lowerBytes += (long) (perRow * below);
      upperBytes += (long) (perRow * above);
      counts[0][s] = below;
      counts[1][s] = (long) (perRow * below);
      counts[2][s] = above;
      counts[3][s] = (long) (perRow * above);
      lowerEntries += below;
      upperEntries += above;
    }
    return new RowStats[] { new RowStats(lowerEntries, lowerBytes, lowerRows),
      new RowStats(upperEntries, upperBytes, upperRows) };
  }
}
