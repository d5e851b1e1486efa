package org.apache.hadoop.hbase.rlsm.memstore;

import org.apache.hadoop.conf.Configuration;

/**
 * Configuration of the RLSM hash memstore, read from the store's configuration (so it can be set
 * per column family). Listed with defaults in docs/configuration.md.
 */
public final class HashMemStoreConfig {
  /** What HBase's {@code hbase.regionserver.memstore.class} names to use the hash memstore. */
  public static final String MEMSTORE_CLASS_NAME =
    "org.apache.hadoop.hbase.regionserver.RlsmHashMemStore";

  /**
   * Largest number of cells a row keeps in its copy-on-write sorted array; a row that grows beyond
   * it (a hot counter, many versions) switches to a concurrent skip list so that each further write
   * costs O(log n) instead of copying the row.
   */
  public static final String ROW_ARRAY_MAX_CELLS_KEY = "hbase.rlsm.memstore.row.array.max.cells";
  public static final int DEFAULT_ROW_ARRAY_MAX_CELLS = 64;

  private final int rowArrayMaxCells;

  public HashMemStoreConfig(Configuration conf) {
    this.rowArrayMaxCells = conf.getInt(ROW_ARRAY_MAX_CELLS_KEY, DEFAULT_ROW_ARRAY_MAX_CELLS);
    if (rowArrayMaxCells < 1) {
      throw new IllegalArgumentException(
        ROW_ARRAY_MAX_CELLS_KEY + " must be at least 1 but was " + rowArrayMaxCells);
    }
  }

  public int getRowArrayMaxCells() {
    return rowArrayMaxCells;
  }
}
