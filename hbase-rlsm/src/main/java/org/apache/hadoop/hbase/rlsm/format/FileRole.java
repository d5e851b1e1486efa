package org.apache.hadoop.hbase.rlsm.format;

/**
 * What a file is in the two-level RLSM tree. The code is stored in the trailer; codes are never
 * reused, so an old reader refuses a role it does not know instead of misreading it.
 */
public enum FileRole {
  /** Level-0: one memstore flush, rows in hash order, with a key-level Bloom filter. */
  FLUSH(0, 0),
  /**
   * Level-1: a segment written for one or more partitions by a range-append or a rewrite. (A
   * Level-0 file linked into Level-1 is a segment too but keeps its role {@link #FLUSH}.)
   */
  SEGMENT(1, 1),
  /**
   * Level-1 manifest: no rows; it records every Level-1 partition (range and segment files: a
   * checkpoint) or the partitions one compaction changed (an edit of the previous manifest).
   * Each compaction writes a new one as its commit point (see docs/format/rlsm-file.md).
   */
  MANIFEST(2, 1);

  private final int code;
  private final int level;

  FileRole(int code, int level) {
    this.code = code;
    this.level = level;
  }

  public int code() {
    return code;
  }

  public int level() {
    return level;
  }

  public static FileRole fromCode(int code) {
    for (FileRole r : values()) {
      if (r.code == code) {
        return r;
      }
    }
    return null;
  }
}
