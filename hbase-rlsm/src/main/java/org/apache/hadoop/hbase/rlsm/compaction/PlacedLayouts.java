package org.apache.hadoop.hbase.rlsm.compaction;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan.Layout;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan.Target;
import org.apache.hadoop.hbase.rlsm.index.RowSketch;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The layouts of the plans that place rows, computed by the compaction runner from the rows of
 * the files the plan names (docs/architecture.md, "Level-1 and compaction"): a range-append's and
 * a major compaction's Level-0 rows go to partitions and gaps ({@link RowPlacement}), an
 * oversized partition is divided in two ({@link PartitionHalves}). The
 * selection fixed everything else (victims, inputs, which partitions fold which of their segments
 * in, so which files are retired); a layout only draws the ranges, and keeps exactly the files the
 * selection said it would.
 */
final class PlacedLayouts {
  private PlacedLayouts() {
  }

  private static byte[][] lows(List<PartitionSummary> partitions) {
    byte[][] lows = new byte[partitions.size()][];
    for (int i = 0; i < lows.length; i++) {
      lows[i] = partitions.get(i).low;
    }
    return lows;
  }

  private static byte[][] highs(List<PartitionSummary> partitions) {
    byte[][] highs = new byte[partitions.size()][];
    for (int i = 0; i < highs.length; i++) {
      highs[i] = partitions.get(i).high;
    }
    return highs;
  }

  /**
   * The distinct rows of whole files that lie outside every partition's range, ascending: all
   * that {@link RowPlacement} draws ranges from (a row inside a partition goes to it, whatever
   * the other rows are), read gap by gap, so that a file's rows inside partitions (with random
   * keys, nearly all of them once Level-1 covers the key space) are skipped by the reader's
   * seeks instead of read. With no partition, every row.
   */
  private static byte[][] gapRowsOf(List<String> files, List<PartitionSummary> partitions,
    RowSource rows) {
    TreeSet<byte[]> all = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    int p = partitions.size();
    for (String f : files) {
      // gap g lies before partition g (g == p: after the last; with no partition, the whole
      // key space); its bounds belong to partitions
      for (int g = 0; g <= p; g++) {
        byte[] after = g == 0 ? null : partitions.get(g - 1).high;
        byte[] before = g == p ? null : partitions.get(g).low;
        for (byte[] row : rows.rows(f, after, before)) {
          if ((after == null || !Bytes.equals(row, after))
            && (before == null || !Bytes.equals(row, before))) {
            all.add(row);
          }
        }
      }
    }
    return all.toArray(new byte[0][]);
  }

  /**
   * A range-append: the rows of {@code placed} go to partitions and gaps; a partition keeps its
   * segments and its linked files unless folded ({@code foldKeeps[i] >= 0}: it keeps only that
   * many of its oldest segments, the others and its linked files are inputs); a new partition
   * keeps nothing. A partition marked in {@code splits} (it has no linked files) is first
   * divided into {@link PartitionHalves} by index, from its segments' quantiles (or its rows
   * when {@code readRows} or they do not allow); both halves keep its segments, fold as it
   * would have, and take the placed rows of their own ranges. A partition whose rows turn out
   * indivisible stays whole.
   */
  static Layout append(List<PartitionSummary> partitions, int[] foldKeeps,
    Map<PartitionSummary, List<FileSummary>> links, List<String> placed, int minRows,
    boolean[] splits, boolean readRows) {
    return rows -> {
      List<PartitionSummary> divided = new ArrayList<>(partitions.size());
      List<Integer> keeps = new ArrayList<>(partitions.size());
      for (int i = 0; i < partitions.size(); i++) {
        PartitionSummary p = partitions.get(i);
        PartitionHalves h = splits[i] ? PartitionHalves.of(p, rows, readRows) : null;
        if (h != null) {
          divided.add(h.lowerOf(p));
          divided.add(h.upperOf(p));
          keeps.add(foldKeeps[i]);
        } else {
          divided.add(p);
        }
        keeps.add(foldKeeps[i]);
      }
      return appendTargets(divided, keeps, links, placed, minRows, rows);
    };
  }

  private static List<Target> appendTargets(List<PartitionSummary> partitions,
    List<Integer> foldKeeps, Map<PartitionSummary, List<FileSummary>> links, List<String> placed,
    int minRows, RowSource rows) {
    RowPlacement placement = RowPlacement.place(lows(partitions), highs(partitions),
      gapRowsOf(placed, partitions, rows), minRows);
    List<Target> targets = new ArrayList<>();
    for (RowPlacement.Range r : placement.ranges()) {
      if (r.existing < 0) {
        targets.add(new Target(r.low, r.high, List.of(), RowStats.EMPTY));
        continue;
      }
      PartitionSummary p = partitions.get(r.existing);
      int foldKeep = foldKeeps.get(r.existing);
      if (foldKeep == 0) {
        targets.add(new Target(r.low, r.high, List.of(), RowStats.EMPTY));
      } else if (foldKeep > 0) {
        List<String> keep = p.segments.subList(0, foldKeep);
        targets.add(new Target(r.low, r.high, keep,
          widened(p, r, keep, p.keptBefore(foldKeep, rows), rows)));
      } else {
        List<FileSummary> l = links.getOrDefault(p, List.of());
        List<String> keep = new ArrayList<>(p.segments);
        l.forEach(v -> keep.add(v.name));
        targets.add(new Target(r.low, r.high, keep,
          plusLinked(widened(p, r, p.segments, p.stats, rows), l)));
      }
    }
    return targets;
  }

  /**
   * The statistics of {@code segments} (some of partition {@code p}'s) inside {@code r}, the
   * range {@code p} has after an append: {@code inRange}, theirs inside {@code p}'s range, plus
   * the rows they hold in what the append added to the range (gap rows below its low or above
   * its high), read here on the compaction thread. Only a segment reaching past its partition's
   * range (shared after an index split) can hold such rows; the gap between an index split's
   * halves holds none of the split's rows, so the read is short. Null when {@code inRange} is.
   * Without this the manifest would record no statistics for a widened shared partition, and the
   * next flush commit would read all its rows to learn them ({@code needsCompaction} on the
   * flusher thread; docs/architecture.md, "Partition statistics").
   */
  private static RowStats widened(PartitionSummary p, RowPlacement.Range r, List<String> segments,
    RowStats inRange, RowSource rows) {
    boolean below = Bytes.compareTo(r.low, p.low) < 0;
    boolean above = Bytes.compareTo(r.high, p.high) > 0;
    if (inRange == null || p.exclusive || (!below && !above)) {
      return inRange;
    }
    RowSketch added = new RowSketch();
    long entries = 0;
    long bytes = 0;
    for (String seg : segments) {
      long n = 0;
      if (below) {
        n += addRows(rows.rows(seg, r.low, p.low), p.low, added);
      }
      if (above) {
        n += addRows(rows.rows(seg, p.high, r.high), p.high, added);
      }
      entries += n;
      bytes += (long) (n * bytesPerRow(rows, seg, n));
    }
    return inRange.plus(new RowStats(entries, bytes, added));
  }

  /**
   * The bytes a row of {@code seg} stands for: its length over its row count (file-info), a count
   * taken as no less than {@code atLeast} rows read from it, so that a file without
   * {@code RLSM_ROW_COUNT} does not inflate bytes.
   */
  static double bytesPerRow(RowSource source, String seg, long atLeast) {
    return (double) source.length(seg) / Math.max(1, Math.max(source.rowCount(seg), atLeast));
  }

  /** Adds {@code rows} but {@code bound} (the old range's own bound) to the sketch; the count. */
  private static long addRows(byte[][] rows, byte[] bound, RowSketch sketch) {
    long n = 0;
    for (byte[] row : rows) {
      if (!Bytes.equals(row, bound)) {
        sketch.add(row);
        n++;
      }
    }
    return n;
  }

  /**
   * {@code kept} plus the statistics of a partition's linked files (they lie inside its old
   * range), or null when either is unknown (a file without a sketch has no statistics).
   */
  private static RowStats plusLinked(RowStats kept, List<FileSummary> linked) {
    RowStats s = kept;
    for (FileSummary f : linked) {
      RowStats fs = f.stats();
      s = s == null || fs == null ? null : s.plus(fs);
    }
    return s;
  }

  /** A major compaction: the partitions' ranges, widened or joined by the Level-0 rows. */
  static Layout major(List<PartitionSummary> partitions, List<String> level0, int minRows) {
    return rows -> {
      RowPlacement placement = RowPlacement.place(lows(partitions), highs(partitions),
        gapRowsOf(level0, partitions, rows), minRows);
      List<Target> targets = new ArrayList<>();
      for (RowPlacement.Range r : placement.ranges()) {
        targets.add(new Target(r.low, r.high, List.of(), RowStats.EMPTY));
      }
      return targets;
    };
  }

  /**
   * Partition {@code i} divided into {@link PartitionHalves}; by index (both halves keep the
   * segments) or by rewrite (both start empty); from the rows when {@code readRows}, else from
   * the quantiles where they allow. The others stay as they are.
   * @throws UncheckedIOException from the layout when the rows hold fewer than two distinct
   *                              rows (the selection excludes such partitions by their sketch)
   */
  static Layout split(List<PartitionSummary> partitions, int i, boolean index,
    boolean readRows) {
    return rows -> {
      PartitionSummary p = partitions.get(i);
      PartitionHalves h = PartitionHalves.of(p, rows, readRows);
      if (h == null) {
        throw PartitionHalves.indivisible(p);
      }
      List<Target> targets = new ArrayList<>();
      for (int j = 0; j < partitions.size(); j++) {
        PartitionSummary q = partitions.get(j);
        if (j != i) {
          targets.add(new Target(q.low, q.high, q.segments, q.stats));
        } else if (index) {
          targets.add(new Target(p.low, h.lowerHigh, p.segments, h.lower));
          targets.add(new Target(h.upperLow, p.high, p.segments, h.upper));
        } else {
          targets.add(new Target(p.low, h.lowerHigh, List.of(), RowStats.EMPTY));
          targets.add(new Target(h.upperLow, p.high, List.of(), RowStats.EMPTY));
        }
      }
      return targets;
    };
  }
}
