package org.apache.hadoop.hbase.rlsm.compaction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan.Kind;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan.Target;
import org.apache.hadoop.hbase.rlsm.index.RangeTree;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Chooses the next compaction of a store from summaries of its files (docs/design.md, section
 * RLSM): file-info only (key ranges, row counts, sketches), never a data block, so selection
 * costs the same whatever the rows. In order of priority: a user major compaction; a split of a
 * partition above {@link RlsmCompactionConfig#OVERDUE_SPLIT_FACTOR_KEY} times the split size (an
 * overdue split); a range-append when Level-0 has reached the trigger (which also divides, by
 * index, the partitions above the split size: {@link RlsmCompactionConfig#SPLIT_IN_APPEND_KEY},
 * and then takes the overdue splits' place); a split of a partition above the split size; a
 * chain clean-up of a partition with too many segments or too much superseded data; a merge of
 * two small neighbours. A family that is leaving RLSM ({@code hbase.rlsm.leave}) gets only
 * whole-store rewrites into one plain HFile, whenever a major compaction is requested, Level-1 is
 * not empty or Level-0 reaches the trigger.
 *
 * <p>Invariant: no plan leaves a partition with more than {@code maxSegments} segments. A
 * range-append that would push a partition past the bound rewrites that partition's newest
 * segments with its new rows into one segment instead of adding one ({@link SegmentTiers}: the
 * whole partition only when the tiers reach its oldest segment); the stand-alone clean-up then
 * serves only layouts that were over the bound before (a lowered bound) and partitions with too
 * much superseded data.
 */
public final class RlsmCompactionPlanner {
  private final RlsmCompactionConfig config;

  public RlsmCompactionPlanner(RlsmCompactionConfig config) {
    this.config = config;
  }

  /** The keys this planner follows (also the manifest checkpoint rule of the glue). */
  public RlsmCompactionConfig config() {
    return config;
  }

  /** True when {@link #plan} would find work (cheap: counts and sizes only). */
  public boolean needsCompaction(List<FileSummary> level0, List<PartitionSummary> partitions) {
    if (config.leave) {
      return !partitions.isEmpty() || level0.size() >= config.l0Trigger;
    }
    if (level0.size() >= config.l0Trigger) {
      return true;
    }
    for (int i = 0; i < partitions.size(); i++) {
      PartitionSummary p = partitions.get(i);
      if ((p.bytes > config.splitBytes && divisible(p)) || p.segments.size() > config.maxSegments
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

  /**
   * The next compaction, or null when there is nothing to do. Reads nothing but the summaries:
   * HBase selects under the store's locks, which a flush commit waits for; the rows a plan
   * places are read by its {@link CompactionPlan.Layout} on the compaction thread.
   */
  public CompactionPlan plan(List<FileSummary> level0, List<PartitionSummary> partitions,
    boolean major) {
    if (config.leave) {
      boolean work = major || !partitions.isEmpty() || level0.size() >= config.l0Trigger;
      return work && (!level0.isEmpty() || !partitions.isEmpty())
        ? leave(level0, partitions, major) : null;
    }
    if (major && (!level0.isEmpty() || !partitions.isEmpty())) {
      return major(level0, partitions);
    }
    if (level0.size() >= config.l0Trigger) {
      // Under sustained ingest Level-0 is back at the trigger after nearly every append, so a
      // split ranked below appends may wait for the whole load (at 16 GB the partitions stayed
      // at 16 from 2 GB on, docs/benchmarks.md): one above the overdue factor goes first, unless
      // the append divides it itself or the factor is 0.
      int overdue = appendSplits() || config.overdueSplitFactor == 0 ? -1
        : splitAbove(partitions, config.overdueSplitFactor);
      return overdue >= 0 ? split(level0, partitions, overdue) : append(level0, partitions);
    }
    int above = splitAbove(partitions, 1);
    if (above >= 0) {
      return split(level0, partitions, above);
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

  private CompactionPlan append(List<FileSummary> level0, List<PartitionSummary> partitions) {
    RangeTree<PartitionSummary> tree = tree(partitions);
    List<FileSummary> victims = orderVictims(level0, tree);
    if (victims.size() > config.maxVictims) {
      victims = victims.subList(0, config.maxVictims);
    }
    // partitions above the split size divide in the layout step: no compaction of their own
    // waits for Level-0 to fall below the trigger, which sustained ingest seldom lets happen
    boolean[] splits = new boolean[partitions.size()];
    Set<PartitionSummary> splitting = new HashSet<>();
    if (appendSplits()) {
      for (int i = 0; i < partitions.size(); i++) {
        PartitionSummary p = partitions.get(i);
        if (p.bytes > config.splitBytes && divisible(p)) {
          splits[i] = true;
          splitting.add(p);
        }
      }
    }
    Map<PartitionSummary, List<FileSummary>> links = new LinkedHashMap<>();
    List<FileSummary> placed = new ArrayList<>();
    List<String> appended = new ArrayList<>();
    Map<String, List<byte[][]>> inputs = new LinkedHashMap<>();
    for (FileSummary v : victims) {
      PartitionSummary p = unionTarget(v, tree);
      // a file inside a partition that divides may straddle the halves: placed, not linked
      if (p != null && !splitting.contains(p)) {
        links.computeIfAbsent(p, k -> new ArrayList<>()).add(v);
      } else {
        placed.add(v);
        appended.add(v.name);
        inputs.put(v.name, List.of());
      }
    }
    List<String> placedNames = new ArrayList<>(appended);
    // per partition: how many of its oldest segments a fold keeps, or -1 when it is not folded
    int[] foldKeeps = new int[partitions.size()];
    Set<String> referenced = new LinkedHashSet<>();
    List<String> linked = new ArrayList<>();
    int whole = 0;
    int newest = 0;
    // per partition: whether placed rows may reach it, and its segments after the append unless
    // it folds (its segments, its linked files and a new segment if it may receive rows)
    boolean[] receives = new boolean[partitions.size()];
    int[] depth = new int[partitions.size()];
    for (int i = 0; i < partitions.size(); i++) {
      PartitionSummary p = partitions.get(i);
      receives[i] = mayReceive(placed, partitions, i);
      depth[i] = p.segments.size() + links.getOrDefault(p, List.of()).size()
        + (receives[i] ? 1 : 0);
    }
    boolean[] early = config.foldSpread ? earlyFolds(partitions, links, receives, depth, splits)
      : new boolean[partitions.size()];
    int earlyCount = 0;
    for (int i = 0; i < partitions.size(); i++) {
      PartitionSummary p = partitions.get(i);
      List<FileSummary> l = links.getOrDefault(p, List.of());
      boolean atBound = depth[i] > config.maxSegments;
      if (atBound || early[i]) {
        // The hard bound (or an early fold spreading the folds over appends): the append
        // rewrites the partition's newest segments (in its range, by size tiers) and its
        // union-set victims together with its new rows into one segment.
        long incoming = 0;
        for (FileSummary v : l) {
          incoming += v.bytes;
          inputs.put(v.name, List.of());
          appended.add(v.name);
        }
        int maxKept = atBound ? config.maxSegments - 1 : p.segments.size() / 2;
        earlyCount += atBound ? 0 : 1;
        int from = SegmentTiers.foldFrom(p.segmentBytes, maxKept, incoming, config.tierRatio);
        foldKeeps[i] = from;
        if (from == 0) {
          whole++;
        } else {
          newest++;
        }
        for (int s = 0; s < p.segments.size(); s++) {
          if (s < from) {
            referenced.add(p.segments.get(s));
          } else {
            inputs.computeIfAbsent(p.segments.get(s), k -> new ArrayList<>())
              .add(new byte[][] { p.low, p.high });
          }
        }
      } else {
        foldKeeps[i] = -1;
        referenced.addAll(p.segments);
        l.forEach(v -> referenced.add(v.name));
        l.forEach(v -> linked.add(v.name));
      }
    }
    String reason = level0.size() + " Level-0 files, trigger " + config.l0Trigger
      + (whole + newest == 0 ? "" : ", at the bound of " + config.maxSegments + " segments "
        + newest + " partitions fold their newest segments in, " + whole + " all of them")
      + (earlyCount == 0 ? "" : ", " + earlyCount + " of them before the bound (spread)")
      + (splitting.isEmpty() ? "" : ", " + splitting.size() + " partitions above "
        + config.splitBytes + " bytes divide by index");
    return new CompactionPlan(Kind.APPEND, reason,
      PlacedLayouts.append(partitions, foldKeeps, links, placedNames, config.newPartitionMinRows,
        splits, config.splitReadRows),
      referenced, inputs, false, appended, linked);
  }

  /**
   * The partitions an append folds before the bound ({@link RlsmCompactionConfig#FOLD_SPREAD_KEY}):
   * of those that receive rows or links in this append, do not divide, stay within the bound
   * and hold at least half of it in segments, the deepest {@code ceil(eligible / slack)}, where
   * slack is the appends the deepest of them has left before the bound. Partitions that grow by
   * one segment an append then reach the bound spread over those appends, not in one. Partitions
   * over shared segments are eligible: after an index split both halves share the parent's
   * segments, so in a store that splits nearly every partition does (leaving them out, the
   * partitions reached the bound together again at 4 GB, docs/benchmarks.md).
   */
  private boolean[] earlyFolds(List<PartitionSummary> partitions,
    Map<PartitionSummary, List<FileSummary>> links, boolean[] receives, int[] depth,
    boolean[] splits) {
    boolean[] early = new boolean[partitions.size()];
    List<Integer> eligible = new ArrayList<>();
    int deepest = 0;
    for (int i = 0; i < partitions.size(); i++) {
      PartitionSummary p = partitions.get(i);
      boolean linked = !links.getOrDefault(p, List.of()).isEmpty();
      if (
        (receives[i] || linked) && !splits[i] && depth[i] <= config.maxSegments
          && 2 * p.segments.size() >= config.maxSegments
      ) {
        eligible.add(i);
        deepest = Math.max(deepest, depth[i]);
      }
    }
    if (eligible.isEmpty()) {
      return early;
    }
    int slack = config.maxSegments - deepest + 1;
    int count = (eligible.size() + slack - 1) / slack;
    eligible.sort((a, b) -> Integer.compare(partitions.get(b).segments.size(),
      partitions.get(a).segments.size()));
    for (int k = 0; k < count; k++) {
      early[eligible.get(k)] = true;
    }
    return early;
  }

  /**
   * Whether rows of the {@code placed} files may go to partition {@code i}: whether a file's key
   * range meets the partition's range or the gap before it (whose rows widen it when too few for
   * a new partition), or, for the last partition, the gap after it. From the files' first and
   * last rows only, so it may say yes for a partition that then receives nothing: the segment
   * bound is then kept by a fold the append did not strictly need.
   */
  private static boolean mayReceive(List<FileSummary> placed, List<PartitionSummary> partitions,
    int i) {
    byte[] after = i == 0 ? null : partitions.get(i - 1).high; // exclusive
    byte[] upTo = i == partitions.size() - 1 ? null : partitions.get(i).high; // inclusive
    for (FileSummary f : placed) {
      if (
        f.rows > 0 && (upTo == null || Bytes.compareTo(f.first, upTo) <= 0)
          && (after == null || Bytes.compareTo(f.last, after) > 0)
      ) {
        return true;
      }
    }
    return false;
  }

  /** Whether range-appends divide the partitions above the split size themselves. */
  private boolean appendSplits() {
    return config.splitInAppend && config.splitMode == RlsmCompactionConfig.SplitMode.INDEX;
  }

  /** The first divisible partition above {@code factor} times the split size, or -1. */
  private int splitAbove(List<PartitionSummary> partitions, double factor) {
    for (int i = 0; i < partitions.size(); i++) {
      PartitionSummary p = partitions.get(i);
      if (p.bytes > factor * config.splitBytes && divisible(p)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Whether partition {@code p} can be divided: its range and its recorded distinct rows (exact
   * up to the sketch's exact size) both allow two halves.
   */
  private static boolean divisible(PartitionSummary p) {
    return p.distinctRows >= 2 && !Bytes.equals(p.low, p.high);
  }

  private CompactionPlan split(List<FileSummary> level0, List<PartitionSummary> partitions,
    int i) {
    PartitionSummary p = partitions.get(i);
    String reason = String.format("%d bytes > %d", p.bytes, config.splitBytes);
    boolean index = config.splitMode == RlsmCompactionConfig.SplitMode.INDEX;
    Map<String, List<byte[][]>> inputs = new LinkedHashMap<>();
    Set<String> referenced = new LinkedHashSet<>();
    for (int j = 0; j < partitions.size(); j++) {
      if (j != i || index) {
        referenced.addAll(partitions.get(j).segments);
      }
    }
    if (!index) {
      for (String seg : p.segments) {
        inputs.put(seg, List.<byte[][]> of(new byte[][] { p.low, p.high }));
      }
    }
    return new CompactionPlan(Kind.SPLIT, reason,
      PlacedLayouts.split(partitions, i, index, config.splitReadRows),
      referenced, inputs, !index && mayDropDeletes(level0, p.low, p.high), List.of(), List.of());
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

  private CompactionPlan major(List<FileSummary> level0, List<PartitionSummary> partitions) {
    Map<String, List<byte[][]>> inputs = new LinkedHashMap<>();
    List<String> victims = new ArrayList<>();
    for (FileSummary f : level0) {
      inputs.put(f.name, List.of());
      victims.add(f.name);
    }
    for (PartitionSummary p : partitions) {
      for (String seg : p.segments) {
        inputs.computeIfAbsent(seg, k -> new ArrayList<>()).add(new byte[][] { p.low, p.high });
      }
    }
    return new CompactionPlan(Kind.MAJOR, "major compaction requested",
      PlacedLayouts.major(partitions, victims, config.newPartitionMinRows), Set.of(), inputs,
      true, victims, List.of());
  }

  /**
   * The whole store into one plain HFile: every Level-0 file whole, every segment within the
   * ranges of the partitions listing it (the rows a shared segment holds outside them are stale
   * and must not come back), no Level-1 after. Every cell of the store is an input, so delete
   * markers are dropped as in a major compaction.
   */
  private static CompactionPlan leave(List<FileSummary> level0,
    List<PartitionSummary> partitions, boolean major) {
    Map<String, List<byte[][]>> inputs = new LinkedHashMap<>();
    List<String> victims = new ArrayList<>();
    for (FileSummary f : level0) {
      inputs.put(f.name, List.of());
      victims.add(f.name);
    }
    for (PartitionSummary p : partitions) {
      for (String seg : p.segments) {
        inputs.computeIfAbsent(seg, k -> new ArrayList<>()).add(new byte[][] { p.low, p.high });
      }
    }
    String reason = (major ? "major compaction requested" : level0.size() + " Level-0 files, "
      + partitions.size() + " partitions") + ", the family is leaving RLSM";
    return new CompactionPlan(Kind.LEAVE, reason, List.of(), inputs, true, victims, List.of());
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
