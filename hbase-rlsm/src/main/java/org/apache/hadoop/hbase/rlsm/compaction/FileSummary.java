package org.apache.hadoop.hbase.rlsm.compaction;

import org.apache.hadoop.hbase.rlsm.index.RowSketch;

/**
 * What the planner knows of a Level-0 file: name, row range, row count and size, and the sketch
 * of its rows when the file records one (a linked file's statistics join its partition's).
 */
public final class FileSummary {
  final String name;
  final byte[] first; // null when the file has no rows
  final byte[] last;
  final long rows;
  final long bytes;
  final boolean linkable;
  /** The file's row sketch, or null when it records none. */
  final RowSketch sketch;

  /**
   * @param linkable whether the file may become a Level-1 segment as it is (RLSM files); other
   *                 files (bulk-loaded HFiles) are always rewritten by a range-append
   */
  public FileSummary(String name, byte[] first, byte[] last, long rows, long bytes,
    boolean linkable) {
    this(name, first, last, rows, bytes, linkable, null);
  }

  /** As above, with the file's row sketch (null when it records none). */
  public FileSummary(String name, byte[] first, byte[] last, long rows, long bytes,
    boolean linkable, RowSketch sketch) {
    this.name = name;
    this.first = first;
    this.last = last;
    this.rows = rows;
    this.bytes = bytes;
    this.linkable = linkable;
    this.sketch = sketch;
  }

  /** The file's statistics, or null without a sketch. */
  RowStats stats() {
    return sketch == null ? null : new RowStats(rows, bytes, sketch);
  }

  public String name() {
    return name;
  }

  double density() {
    return rows == 0 ? Double.MAX_VALUE : KeySpan.density(rows, first, last);
  }
}
