package org.apache.hadoop.hbase.rlsm.compaction;

/** What the planner knows of a Level-0 file: name, row range, row count and size. */
public final class FileSummary {
  final String name;
  final byte[] first; // null when the file has no rows
  final byte[] last;
  final long rows;
  final long bytes;
  final boolean linkable;

  /**
   * @param linkable whether the file may become a Level-1 segment as it is (RLSM files); other
   *                 files (bulk-loaded HFiles) are always rewritten by a range-append
   */
  public FileSummary(String name, byte[] first, byte[] last, long rows, long bytes,
    boolean linkable) {
    this.name = name;
    this.first = first;
    this.last = last;
    this.rows = rows;
    this.bytes = bytes;
    this.linkable = linkable;
  }

  public String name() {
    return name;
  }

  double density() {
    return rows == 0 ? Double.MAX_VALUE : KeySpan.density(rows, first, last);
  }
}
