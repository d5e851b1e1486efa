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
  /**
   * Per segment: whether its rows lie inside the range, so that its entries and bytes there are
   * its own, exact (else it is shared with a neighbour after an index split, and they are a
   * share of the partition's).
   */
  final boolean[] inside;
  /** Whether every segment's rows lie inside the range (no segment shared with a neighbour). */
  final boolean exclusive;

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
    this.inside = new boolean[segments.size()];
    this.exclusive = false;
  }

  /**
   * @param segmentBytes   per segment, the bytes it holds inside {@code [low, high]} (exact for a
   *                       segment lying inside it, else an estimate)
   * @param segmentEntries per segment, the row entries it holds inside the range (likewise)
   * @param inside         per segment, whether its rows lie inside {@code [low, high]} (so its
   *                       values are exact, and a wider range holds no more of its rows)
   */
  public PartitionSummary(byte[] low, byte[] high, List<String> segments, RowStats stats,
    long[] segmentBytes, long[] segmentEntries, boolean[] inside) {
    this.low = low;
    this.high = high;
    this.segments = segments;
    this.bytes = stats.bytes();
    this.entries = stats.entries();
    this.distinctRows = stats.distinctRows();
    this.segmentBytes = checked(segmentBytes, segments).clone();
    this.segmentEntries = checked(segmentEntries, segments).clone();
    this.stats = stats;
    if (inside.length != segments.size()) {
      throw new IllegalArgumentException(
        segments.size() + " segments but " + inside.length + " inside flags");
    }
    this.inside = inside.clone();
    boolean all = true;
    for (boolean in : inside) {
      all &= in;
    }
    this.exclusive = all;
  }

  /** The inside flags of the halves of an index split, which share all their segments. */
  static boolean[] shared(List<String> segments) {
    return new boolean[segments.size()];
  }

  /**
   * The oldest segment from which on every segment lies inside the range (the segment count
   * when the newest does not): a fold that rewrites only segments from here on knows exactly
   * what it takes out of the partition's entries, so {@link #keptBefore} is exact.
   */
  int insideFrom() {
    int from = segments.size();
    while (from > 0 && inside[from - 1]) {
      from--;
    }
    return from;
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
   * are the partition's minus those of the rewritten segments; the sketch is the whole
   * partition's: a superset of the kept rows, and exactly their union with the new segment's
   * once the runner adds it, since the new segment holds every row of the rewritten ones (but
   * rows whose every cell the rewrite purged, by TTL or versions, which the sketch then still
   * counts). Entries and bytes are exact when the rewritten segments lie inside the range
   * ({@code from >= }{@link #insideFrom()}), else the shared ones' shares are estimates.
   */
  RowStats keptBefore(int from) {
    if (stats == null) {
      return null;
    }
    long e = entries;
    long b = bytes;
    for (int i = from; i < segments.size(); i++) {
      e -= segmentEntries[i];
      b -= segmentBytes[i];
    }
    return new RowStats(Math.max(0, e), Math.max(0, b), stats.sketch());
  }
}
