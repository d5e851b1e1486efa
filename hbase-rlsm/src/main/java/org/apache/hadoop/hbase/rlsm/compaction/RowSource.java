package org.apache.hadoop.hbase.rlsm.compaction;

/**
 * Row keys of files, read from their data (the glue reads them through HBase's pread scanner),
 * and the two sizes of a file its file-info holds: only a plan's {@link CompactionPlan.Layout}
 * asks, on the compaction thread.
 */
public interface RowSource {
  /** Rows of {@code file} within {@code [low, high]}, ascending; null bounds are open. */
  byte[][] rows(String file, byte[] low, byte[] high);

  /** The file's length in bytes (file-info, no data read). */
  long length(String file);

  /** The file's distinct rows (file-info, no data read). */
  long rowCount(String file);
}
