package org.apache.hadoop.hbase.rlsm;

import org.apache.hadoop.conf.Configuration;

/**
 * Configuration keys of the RLSM store engine, read from the store's configuration (global site
 * file, then table, then column family values), so each can be set per column family. Every key
 * is listed with its default in docs/configuration.md and conf/hbase-site.xml.
 */
public final class RlsmConfig {
  /** The engine class; a family uses RLSM when {@code hbase.hstore.engine.class} names it. */
  public static final String ENGINE_CLASS_NAME =
    "org.apache.hadoop.hbase.regionserver.RlsmStoreEngine";

  /** False-positive rate of the row Bloom filter written into every Level-0 file. */
  public static final String L0_BLOOM_FPP_KEY = "hbase.rlsm.l0.bloom.fpp";
  public static final double DEFAULT_L0_BLOOM_FPP = 0.01;

  /**
   * Value the table helper gives {@code hbase.hstore.blockingStoreFiles}: Level-1 partitions
   * count as store files, so HBase's default of 16 would stall flushes as data grows.
   */
  public static final int DEFAULT_BLOCKING_STORE_FILES = 1000;

  private final double l0BloomFpp;

  public RlsmConfig(Configuration conf) {
    this.l0BloomFpp = conf.getDouble(L0_BLOOM_FPP_KEY, DEFAULT_L0_BLOOM_FPP);
    if (!(l0BloomFpp > 0 && l0BloomFpp < 1)) {
      throw new IllegalArgumentException(
        L0_BLOOM_FPP_KEY + " must be in (0, 1) but was " + l0BloomFpp);
    }
  }

  public double getL0BloomFpp() {
    return l0BloomFpp;
  }
}
