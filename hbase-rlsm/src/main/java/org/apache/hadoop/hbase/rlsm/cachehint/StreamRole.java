package org.apache.hadoop.hbase.rlsm.cachehint;

/** Why a stream reads or writes; codes as {@code ulfs_stream_role} in ulfs.h. */
public enum StreamRole {
  /** User reads and writes (the default). */
  USER(0),
  /** A compaction reads the file once, sequentially: prefetched, never promoted. */
  COMPACTION_INPUT(1),
  /** A compaction writes the file. */
  COMPACTION_OUTPUT(2),
  /** A memstore flush writes the file. */
  FLUSH_OUTPUT(3);

  private final int code;

  StreamRole(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
