package org.apache.hadoop.hbase.rlsm.compaction;

/** Row keys of files, read from their in-memory indexes (no data I/O). */
public interface RowSource {
  /** Rows of {@code file} within {@code [low, high]}, ascending; null bounds are open. */
  byte[][] rows(String file, byte[] low, byte[] high);
}
