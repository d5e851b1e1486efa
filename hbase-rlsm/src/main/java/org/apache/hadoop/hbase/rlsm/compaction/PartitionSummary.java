package org.apache.hadoop.hbase.rlsm.compaction;

import java.util.List;

/**
 * What the planner knows of a Level-1 partition: its closed range, segments (oldest first),
 * the bytes and row entries its segments hold inside the range, and how many distinct rows those
 * entries are (entries minus distinct rows are superseded copies); and per segment, the bytes and
 * row entries it holds inside the range (the segment bound's fold chooses its segments by them,
 * {@link SegmentTiers}). With {@link #stats} (the glue's summaries always have them) the planner
 * carries a partition's statistics into the next layout without reading rows.
 */
public final class PartitionSummary {
  final byte[] low;
  final byte[] high;
  final List<String> segments;
  final long bytes;
  final long entries;
  final long distinctRows;
  /** Per segment (in {@link #segments}' order): bytes inside the range. */
  final long[] segmentBytes;
  /** Per segment: row entries inside the range. */
  final long[] segmentEntries;
  /** The statistics behind the counts, or null when only the counts are known. */
  final RowStats stats;
  /** Whether every segment's rows lie inside the range (no segment shared with a neighbour). */
  final boolean exclusive;
  /**
   * Per segment: whether its {@link #segmentEntries} are a share of the partition's recorded
   * entries (a segment shared with a neighbour, its share in proportion to its row count)
   * rather than known; a fold that rewrites it counts its rows in the range instead.
   */
  final boolean[] shares;

  /**
   * Counts only: the planner cannot carry them into the next layout; the entries are taken as
   * shared evenly by the segments.
   * @param segmentBytes per segment, the bytes it holds inside {@code [low, high]}
   */
  public PartitionSummary(byte[] low, byte[] high, List<String> segments, long[] segmentBytes,
    long entries, long distinctRows) {
    this.low = low;
    this.high = high;
    this.segments = segments;
    this.bytes = sum(segmentBytes);
    this.entries = entries;
    this.distinctRows = distinctRows;
    this.segmentBytes = checked(segmentBytes, segments).clone();
    this.segmentEntries = even(entries, segments.size());
    this.stats = null;
    this.exclusive = false;
    this.shares = new boolean[segments.size()];
  }

  /**
   * @param segmentBytes   per segment, the bytes it holds inside {@code [low, high]} (exact for a
   *                       segment lying inside it, else an estimate)
   * @param segmentEntries per segment, the row entries it holds inside the range (likewise)
   * @param exclusive      whether every segment's rows lie inside {@code [low, high]} (so a wider
   *                       range holds no more of them)
   */
  public PartitionSummary(byte[] low, byte[] high, List<String> segments, RowStats stats,
    long[] segmentBytes, long[] segmentEntries, boolean exclusive) {
    this(low, high, segments, stats, segmentBytes, segmentEntries, exclusive,
      new boolean[segments.size()]);
  }

  /**
   * As the constructor above, for statistics recorded for the whole partition.
   * @param shares per segment, whether its entries are a share of the recorded ones
   *               ({@link #shares})
   */
  public PartitionSummary(byte[] low, byte[] high, List<String> segments, RowStats stats,
    long[] segmentBytes, long[] segmentEntries, boolean exclusive, boolean[] shares) {
    if (shares.length != segments.size()) {
      throw new IllegalArgumentException(
        segments.size() + " segments but " + shares.length + " share flags");
    }
    this.low = low;
    this.high = high;
    this.segments = segments;
    this.bytes = stats.bytes();
    this.entries = stats.entries();
    this.distinctRows = stats.distinctRows();
    this.segmentBytes = checked(segmentBytes, segments).clone();
    this.segmentEntries = checked(segmentEntries, segments).clone();
    this.stats = stats;
    this.exclusive = exclusive;
    this.shares = shares.clone();
  }

  private static long[] checked(long[] perSegment, List<String> segments) {
    if (perSegment.length != segments.size()) {
      throw new IllegalArgumentException(
        segments.size() + " segments but " + perSegment.length + " values");
    }
    return perSegment;
  }

  private static long sum(long[] values) {
    long s = 0;
    for (long v : values) {
      s += v;
    }
    return s;
  }

  private static long[] even(long total, int n) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = total / n + (i < total % n ? 1 : 0);
    }
    return out;
  }

  /** The bytes its segments hold inside the range. */
  public long bytes() {
    return bytes;
  }

  public RowStats stats() {
    return stats;
  }

  double deadFraction() {
    return entries == 0 ? 0 : 1.0 - (double) distinctRows / entries;
  }

  /**
   * The statistics of the segments before {@code from} inside the range, once the segments from
   * {@code from} on are rewritten into one new segment, or null when unknown. Entries and bytes
   * are the partition's minus those of the rewritten segments; of a rewritten segment whose
   * entries are a share ({@link #shares}), the rows {@code rows} counts of it in the range and
   * its length in proportion to them, since the share is an estimate and the kept statistics
   * would be one too. The sketch is the whole partition's: a superset of the kept rows, and
   * exactly their union with the new segment's once the runner adds it, since the new segment
   * holds every row of the rewritten ones (but rows whose every cell the rewrite purged, by TTL
   * or versions, which the sketch then still counts).
   */
  RowStats keptBefore(int from, RowSource rows) {
    if (stats == null) {
      return null;
    }
    long e = entries;
    long b = bytes;
    for (int i = from; i < segments.size(); i++) {
      if (shares[i]) {
        String seg = segments.get(i);
        long n = rows.count(seg, low, high);
        e -= n;
        b -= (long) (n * PlacedLayouts.bytesPerRow(rows, seg, n));
      } else {
        e -= segmentEntries[i];
        b -= segmentBytes[i];
      }
    }
    return new RowStats(Math.max(0, e), Math.max(0, b), stats.sketch());
  }
}
