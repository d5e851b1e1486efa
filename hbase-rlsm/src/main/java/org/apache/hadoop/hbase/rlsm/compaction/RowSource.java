package org.apache.hadoop.hbase.rlsm.compaction;

import org.apache.hadoop.hbase.rlsm.index.RowQuantiles;

/**
 * Row keys of files, read from their data (the glue reads them through HBase's pread scanner),
 * and what a file records of its rows (length, row count, quantiles): only a plan's
 * {@link CompactionPlan.Layout} asks, on the compaction thread.
 */
public interface RowSource {
  /** Rows of {@code file} within {@code [low, high]}, ascending; null bounds are open. */
  byte[][] rows(String file, byte[] low, byte[] high);

  /**
   * How many rows {@code file} holds within {@code [low, high]}, read as {@link #rows} reads them
   * but without holding them, so that memory stays bounded whatever the count.
   */
  long count(String file, byte[] low, byte[] high);

  /** The file's length in bytes (file-info, no data read). */
  long length(String file);

  /** The file's distinct rows (file-info, no data read). */
  long rowCount(String file);

  /**
   * The file's row quantiles (a meta block, or file-info in older files; no data block read);
   * null when the file records none (a v1 file, a bulk load, a file written before they
   * existed).
   */
  RowQuantiles quantiles(String file);
}
