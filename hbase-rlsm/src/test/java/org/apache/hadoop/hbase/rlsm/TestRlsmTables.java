package org.apache.hadoop.hbase.rlsm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.RlsmRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.regionserver.StoreScanner;
import org.apache.hadoop.hbase.rlsm.memstore.HashMemStoreConfig;
import org.apache.hadoop.hbase.testclassification.MiscTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** {@link RlsmTables#complete}: what a descriptor naming only the engine becomes, or why not. */
@Category({ SmallTests.class, MiscTests.class })
public class TestRlsmTables {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmTables.class);

  private static final TableName T = TableName.valueOf("t");
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] G = Bytes.toBytes("g");

  private static ColumnFamilyDescriptorBuilder engineOnly(byte[] name) {
    return ColumnFamilyDescriptorBuilder.newBuilder(name)
      .setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY, RlsmConfig.ENGINE_CLASS_NAME);
  }

  private static TableDescriptor table(ColumnFamilyDescriptor... families) {
    return TableDescriptorBuilder.newBuilder(T).setColumnFamilies(java.util.List.of(families))
      .build();
  }

  private static void assertRlsmFamily(TableDescriptor td, byte[] family) {
    ColumnFamilyDescriptor f = td.getColumnFamily(family);
    assertEquals(HashMemStoreConfig.MEMSTORE_CLASS_NAME,
      f.getConfigurationValue(HStore.MEMSTORE_CLASS_NAME));
    assertEquals(Long.toString(Long.MAX_VALUE),
      f.getConfigurationValue(StoreScanner.STORESCANNER_PREAD_MAX_BYTES));
    assertEquals(Integer.toString(RlsmConfig.DEFAULT_BLOCKING_STORE_FILES),
      f.getConfigurationValue(HStore.BLOCKING_STOREFILES_KEY));
    assertEquals(MemoryCompactionPolicy.NONE, f.getInMemoryCompaction());
    assertTrue(td.isSplitEnabled());
    assertTrue(td.isMergeEnabled());
    assertEquals(RlsmConfig.RLSM_SPLIT_POLICY_CLASS_NAME, td.getRegionSplitPolicyClassName());
  }

  @Test
  public void splitPolicyClassNameIsTheGlueClass() {
    assertEquals(RlsmRegionSplitPolicy.class.getName(), RlsmConfig.RLSM_SPLIT_POLICY_CLASS_NAME);
  }

  @Test
  public void ownSplitPolicyMovesToTheDelegateKey() throws Exception {
    TableDescriptor td = RlsmTables.complete(TableDescriptorBuilder.newBuilder(T)
      .setRegionSplitPolicyClassName(ConstantSizeRegionSplitPolicy.class.getName())
      .setColumnFamily(engineOnly(F).build()).build());
    assertRlsmFamily(td, F);
    assertEquals(ConstantSizeRegionSplitPolicy.class.getName(),
      td.getValue(RlsmConfig.SPLIT_POLICY_KEY));
    assertEquals(td, RlsmTables.complete(td));
  }

  @Test
  public void engineKeyOnFamilyGetsWhatConfigureSets() throws Exception {
    TableDescriptor td = RlsmTables.complete(table(engineOnly(F).build(),
      ColumnFamilyDescriptorBuilder.of(G)));
    assertRlsmFamily(td, F);
    ColumnFamilyDescriptor expected = RlsmTables.family(F);
    assertEquals(expected.getConfiguration(), td.getColumnFamily(F).getConfiguration());
    // The other family keeps HBase's defaults.
    assertTrue(td.getColumnFamily(G).getConfiguration().isEmpty());
    assertEquals(null, td.getColumnFamily(G).getInMemoryCompaction());
  }

  @Test
  public void engineKeyOnTableReachesEveryFamily() throws Exception {
    TableDescriptor td = RlsmTables.complete(TableDescriptorBuilder.newBuilder(T)
      .setValue(StoreEngine.STORE_ENGINE_CLASS_KEY, RlsmConfig.ENGINE_CLASS_NAME)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F))
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of(G)).build());
    assertRlsmFamily(td, F);
    assertRlsmFamily(td, G);
  }

  @Test
  public void tableWithoutRlsmIsUnchanged() throws Exception {
    TableDescriptor td = table(ColumnFamilyDescriptorBuilder.of(F));
    assertSame(td, RlsmTables.complete(td));
  }

  @Test
  public void settingsRlsmWorksWithAreKept() throws Exception {
    TableDescriptor td = RlsmTables.complete(table(RlsmTables.useDefaultMemStore(engineOnly(F))
      .setConfiguration(HStore.BLOCKING_STOREFILES_KEY, "77").build()));
    ColumnFamilyDescriptor f = td.getColumnFamily(F);
    assertEquals(RlsmTables.DEFAULT_MEMSTORE_CLASS_NAME,
      f.getConfigurationValue(HStore.MEMSTORE_CLASS_NAME));
    assertEquals("77", f.getConfigurationValue(HStore.BLOCKING_STOREFILES_KEY));
    // Completing twice changes nothing (alter after create).
    assertEquals(td, RlsmTables.complete(td));
  }

  private static void assertRefused(TableDescriptor td, String... words) {
    try {
      RlsmTables.complete(td);
      fail("accepted " + td);
    } catch (DoNotRetryIOException e) {
      for (String w : words) {
        assertTrue(e.getMessage(), e.getMessage().contains(w));
      }
    }
  }

  @Test
  public void conflictsAreRefusedNamingTheSetting() {
    assertRefused(table(engineOnly(F).setMobEnabled(true).build()), "Family f", "IS_MOB => true",
      "MobStoreEngine");
    assertRefused(table(engineOnly(F).setInMemoryCompaction(MemoryCompactionPolicy.BASIC).build()),
      "Family f", "IN_MEMORY_COMPACTION => 'BASIC'", "'NONE'");
    assertRefused(table(engineOnly(F).setConfiguration(HStore.MEMSTORE_CLASS_NAME,
      "org.apache.hadoop.hbase.regionserver.CompactingMemStore").build()),
      HStore.MEMSTORE_CLASS_NAME, "CompactingMemStore");
    assertRefused(table(engineOnly(F)
      .setConfiguration(StoreScanner.STORESCANNER_PREAD_MAX_BYTES, "65536").build()),
      StoreScanner.STORESCANNER_PREAD_MAX_BYTES, "65536");
    assertRefused(TableDescriptorBuilder.newBuilder(T).setRegionSplitPolicyClassName("no.Such")
      .setColumnFamily(engineOnly(F).build()).build(), "split policy no.Such");
    assertRefused(TableDescriptorBuilder.newBuilder(T)
      .setValue(RlsmConfig.SPLIT_POLICY_KEY, "java.lang.String")
      .setColumnFamily(engineOnly(F).build()).build(), "split policy java.lang.String");
  }
}
