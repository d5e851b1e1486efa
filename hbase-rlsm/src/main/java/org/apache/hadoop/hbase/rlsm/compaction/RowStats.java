package org.apache.hadoop.hbase.rlsm.compaction;

import org.apache.hadoop.hbase.rlsm.index.RowSketch;

/**
 * Statistics of the rows some files hold in a key range, as the planner needs them: row entries
 * (rows counted once per file), bytes, and a {@link RowSketch} of the distinct rows. They add up
 * over files without reading them ({@link #plus}), so a partition's statistics follow from its
 * segments' file-info and from what a compaction wrote (docs/architecture.md, "Level-1 and
 * compaction"). Immutable: the sketch is never changed after construction.
 */
public final class RowStats {
  /** No rows. */
  public static final RowStats EMPTY = new RowStats(0, 0, new RowSketch());

  private final long entries;
  private final long bytes;
  private final RowSketch sketch;

  /** @param sketch owned by the new object from now on: the caller must not change it */
  public RowStats(long entries, long bytes, RowSketch sketch) {
    this.entries = entries;
    this.bytes = bytes;
    this.sketch = sketch;
  }

  public long entries() {
    return entries;
  }

  public long bytes() {
    return bytes;
  }

  public RowSketch sketch() {
    return sketch;
  }

  /**
   * Distinct rows: the sketch's estimate, at most {@link #entries} (an estimate can exceed the
   * entries it counts) and at least 1 when there are entries.
   */
  public long distinctRows() {
    return entries == 0 ? 0 : Math.max(1, Math.min(entries, sketch.estimate()));
  }

  /** The statistics of both sets of files together. */
  public RowStats plus(RowStats other) {
    RowSketch s = sketch.copy();
    s.addAll(other.sketch);
    return new RowStats(entries + other.entries, bytes + other.bytes, s);
  }

  @Override
  public String toString() {
    return entries + " entries, ~" + distinctRows() + " rows, " + bytes + " bytes";
  }
}
