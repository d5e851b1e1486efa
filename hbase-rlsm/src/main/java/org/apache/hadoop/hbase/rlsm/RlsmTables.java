package org.apache.hadoop.hbase.rlsm;

import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.regionserver.StoreScanner;
import org.apache.hadoop.hbase.rlsm.memstore.HashMemStoreConfig;

/**
 * Builds descriptors for tables whose families use the RLSM store engine.
 *
 * <pre>
 * admin.createTable(RlsmTables.table(TableName.valueOf("t"), Bytes.toBytes("f")).build());
 * </pre>
 *
 * Region split and merge are disabled for such tables: RLSM files cannot yet be split by
 * reference files, so {@code Admin.split} fails with HBase's {@code DoNotRetryIOException}
 * ("region split is disabled for the table") instead of producing unreadable daughters.
 */
public final class RlsmTables {
  private RlsmTables() {
  }

  /**
   * Applies the RLSM engine settings to a family builder (keeps everything else), including the
   * hash memstore; {@link #useDefaultMemStore} switches the family back to HBase's memstore.
   */
  public static ColumnFamilyDescriptorBuilder configure(ColumnFamilyDescriptorBuilder b) {
    return b.setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY, RlsmConfig.ENGINE_CLASS_NAME)
      // Scans must keep the range-restricted file views they started with; HBase's switch from
      // pread to stream re-opens files by name, unrestricted (see docs/architecture.md).
      .setConfiguration(StoreScanner.STORESCANNER_PREAD_MAX_BYTES, Long.toString(Long.MAX_VALUE))
      // HBase honours the memstore class only without in-memory compaction.
      .setConfiguration(HStore.MEMSTORE_CLASS_NAME, HashMemStoreConfig.MEMSTORE_CLASS_NAME)
      .setInMemoryCompaction(MemoryCompactionPolicy.NONE);
  }

  /**
   * Switches a family configured by {@link #configure} back to HBase's default skip-list memstore
   * (the RLSM engine and its hash-ordered files stay).
   */
  public static ColumnFamilyDescriptorBuilder useDefaultMemStore(ColumnFamilyDescriptorBuilder b) {
    return b.removeConfiguration(HStore.MEMSTORE_CLASS_NAME);
  }

  /** A family builder with RLSM settings, for callers that set versions, TTL and so on. */
  public static ColumnFamilyDescriptorBuilder familyBuilder(byte[] name) {
    return configure(ColumnFamilyDescriptorBuilder.newBuilder(name));
  }

  public static ColumnFamilyDescriptor family(byte[] name) {
    return familyBuilder(name).build();
  }

  /** Disables split and merge, which RLSM files do not support yet. */
  public static TableDescriptorBuilder configure(TableDescriptorBuilder b) {
    return b.setRegionSplitPolicyClassName(DisabledRegionSplitPolicy.class.getName())
      .setSplitEnabled(false).setMergeEnabled(false);
  }

  /** A table builder whose given families all use RLSM. */
  public static TableDescriptorBuilder table(TableName name, byte[]... families) {
    TableDescriptorBuilder b = configure(TableDescriptorBuilder.newBuilder(name));
    for (byte[] f : families) {
      b.setColumnFamily(family(f));
    }
    return b;
  }
}
