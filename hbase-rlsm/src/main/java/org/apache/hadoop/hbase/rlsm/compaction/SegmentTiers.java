package org.apache.hadoop.hbase.rlsm.compaction;

/**
 * Which segments of a partition the segment bound's fold rewrites (docs/architecture.md,
 * "Level-1 and compaction", "Segment bound"): only its newest ones, in size tiers, so that what a
 * fold costs does not grow with the partition, and so with the store.
 *
 * <p>The fold writes one new segment after the segments it keeps. It starts from the fewest
 * newest segments that bring the partition back under the bound, then takes in the next older
 * segment while that segment holds at most {@code ratio} times the bytes taken in so far (the
 * appended rows' files among them). Segments therefore form a staircase of decreasing sizes from
 * the oldest: a fold of small newest segments stops at the first much larger one, and a base
 * segment is rewritten only once the segments newer than it have grown to its size. For equal
 * appends of one byte each into a bound of {@code K} segments, ratio 1 follows the binomial
 * schedule of Mathieu et al. (2014, "Bigtable merge compaction"): the first {@code K + 1}
 * appended bytes are rewritten once, the first {@code C(K + 2, 2)} at most twice, and so on;
 * a fold of the whole partition at the bound instead rewrites every byte once per {@code K - 1}
 * appends, a cost that grows linearly with the partition (TestSegmentTiers). A fold of only the
 * newest segments is a minor rewrite: it keeps delete markers, as the range-append it belongs to
 * does.
 */
public final class SegmentTiers {
  private SegmentTiers() {
  }

  /**
   * The index of the oldest segment the fold rewrites: segments {@code 0..from-1} are kept as
   * they are, {@code from..} are rewritten with the incoming bytes into one new segment; 0 is a
   * rewrite of the whole partition.
   * @param segmentBytes per segment, oldest first, its bytes in the partition
   * @param maxKept      most segments the fold may keep (the bound less the new segment)
   * @param incoming     bytes that go into the new segment besides rewritten segments (the
   *                     partition's linked Level-0 files)
   * @param ratio        an older segment is taken in while its bytes are at most this times the
   *                     bytes taken in so far
   */
  public static int foldFrom(long[] segmentBytes, int maxKept, long incoming, double ratio) {
    int from = Math.min(segmentBytes.length, Math.max(0, maxKept));
    double taken = incoming;
    for (int i = from; i < segmentBytes.length; i++) {
      taken += segmentBytes[i];
    }
    while (from > 0 && segmentBytes[from - 1] <= ratio * taken) {
      from--;
      taken += segmentBytes[from];
    }
    return from;
  }
}
