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

  /**
   * The region split policy every table with an RLSM family gets ({@code RlsmTables}); it makes
   * the master reference every store file at a split and leaves the decision to
   * {@link #SPLIT_POLICY_KEY}'s policy.
   */
  public static final String RLSM_SPLIT_POLICY_CLASS_NAME =
    "org.apache.hadoop.hbase.regionserver.RlsmRegionSplitPolicy";

  /**
   * Table value: the region split policy class that decides when and where an RLSM table's
   * regions split (any HBase {@code RegionSplitPolicy}: {@code SteppingSplitPolicy},
   * {@code ConstantSizeRegionSplitPolicy}, {@code IncreasingToUpperBoundRegionSplitPolicy},
   * {@code DisabledRegionSplitPolicy}, ...). Unset: {@code hbase.regionserver.region.split.policy},
   * else HBase's default {@code SteppingSplitPolicy}. A table's {@code SPLIT_POLICY} is moved
   * here at create and alter ({@code RlsmTables.complete}).
   */
  public static final String SPLIT_POLICY_KEY = "hbase.rlsm.split.policy";

  /** False-positive rate of the row Bloom filter written into every Level-0 file. */
  public static final String L0_BLOOM_FPP_KEY = "hbase.rlsm.l0.bloom.fpp";
  public static final double DEFAULT_L0_BLOOM_FPP = 0.01;

  /**
   * Value the table helper gives {@code hbase.hstore.blockingStoreFiles}: HBase's own default.
   * RLSM reports only Level-0 files as the store's file count, so the count blocks flushes only
   * when Level-0 is this deep (docs/architecture.md, "Compaction scheduling"); it is set
   * explicitly because HBase reads it before the engine exists (docs/install.md).
   */
  public static final int DEFAULT_BLOCKING_STORE_FILES = 16;

  /**
   * Whether opening a store file (region open, and every flush or compaction output) also reads
   * its whole data section and checks the data CRC and every record. Off by default: the
   * trailer, index, Bloom and meta sections are always checked at open, and each record's CRC
   * at every read, so damage is never served as data; this key makes damaged data fail the
   * region open too, at the cost of reading every byte of the store (RocksDB's paranoid
   * checks).
   */
  public static final String OPEN_VERIFY_DATA_KEY = "hbase.rlsm.open.verify.data";
  public static final boolean DEFAULT_OPEN_VERIFY_DATA = false;

  /**
   * The largest block of the data block index in the files an RLSM store writes: HBase's
   * {@code hfile.index.block.max.size} for the store, unless its family or table sets that key
   * itself. HBase's 128 KiB keeps a file of up to about 2,500 data blocks on a single-level
   * index, all of it pinned on the heap while the file is open; RLSM's files (flushes, segments
   * of bounded partitions) are that size, and a store holds hundreds. With small chunks their
   * index is multi-level: the root, a few entries, is pinned, and the leaf chunks are read
   * through HBase's BlockCache like the default engine's (docs/architecture.md, "Memory").
   */
  public static final String INDEX_BLOCK_MAX_SIZE_KEY = "hbase.rlsm.index.block.max.size";
  public static final int DEFAULT_INDEX_BLOCK_MAX_SIZE = 4096;

  private final double l0BloomFpp;
  private final boolean openVerifyData;
  private final int indexBlockMaxSize;

  public RlsmConfig(Configuration conf) {
    this.l0BloomFpp = conf.getDouble(L0_BLOOM_FPP_KEY, DEFAULT_L0_BLOOM_FPP);
    if (!(l0BloomFpp > 0 && l0BloomFpp < 1)) {
      throw new IllegalArgumentException(
        L0_BLOOM_FPP_KEY + " must be in (0, 1) but was " + l0BloomFpp);
    }
    this.openVerifyData = conf.getBoolean(OPEN_VERIFY_DATA_KEY, DEFAULT_OPEN_VERIFY_DATA);
    this.indexBlockMaxSize = conf.getInt(INDEX_BLOCK_MAX_SIZE_KEY, DEFAULT_INDEX_BLOCK_MAX_SIZE);
    if (indexBlockMaxSize < 1024) {
      throw new IllegalArgumentException(
        INDEX_BLOCK_MAX_SIZE_KEY + " must be at least 1024 but was " + indexBlockMaxSize);
    }
  }

  public int getIndexBlockMaxSize() {
    return indexBlockMaxSize;
  }

  public boolean isOpenVerifyData() {
    return openVerifyData;
  }

  public double getL0BloomFpp() {
    return l0BloomFpp;
  }
}
