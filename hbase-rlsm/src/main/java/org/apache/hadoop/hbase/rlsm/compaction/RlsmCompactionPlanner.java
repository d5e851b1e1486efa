package org.apache.hadoop.hbase.rlsm.compaction;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan.Kind;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan.Target;
import org.apache.hadoop.hbase.rlsm.index.RangeTree;
import org.apache.hadoop.hbase.rlsm.index.RowSketch;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Chooses the next compaction of a store from summaries of its files (docs/design.md, section
 * RLSM). In order of priority: a user major compaction; a range-append when Level-0 has reached
 * the trigger; a split of a partition above the split size; a chain clean-up of a partition with
 * too many segments or too much superseded data; a merge of two small neighbours.
 *
 * <p>Invariant: no plan leaves a partition with more than {@code maxSegments} segments. A
 * range-append that would push a partition past the bound rewrites that partition with its new
 * rows instead of adding a segment; the stand-alone clean-up then serves only layouts that were
 * over the bound before (a lowered bound) and partitions with too much superseded data.
 */
public final class RlsmCompactionPlanner {
  private final RlsmCompactionConfig config;

  public RlsmCompactionPlanner(RlsmCompactionConfig config) {
    this.config = config;
  }

  /** True when {@link #plan} would find work (cheap: counts and sizes only). */
  public boolean needsCompaction(List<FileSummary> level0, List<PartitionSummary> partitions) {
    if (level0.size() >= config.l0Trigger) {
      return true;
    }
    for (int i = 0; i < partitions.size(); i++) {
      PartitionSummary p = partitions.get(i);
      if (p.bytes > config.splitBytes || p.segments.size() > config.maxSegments
        || (p.segments.size() > 1 && p.deadFraction() > config.maxDeadFraction)) {
        return true;
      }
      if (i > 0 && mergeable(partitions.get(i - 1), p)) {
        return true;
      }
    }
    return false;
  }

  /** Both below the merge size, and together not above the split size (no merge-split loop). */
  private boolean mergeable(PartitionSummary a, PartitionSummary b) {
    return a.bytes < config.mergeBytes && b.bytes < config.mergeBytes
      && a.bytes + b.bytes <= config.splitBytes;
  }

  /** The next compaction, or null when there is nothing to do. */
  public CompactionPlan plan(List<FileSummary> level0, List<PartitionSummary> partitions,
    boolean major, RowSource rows) {
    if (major && (!level0.isEmpty() || !partitions.isEmpty())) {
      return major(level0, partitions, rows);
    }
    if (level0.size() >= config.l0Trigger) {
      return append(level0, partitions, rows);
    }
    for (int i = 0; i < partitions.size(); i++) {
      PartitionSummary p = partitions.get(i);
      if (p.bytes > config.splitBytes) {
        CompactionPlan split = split(level0, partitions, i, rows);
        if (split != null) {
          return split;
        }
      }
    }
    for (int i = 0; i < partitions.size(); i++) {
      PartitionSummary p = partitions.get(i);
      if (p.segments.size() > config.maxSegments) {
        return rewrite(Kind.CLEANUP, p.segments.size() + " segments", level0, partitions, i, i);
      }
      if (p.segments.size() > 1 && p.deadFraction() > config.maxDeadFraction) {
        return rewrite(Kind.CLEANUP,
          String.format("%.0f%% superseded", 100 * p.deadFraction()), level0, partitions, i, i);
      }
    }
    for (int i = 1; i < partitions.size(); i++) {
      if (mergeable(partitions.get(i - 1), partitions.get(i))) {
        return rewrite(Kind.MERGE, "two partitions below the merge size", level0, partitions,
          i - 1, i);
      }
    }
    return null;
  }

  /** The victims of a range-append: union-set files first, then by density, highest first. */
  static List<FileSummary> orderVictims(List<FileSummary> level0,
    RangeTree<PartitionSummary> tree) {
    List<FileSummary> union = new ArrayList<>();
    List<FileSummary> rest = new ArrayList<>();
    for (FileSummary f : level0) {
      (unionTarget(f, tree) != null ? union : rest).add(f);
    }
    rest.sort(Comparator.comparingDouble(FileSummary::density).reversed());
    union.addAll(rest);
    return union;
  }

  /** The partition whose range holds all of {@code f}'s rows, or null. */
  static PartitionSummary unionTarget(FileSummary f, RangeTree<PartitionSummary> tree) {
    if (f.rows == 0 || !f.linkable) {
      return null;
    }
    PartitionSummary p = tree.find(f.first);
    return p != null && Bytes.compareTo(f.last, p.high) <= 0 ? p : null;
  }

  private static RangeTree<PartitionSummary> tree(List<PartitionSummary> partitions) {
    return new RangeTree<>(partitions, p -> p.low, p -> p.high);
  }

  private CompactionPlan append(List<FileSummary> level0, List<PartitionSummary> partitions,
    RowSource rows) {
    RangeTree<PartitionSummary> tree = tree(partitions);
    List<FileSummary> victims = orderVictims(level0, tree);
    if (victims.size() > config.maxVictims) {
      victims = victims.subList(0, config.maxVictims);
    }
    Map<PartitionSummary, List<FileSummary>> links = new LinkedHashMap<>();
    List<String> appended = new ArrayList<>();
    Map<String, List<byte[][]>> inputs = new LinkedHashMap<>();
    TreeSet<byte[]> appendedRows = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    for (FileSummary v : victims) {
      PartitionSummary p = unionTarget(v, tree);
      if (p != null) {
        links.computeIfAbsent(p, k -> new ArrayList<>()).add(v);
      } else {
        appended.add(v.name);
        inputs.put(v.name, List.of());
        appendedRows.addAll(Arrays.asList(rows.rows(v.name, null, null)));
      }
    }
    byte[][] lows = new byte[partitions.size()][];
    byte[][] highs = new byte[partitions.size()][];
    for (int i = 0; i < partitions.size(); i++) {
      lows[i] = partitions.get(i).low;
      highs[i] = partitions.get(i).high;
    }
    RowPlacement placement = RowPlacement.place(lows, highs,
      appendedRows.toArray(new byte[0][]), config.newPartitionMinRows);
    int[] received = new int[placement.ranges().size()];
    for (int i = 0; i < appendedRows.size(); i++) {
      received[placement.target(i)]++;
    }
    List<Target> targets = new ArrayList<>();
    List<String> linked = new ArrayList<>();
    int folded = 0;
    for (int t = 0; t < received.length; t++) {
      RowPlacement.Range r = placement.ranges().get(t);
      List<String> keep = new ArrayList<>();
      RowStats kept = RowStats.EMPTY;
      if (r.existing >= 0) {
        PartitionSummary p = partitions.get(r.existing);
        List<FileSummary> l = links.getOrDefault(p, List.of());
        if (p.segments.size() + l.size() + (received[t] > 0 ? 1 : 0) > config.maxSegments) {
          // The hard bound: the append rewrites the partition's segments (in its range) and its
          // union-set victims together with its new rows into one segment.
          folded++;
          for (String seg : p.segments) {
            inputs.computeIfAbsent(seg, k -> new ArrayList<>()).add(new byte[][] { p.low, p.high });
          }
          for (FileSummary v : l) {
            inputs.put(v.name, List.of());
            appended.add(v.name);
          }
        } else {
          keep.addAll(p.segments);
          l.forEach(v -> keep.add(v.name));
          l.forEach(v -> linked.add(v.name));
          kept = keptStats(p, r.low, r.high, l);
        }
      }
      targets.add(new Target(r.low, r.high, keep, kept));
    }
    String reason = level0.size() + " Level-0 files, trigger " + config.l0Trigger
      + (folded == 0 ? "" : ", " + folded + " partitions at the bound of " + config.maxSegments
        + " segments folded in");
    return new CompactionPlan(Kind.APPEND, reason, targets, inputs, false, appended, linked);
  }

  /**
   * Statistics of a partition's segments and its linked files inside its range after an append
   * ({@code [low, high]}, the old range or a wider one), or null when unknown: a wider range may
   * hold more rows of a segment shared with a neighbour, and a file without a sketch has no
   * statistics. Linked files lie inside the old range.
   */
  private static RowStats keptStats(PartitionSummary p, byte[] low, byte[] high,
    List<FileSummary> linked) {
    boolean sameRange = Bytes.equals(low, p.low) && Bytes.equals(high, p.high);
    RowStats s = sameRange || p.exclusive ? p.stats : null;
    for (FileSummary f : linked) {
      RowStats fs = f.stats();
      s = s == null || fs == null ? null : s.plus(fs);
    }
    return s;
  }

  private CompactionPlan split(List<FileSummary> level0, List<PartitionSummary> partitions,
    int i, RowSource rows) {
    PartitionSummary p = partitions.get(i);
    List<byte[]> all = new ArrayList<>();
    for (String seg : p.segments) {
      all.addAll(Arrays.asList(rows.rows(seg, p.low, p.high)));
    }
    byte[][] keys = all.toArray(new byte[0][]);
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
    byte[][] lower;
    byte[][] upper;
    if (below != null) {
      lower = new byte[][] { p.low, below };
      upper = new byte[][] { median, p.high };
    } else if (above != null) {
      lower = new byte[][] { p.low, median };
      upper = new byte[][] { above, p.high };
    } else {
      return null; // a single distinct row cannot be divided
    }
    String reason = String.format("%d bytes > %d, median %s", p.bytes, config.splitBytes,
      Bytes.toStringBinary(median));
    List<Target> targets = new ArrayList<>();
    Map<String, List<byte[][]>> inputs = new LinkedHashMap<>();
    boolean index = config.splitMode == RlsmCompactionConfig.SplitMode.INDEX;
    for (int j = 0; j < partitions.size(); j++) {
      PartitionSummary q = partitions.get(j);
      if (j != i) {
        targets.add(new Target(q.low, q.high, q.segments, q.stats));
      } else if (index) {
        RowStats[] halves = halves(keys, lower[1], p.bytes);
        targets.add(new Target(lower[0], lower[1], p.segments, halves[0]));
        targets.add(new Target(upper[0], upper[1], p.segments, halves[1]));
      } else {
        targets.add(new Target(lower[0], lower[1], List.of(), RowStats.EMPTY));
        targets.add(new Target(upper[0], upper[1], List.of(), RowStats.EMPTY));
      }
    }
    if (!index) {
      for (String seg : p.segments) {
        inputs.put(seg, List.<byte[][]> of(new byte[][] { p.low, p.high }));
      }
    }
    return new CompactionPlan(Kind.SPLIT, reason, targets, inputs,
      !index && mayDropDeletes(level0, p.low, p.high), List.of(), List.of());
  }

  /**
   * The statistics of the two halves of an index split, from the rows read for the median (a row
   * once per segment holding it); bytes are shared in proportion to the entries.
   */
  private static RowStats[] halves(byte[][] keys, byte[] lowerHigh, long bytes) {
    RowSketch lowerRows = new RowSketch();
    RowSketch upperRows = new RowSketch();
    long lowerEntries = 0;
    for (byte[] k : keys) {
      if (Bytes.compareTo(k, lowerHigh) <= 0) {
        lowerRows.add(k);
        lowerEntries++;
      } else {
        upperRows.add(k);
      }
    }
    long lowerBytes = (long) ((double) bytes * lowerEntries / keys.length);
    return new RowStats[] { new RowStats(lowerEntries, lowerBytes, lowerRows),
      new RowStats(keys.length - lowerEntries, bytes - lowerBytes, upperRows) };
  }

  /** Rewrites partitions {@code from..to} (inclusive, adjacent) into one partition. */
  private CompactionPlan rewrite(Kind kind, String reason, List<FileSummary> level0,
    List<PartitionSummary> partitions, int from, int to) {
    List<Target> targets = new ArrayList<>();
    Map<String, List<byte[][]>> inputs = new LinkedHashMap<>();
    for (int j = 0; j < partitions.size(); j++) {
      PartitionSummary q = partitions.get(j);
      if (j < from || j > to) {
        targets.add(new Target(q.low, q.high, q.segments, q.stats));
      } else {
        for (String seg : q.segments) {
          inputs.computeIfAbsent(seg, k -> new ArrayList<>()).add(new byte[][] { q.low, q.high });
        }
        if (j == to) {
          targets.add(new Target(partitions.get(from).low, q.high, List.of(), RowStats.EMPTY));
        }
      }
    }
    byte[] low = partitions.get(from).low;
    byte[] high = partitions.get(to).high;
    return new CompactionPlan(kind, reason, targets, inputs, mayDropDeletes(level0, low, high),
      List.of(), List.of());
  }

  private CompactionPlan major(List<FileSummary> level0, List<PartitionSummary> partitions,
    RowSource rows) {
    Map<String, List<byte[][]>> inputs = new LinkedHashMap<>();
    TreeSet<byte[]> l0Rows = new TreeSet<>(Bytes.BYTES_COMPARATOR);
    List<String> victims = new ArrayList<>();
    for (FileSummary f : level0) {
      inputs.put(f.name, List.of());
      victims.add(f.name);
      l0Rows.addAll(Arrays.asList(rows.rows(f.name, null, null)));
    }
    byte[][] lows = new byte[partitions.size()][];
    byte[][] highs = new byte[partitions.size()][];
    for (int i = 0; i < partitions.size(); i++) {
      PartitionSummary p = partitions.get(i);
      lows[i] = p.low;
      highs[i] = p.high;
      for (String seg : p.segments) {
        inputs.computeIfAbsent(seg, k -> new ArrayList<>()).add(new byte[][] { p.low, p.high });
      }
    }
    RowPlacement placement =
      RowPlacement.place(lows, highs, l0Rows.toArray(new byte[0][]), config.newPartitionMinRows);
    List<Target> targets = new ArrayList<>();
    for (RowPlacement.Range r : placement.ranges()) {
      targets.add(new Target(r.low, r.high, List.of(), RowStats.EMPTY));
    }
    return new CompactionPlan(Kind.MAJOR, "major compaction requested", targets, inputs, true,
      victims, List.of());
  }

  /** A rewrite may drop markers when allowed and every cell of its range is among its inputs. */
  private boolean mayDropDeletes(List<FileSummary> level0, byte[] low, byte[] high) {
    return config.rewriteDropDeletes && !overlapsLevel0(level0, low, high);
  }

  private static boolean overlapsLevel0(List<FileSummary> level0, byte[] low, byte[] high) {
    for (FileSummary f : level0) {
      if (f.rows > 0 && Bytes.compareTo(f.first, high) <= 0 && Bytes.compareTo(f.last, low) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** Files referenced before a plan that no target references after it (to be archived). */
  public static Set<String> retired(List<PartitionSummary> before, CompactionPlan plan) {
    Set<String> gone = new LinkedHashSet<>(plan.appendedVictims());
    for (PartitionSummary p : before) {
      gone.addAll(p.segments);
    }
    Set<String> kept = new HashSet<>(plan.referenced());
    gone.removeAll(kept);
    return gone;
  }
}
