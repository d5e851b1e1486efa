package org.apache.hadoop.hbase.rlsm.compaction;

/**
 * Row keys of files, read from their data (the glue reads them through HBase's pread scanner):
 * only a plan's {@link CompactionPlan.Layout} asks, on the compaction thread.
 */
public interface RowSource {
  /** Rows of {@code file} within {@code [low, high]}, ascending; null bounds are open. */
  byte[][] rows(String file, byte[] low, byte[] high);
}
