package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmTestStores;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.memstore.HashMemStoreConfig;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * With {@code RlsmMasterObserver} on the master (docs/install.md), a family that sets only the
 * engine key, at create or by alter, gets a store with everything RLSM needs; what cannot work
 * is refused at create and alter with a message naming the setting.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmOneSetting {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmOneSetting.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER =
    new RlsmMiniClusterRule(1, RlsmTestCluster::completeRlsmDescriptors);
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static ColumnFamilyDescriptorBuilder engineOnly() {
    return ColumnFamilyDescriptorBuilder.newBuilder(F)
      .setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY, RlsmConfig.ENGINE_CLASS_NAME);
  }

  /** The store as the RegionServer opened it: engine, memstore, blocking count, pread limit. */
  private static void assertRlsmStore(TableName tn) throws Exception {
    HStore store = util.getHBaseCluster().getRegions(tn).get(0).getStore(F);
    assertTrue(store.getStoreEngine() instanceof RlsmStoreEngine);
    assertEquals(HashMemStoreConfig.MEMSTORE_CLASS_NAME, RlsmTestStores.memStoreClass(store).getName());
    assertEquals(RlsmConfig.DEFAULT_BLOCKING_STORE_FILES, store.getBlockingFileCount());
    TableDescriptor td = util.getAdmin().getDescriptor(tn);
    assertTrue(td.isSplitEnabled());
    assertTrue(td.isMergeEnabled());
    assertEquals(RlsmConfig.RLSM_SPLIT_POLICY_CLASS_NAME, td.getRegionSplitPolicyClassName());
  }

  @Test
  public void createWithOnlyTheEngineKey() throws Exception {
    TableName tn = TableName.valueOf("one_setting_create");
    util.getAdmin().createTable(
      TableDescriptorBuilder.newBuilder(tn).setColumnFamily(engineOnly().build()).build());
    assertRlsmStore(tn);
    try (Table t = util.getConnection().getTable(tn)) {
      t.put(new Put(Bytes.toBytes("r")).addColumn(F, Q, Bytes.toBytes("v")));
      util.flush(tn);
      assertArrayEquals(Bytes.toBytes("v"), t.get(new Get(Bytes.toBytes("r"))).getValue(F, Q));
    }
  }

  @Test
  public void alterDefaultTableWithOnlyTheEngineKey() throws Exception {
    TableName tn = TableName.valueOf("one_setting_alter");
    Admin admin = util.getAdmin();
    admin.createTable(TableDescriptorBuilder.newBuilder(tn)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
    try (Table t = util.getConnection().getTable(tn)) {
      for (int i = 0; i < 50; i++) {
        t.put(new Put(Bytes.toBytes("r" + i)).addColumn(F, Q, Bytes.toBytes("v" + i)));
      }
      util.flush(tn);
      admin.modifyColumnFamily(tn, engineOnly().build());
      assertRlsmStore(tn);
      t.put(new Put(Bytes.toBytes("r50")).addColumn(F, Q, Bytes.toBytes("v50")));
      util.flush(tn);
      for (int i = 0; i <= 50; i++) {
        assertArrayEquals(Bytes.toBytes("v" + i),
          t.get(new Get(Bytes.toBytes("r" + i))).getValue(F, Q));
      }
    }
  }

  @Test
  public void inMemoryCompactionIsRefusedAtCreateAndAlter() throws Exception {
    Admin admin = util.getAdmin();
    TableName tn = TableName.valueOf("one_setting_refused");
    try {
      admin.createTable(TableDescriptorBuilder.newBuilder(tn).setColumnFamily(
        engineOnly().setInMemoryCompaction(MemoryCompactionPolicy.BASIC).build()).build());
      fail("created an RLSM family with in-memory compaction");
    } catch (DoNotRetryIOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("IN_MEMORY_COMPACTION => 'BASIC'"));
    }
    assertFalse(admin.tableExists(tn));
    admin.createTable(TableDescriptorBuilder.newBuilder(tn).setColumnFamily(engineOnly().build())
      .build());
    try {
      admin.modifyColumnFamily(tn,
        engineOnly().setInMemoryCompaction(MemoryCompactionPolicy.EAGER).build());
      fail("altered an RLSM family to in-memory compaction");
    } catch (DoNotRetryIOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("IN_MEMORY_COMPACTION => 'EAGER'"));
    }
    assertRlsmStore(tn);
  }
}
