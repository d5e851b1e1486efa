package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * A region whose descriptor names only the engine, opened without the master's descriptor
 * completion (docs/install.md): the engine applies the pread limit itself, and refuses in-memory
 * compaction.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmStoreSettings {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmStoreSettings.class);

  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();
  private static final byte[] F = Bytes.toBytes("f");

  @AfterClass
  public static void cleanUp() throws IOException {
    UTIL.cleanupTestDir();
  }

  private static HRegion open(String name, ColumnFamilyDescriptorBuilder family)
    throws IOException {
    family.setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY, RlsmConfig.ENGINE_CLASS_NAME);
    TableDescriptor td = TableDescriptorBuilder.newBuilder(TableName.valueOf(name))
      .setColumnFamily(family.build()).build();
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    return HBaseTestingUtility.createRegionAndWAL(info, UTIL.getDataTestDir(name),
      UTIL.getConfiguration(), td);
  }

  @Test
  public void engineAppliesThePreadLimitItself() throws IOException {
    HRegion region = open("engine_only", ColumnFamilyDescriptorBuilder.newBuilder(F));
    try {
      HStore store = region.getStore(F);
      assertTrue(store.getStoreEngine() instanceof RlsmStoreEngine);
      assertEquals(Long.MAX_VALUE, store.getScanInfo().getPreadMaxBytes());
      // What the engine cannot apply stays HBase's default (logged).
      assertEquals(DefaultMemStore.class, store.memstore.getClass());
    } finally {
      HBaseTestingUtility.closeRegionAndWAL(region);
    }
  }

  @Test
  public void inMemoryCompactionFailsTheOpen() throws IOException {
    try {
      HRegion region = open("in_memory_compaction", ColumnFamilyDescriptorBuilder.newBuilder(F)
        .setInMemoryCompaction(MemoryCompactionPolicy.BASIC));
      HBaseTestingUtility.closeRegionAndWAL(region);
      fail("opened an RLSM store with in-memory compaction");
    } catch (IOException e) {
      // HRegion opens stores in a pool and wraps what they throw.
      Throwable t = e;
      while (t != null && !(t instanceof DoNotRetryIOException)) {
        t = t.getCause();
      }
      assertTrue("not refused by the engine: " + e, t != null
        && t.getMessage().contains("IN_MEMORY_COMPACTION => 'NONE'"));
    }
  }
}
