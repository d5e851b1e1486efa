package org.apache.hadoop.hbase.rlsm;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.DefaultMemStore;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.regionserver.StoreScanner;
import org.apache.hadoop.hbase.rlsm.memstore.HashMemStoreConfig;

/**
 * Builds descriptors for tables whose families use the RLSM store engine, and completes
 * descriptors that name only the engine ({@link #complete}, applied at create and alter by
 * {@link RlsmMasterObserver}).
 *
 * <pre>
 * admin.createTable(RlsmTables.table(TableName.valueOf("t"), Bytes.toBytes("f")).build());
 * </pre>
 *
 * Such tables split and merge like any HBase table. They get the split policy
 * {@value RlsmConfig#RLSM_SPLIT_POLICY_CLASS_NAME}, which makes the master reference every RLSM
 * file (the Level-1 manifest included) in both daughters, and leaves when and where to split
 * to the policy named by the table value {@value RlsmConfig#SPLIT_POLICY_KEY} (HBase's default
 * when unset); a table's own {@code SPLIT_POLICY} is moved there (docs/architecture.md, "Split
 * and merge").
 *
 * <p>Why the family settings are needed, and why the engine cannot apply them itself: HBase's
 * {@code HStore} reads the memstore class and the blocking file count from the store
 * configuration before it creates the engine (docs/install.md). Scans must keep the
 * range-restricted file views they started with; HBase's switch from pread to stream re-opens
 * files by name, unrestricted (docs/architecture.md), hence the pread limit.
 */
public final class RlsmTables {
  /** HBase's name of the skip-list memstore, the one alternative to the hash memstore. */
  public static final String DEFAULT_MEMSTORE_CLASS_NAME = DefaultMemStore.class.getName();

  private RlsmTables() {
  }

  /** Family settings every RLSM family gets, in the order they are applied. */
  private static Map<String, String> familySettings() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(StoreEngine.STORE_ENGINE_CLASS_KEY, RlsmConfig.ENGINE_CLASS_NAME);
    m.put(HStore.BLOCKING_STOREFILES_KEY, Integer.toString(RlsmConfig.DEFAULT_BLOCKING_STORE_FILES));
    m.put(StoreScanner.STORESCANNER_PREAD_MAX_BYTES, Long.toString(Long.MAX_VALUE));
    // HBase honours the memstore class only without in-memory compaction.
    m.put(HStore.MEMSTORE_CLASS_NAME, HashMemStoreConfig.MEMSTORE_CLASS_NAME);
    return m;
  }

  /**
   * Applies the RLSM engine settings to a family builder (keeps everything else), including the
   * hash memstore; {@link #useDefaultMemStore} switches the family back to HBase's memstore.
   */
  public static ColumnFamilyDescriptorBuilder configure(ColumnFamilyDescriptorBuilder b) {
    familySettings().forEach(b::setConfiguration);
    return b.setInMemoryCompaction(MemoryCompactionPolicy.NONE);
  }

  /**
   * Switches a family configured by {@link #configure} to HBase's default skip-list memstore (the
   * RLSM engine and its hash-ordered files stay). The class is named explicitly so that
   * {@link #complete} keeps the choice.
   */
  public static ColumnFamilyDescriptorBuilder useDefaultMemStore(ColumnFamilyDescriptorBuilder b) {
    return b.setConfiguration(HStore.MEMSTORE_CLASS_NAME, DEFAULT_MEMSTORE_CLASS_NAME);
  }

  /** A family builder with RLSM settings, for callers that set versions, TTL and so on. */
  public static ColumnFamilyDescriptorBuilder familyBuilder(byte[] name) {
    return configure(ColumnFamilyDescriptorBuilder.newBuilder(name));
  }

  public static ColumnFamilyDescriptor family(byte[] name) {
    return familyBuilder(name).build();
  }

  /** Gives the table RLSM's split policy (see the class comment). */
  public static TableDescriptorBuilder configure(TableDescriptorBuilder b) {
    return b.setRegionSplitPolicyClassName(RlsmConfig.RLSM_SPLIT_POLICY_CLASS_NAME);
  }

  /**
   * Has the RLSM table decide splits by {@code policy}, a {@code RegionSplitPolicy} class name
   * (recorded as {@value RlsmConfig#SPLIT_POLICY_KEY}).
   */
  public static TableDescriptorBuilder splitPolicy(TableDescriptorBuilder b, String policy) {
    return b.setValue(RlsmConfig.SPLIT_POLICY_KEY, policy);
  }

  /** A table builder whose given families all use RLSM. */
  public static TableDescriptorBuilder table(TableName name, byte[]... families) {
    TableDescriptorBuilder b = configure(TableDescriptorBuilder.newBuilder(name));
    for (byte[] f : families) {
      b.setColumnFamily(family(f));
    }
    return b;
  }

  /**
   * A setting of a family as its store sees it: the family's values, then its configuration, then
   * the table's values (HBase's {@code StoreUtils.createStoreConfiguration}, without the site
   * file), or null.
   */
  static String effective(TableDescriptor td, ColumnFamilyDescriptor f, String key) {
    String v = f.getValue(key);
    if (v == null) {
      v = f.getConfigurationValue(key);
    }
    return v != null ? v : td.getValue(key);
  }

  /** Whether the family's store uses the RLSM engine. */
  public static boolean usesRlsm(TableDescriptor td, ColumnFamilyDescriptor f) {
    return RlsmConfig.ENGINE_CLASS_NAME.equals(
      effective(td, f, StoreEngine.STORE_ENGINE_CLASS_KEY));
  }

  /**
   * The descriptor with every RLSM family (one whose store resolves
   * {@code hbase.hstore.engine.class} to the RLSM engine, set on the family or the table) given
   * the settings of {@link #configure} it does not set itself, and the table given RLSM's split
   * policy, a {@code SPLIT_POLICY} of its own moving to {@value RlsmConfig#SPLIT_POLICY_KEY}.
   * Settings a family does set are kept when RLSM works with them (a blocking file count,
   * HBase's default memstore); the others fail.
   * @throws DoNotRetryIOException naming the family and setting that RLSM cannot work with
   */
  public static TableDescriptor complete(TableDescriptor td) throws DoNotRetryIOException {
    TableDescriptorBuilder b = null;
    for (ColumnFamilyDescriptor f : td.getColumnFamilies()) {
      if (!usesRlsm(td, f)) {
        continue;
      }
      refuseConflicts(td, f);
      ColumnFamilyDescriptorBuilder fb = ColumnFamilyDescriptorBuilder.newBuilder(f);
      for (Map.Entry<String, String> e : familySettings().entrySet()) {
        if (effective(td, f, e.getKey()) == null) {
          fb.setConfiguration(e.getKey(), e.getValue());
        }
      }
      fb.setInMemoryCompaction(MemoryCompactionPolicy.NONE);
      if (b == null) {
        b = TableDescriptorBuilder.newBuilder(td);
      }
      b.modifyColumnFamily(fb.build());
    }
    if (b == null) {
      return td;
    }
    String policy = td.getRegionSplitPolicyClassName();
    if (policy != null && !policy.equals(RlsmConfig.RLSM_SPLIT_POLICY_CLASS_NAME)) {
      splitPolicy(b, policy);
    } else {
      policy = td.getValue(RlsmConfig.SPLIT_POLICY_KEY);
    }
    if (policy != null) {
      checkSplitPolicy(td, policy);
    }
    return configure(b).build();
  }

  private static void checkSplitPolicy(TableDescriptor td, String policy)
    throws DoNotRetryIOException {
    try {
      Class.forName(policy).asSubclass(RegionSplitPolicy.class);
    } catch (ClassNotFoundException | ClassCastException e) {
      throw new DoNotRetryIOException("Table " + td.getTableName() + " uses "
        + RlsmConfig.ENGINE_CLASS_NAME + " and names the split policy " + policy
        + ", which is not a " + RegionSplitPolicy.class.getName() + " on the class path", e);
    }
  }

  private static void refuseConflicts(TableDescriptor td, ColumnFamilyDescriptor f)
    throws DoNotRetryIOException {
    if (f.isMobEnabled()) {
      // HBase gives a MOB family its own MobStoreEngine, so the RLSM engine would be ignored
      throw refusal(td, f, "IS_MOB => true", "HBase stores MOB families with its MobStoreEngine,"
        + " which would silently replace the RLSM engine; use a family without MOB");
    }
    MemoryCompactionPolicy imc = f.getInMemoryCompaction();
    if (imc != null && imc != MemoryCompactionPolicy.NONE) {
      throw refusal(td, f, "IN_MEMORY_COMPACTION => '" + imc + "'",
        "the RLSM engine has no in-memory compaction; set IN_MEMORY_COMPACTION => 'NONE'");
    }
    String memstore = effective(td, f, HStore.MEMSTORE_CLASS_NAME);
    if (memstore != null && !memstore.equals(HashMemStoreConfig.MEMSTORE_CLASS_NAME)
      && !memstore.equals(DEFAULT_MEMSTORE_CLASS_NAME)) {
      throw refusal(td, f, HStore.MEMSTORE_CLASS_NAME + " = " + memstore, "RLSM families use "
        + HashMemStoreConfig.MEMSTORE_CLASS_NAME + " (default) or " + DEFAULT_MEMSTORE_CLASS_NAME);
    }
    String pread = effective(td, f, StoreScanner.STORESCANNER_PREAD_MAX_BYTES);
    if (pread != null && !pread.trim().equals(Long.toString(Long.MAX_VALUE))) {
      throw refusal(td, f, StoreScanner.STORESCANNER_PREAD_MAX_BYTES + " = " + pread,
        "RLSM scans must never switch to stream reads, which would bypass the Level-1 file "
          + "views; remove the setting");
    }
  }

  private static DoNotRetryIOException refusal(TableDescriptor td, ColumnFamilyDescriptor f,
    String setting, String why) {
    return new DoNotRetryIOException("Family " + f.getNameAsString() + " of table "
      + td.getTableName() + " uses " + RlsmConfig.ENGINE_CLASS_NAME + " but sets " + setting
      + ": " + why);
  }
}
