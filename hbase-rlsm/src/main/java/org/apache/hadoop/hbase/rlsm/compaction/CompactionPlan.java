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
 * One compaction, as data: the complete Level-1 layout after it ({@link #targets()}), the files
 * whose cells are read through HBase's compaction scanner ({@link #inputs()}, each restricted to
 * the key ranges in which it was valid before), and whether delete markers may be dropped. The
 * engine glue's compaction runner routes every cell the scanner yields to the target whose range
 * holds its row and writes one new segment per target that received cells; the new manifest
 * lists, per target, its kept segments plus that new one.
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
    /** A partition with too many segments or too much superseded data rewritten into one. */
    CLEANUP,
    /** User major compaction: everything rewritten, delete markers dropped. */
    MAJOR
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
     * and records the sum in the manifest.
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

  private final Kind kind;
  private final String reason;
  private final List<Target> targets;
  private final Map<String, List<byte[][]>> inputs;
  private final boolean dropDeletes;
  private final List<String> appendedVictims;
  private final List<String> linkedVictims;

  CompactionPlan(Kind kind, String reason, List<Target> targets,
    Map<String, List<byte[][]>> inputs, boolean dropDeletes, List<String> appendedVictims,
    List<String> linkedVictims) {
    this.kind = kind;
    this.reason = reason;
    this.targets = Collections.unmodifiableList(targets);
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

  /** The whole Level-1 layout after this compaction, ascending and disjoint. */
  public List<Target> targets() {
    return targets;
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

  /** Every file named by some target. */
  public Set<String> referenced() {
    Set<String> s = new LinkedHashSet<>();
    for (Target t : targets) {
      s.addAll(t.keep);
    }
    return s;
  }

  @Override
  public String toString() {
    return kind + " (" + reason + "): " + inputs.size() + " inputs, " + targets.size()
      + " partitions after, dropDeletes=" + dropDeletes + ", appended=" + appendedVictims
      + ", linked=" + linkedVictims;
  }
}
