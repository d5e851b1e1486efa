package org.apache.hadoop.hbase.rlsm.compaction;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One compaction, as data: the files whose cells are read through HBase's compaction scanner
 * ({@link #inputs()}, each restricted to the key ranges in which it was valid before), the files
 * some partition still lists after it ({@link #referenced()}, so the retired ones are known at
 * selection), whether delete markers may be dropped, and the complete Level-1 layout after it
 * ({@link #targets}). The engine glue's compaction runner routes every cell the scanner yields to
 * the target whose range holds its row and writes one new segment per target that received
 * cells; the new manifest lists, per target, its kept segments plus that new one.
 *
 * <p>Two halves: everything but the layout is chosen from file summaries alone, when HBase selects
 * the compaction while holding the store's locks (a flush commit waits for them); the layout of a
 * plan that places rows (a range-append, a major compaction, a split at the median row) is
 * computed by the runner on the compaction thread, from the rows of the files it names
 * ({@link Layout}). Invariant: the layout lists exactly the {@link #referenced()} files.
 */
public final class CompactionPlan {
  /** What the plan does; also the counter its written bytes are booked to. */
  public enum Kind {
    /** Range-append of Level-0 victims (union-set victims are linked without data I/O). */
    APPEND,
    /** An oversized partition divided at its median row, by index or by rewrite. */
    SPLIT,
    /** Two small neighbours rewritten into one partition. */
    MERGE,
    /**
     * A partition with too many segments (a bound lowered below its count) or too much
     * superseded data rewritten into one.
     */
    CLEANUP,
    /** User major compaction: everything rewritten, delete markers dropped. */
    MAJOR,
    /**
     * The family is leaving RLSM: everything rewritten, delete markers dropped, into one plain
     * HFile without RLSM entries; no targets (Level-1 is empty after it) and no manifest.
     */
    LEAVE
  }

  /** One Level-1 partition after the compaction. */
  public static final class Target {
    public final byte[] low;
    public final byte[] high;
    /** Segments kept as they are (oldest first); the new segment, if any, goes after. */
    public final List<String> keep;
    /**
     * Statistics of the kept segments' rows inside the range ({@link RowStats#EMPTY} when none
     * are kept), or null when the planner does not know them; the runner adds the new segment's
     * and records the sum in the manifest. After a fold of the newest segments the sketch is the
     * whole partition's ({@link PartitionSummary#keptBefore}): the sum is then exact.
     */
    public final RowStats kept;

    public Target(byte[] low, byte[] high, List<String> keep, RowStats kept) {
      this.low = low;
      this.high = high;
      this.keep = Collections.unmodifiableList(new ArrayList<>(keep));
      this.kept = kept;
    }

    public boolean holds(byte[] row) {
      return Bytes.compareTo(low, row) <= 0 && Bytes.compareTo(row, high) <= 0;
    }

    @Override
    public String toString() {
      return "[" + Bytes.toStringBinary(low) + ", " + Bytes.toStringBinary(high) + "] keep="
        + keep;
    }
  }

  /**
   * The Level-1 layout after a plan, computed from rows: the only step of a compaction's planning
   * that reads data, run on the compaction thread outside the store's locks.
   */
  @FunctionalInterface
  public interface Layout {
    /**
     * @param rows the row keys of the store's files
     * @return the partitions after the plan, ascending and disjoint
     * @throws java.io.UncheckedIOException when rows cannot be read, or the layout turns out
     *                                      impossible (nothing was written yet)
     */
    List<Target> targets(RowSource rows);
  }

  private final Kind kind;
  private final String reason;
  private final Layout layout;
  private final Set<String> referenced;
  private final Map<String, List<byte[][]>> inputs;
  private final boolean dropDeletes;
  private final List<String> appendedVictims;
  private final List<String> linkedVictims;

  /** A plan whose layout is known without reading rows. */
  CompactionPlan(Kind kind, String reason, List<Target> targets,
    Map<String, List<byte[][]>> inputs, boolean dropDeletes, List<String> appendedVictims,
    List<String> linkedVictims) {
    this(kind, reason, fixed(targets), keptBy(targets), inputs, dropDeletes, appendedVictims,
      linkedVictims);
  }

  /** A plan whose layout follows from rows; {@code referenced} is what it will keep. */
  CompactionPlan(Kind kind, String reason, Layout layout, Set<String> referenced,
    Map<String, List<byte[][]>> inputs, boolean dropDeletes, List<String> appendedVictims,
    List<String> linkedVictims) {
    this.kind = kind;
    this.reason = reason;
    this.layout = layout;
    this.referenced = Collections.unmodifiableSet(new LinkedHashSet<>(referenced));
    this.inputs = Collections.unmodifiableMap(new LinkedHashMap<>(inputs));
    this.dropDeletes = dropDeletes;
    this.appendedVictims = Collections.unmodifiableList(appendedVictims);
    this.linkedVictims = Collections.unmodifiableList(linkedVictims);
  }

  public Kind kind() {
    return kind;
  }

  public String reason() {
    return reason;
  }

  private static Layout fixed(List<Target> targets) {
    List<Target> copy = Collections.unmodifiableList(new ArrayList<>(targets));
    return rows -> copy;
  }

  /** Every file some target keeps. */
  static Set<String> keptBy(List<Target> targets) {
    Set<String> s = new LinkedHashSet<>();
    for (Target t : targets) {
      s.addAll(t.keep);
    }
    return s;
  }

  /**
   * The whole Level-1 layout after this compaction, ascending and disjoint; reads the rows it
   * places from {@code rows} (the runner's step, never the selection's).
   */
  public List<Target> targets(RowSource rows) {
    return layout.targets(rows);
  }

  /**
   * Files to read, each with the closed ranges {@code {low, high}} it may contribute from; an
   * empty list means the whole file (Level-0 files).
   */
  public Map<String, List<byte[][]>> inputs() {
    return inputs;
  }

  public boolean dropDeletes() {
    return dropDeletes;
  }

  public List<String> appendedVictims() {
    return appendedVictims;
  }

  public List<String> linkedVictims() {
    return linkedVictims;
  }

  /** Every file some target of the layout after the plan keeps (known at selection). */
  public Set<String> referenced() {
    return referenced;
  }

  @Override
  public String toString() {
    return kind + " (" + reason + "): " + inputs.size() + " inputs, " + referenced.size()
      + " files kept, dropDeletes=" + dropDeletes + ", appended=" + appendedVictims
      + ", linked=" + linkedVictims;
  }
}
