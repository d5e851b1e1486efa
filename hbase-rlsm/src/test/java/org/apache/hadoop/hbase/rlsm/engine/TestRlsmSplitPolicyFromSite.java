package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.regionserver.StoreScanner;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * RLSM made the engine of every store by the site configuration, with RLSM's split policy as the
 * site's default policy, tables naming neither: the master instantiates a split policy only when
 * the table descriptor names one, so it would split such a region as HFiles. Without
 * {@code RlsmMasterObserver} the split is refused and the region stays open and readable; with
 * the observer (the master restarted with it), an alter completes the existing table and a new
 * table is completed at create, and both split with their content intact.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmSplitPolicyFromSite {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmSplitPolicyFromSite.class);

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER =
    new RlsmMiniClusterRule(1, TestRlsmSplitPolicyFromSite::rlsmSite);
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int ROWS = 400;

  /** The site settings of rlsm-everywhere-site.xml, without the master observer. */
  private static void rlsmSite(Configuration conf) {
    conf.set(StoreEngine.STORE_ENGINE_CLASS_KEY, RlsmConfig.ENGINE_CLASS_NAME);
    conf.setLong(StoreScanner.STORESCANNER_PREAD_MAX_BYTES, Long.MAX_VALUE);
    conf.set(HConstants.HBASE_REGION_SPLIT_POLICY_KEY, RlsmConfig.RLSM_SPLIT_POLICY_CLASS_NAME);
  }

  /** A table naming no engine and no split policy, with rows written, flushed and compacted. */
  private static TableName load(String name) throws IOException {
    TableName tn = TableName.valueOf(name);
    util.getAdmin().createTable(TableDescriptorBuilder.newBuilder(tn)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
    assertTrue(regions(tn).get(0).getStore(F).getStoreEngine() instanceof RlsmStoreEngine);
    try (Table t = util.getConnection().getTable(tn)) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        puts.add(new Put(row(i)).addColumn(F, Q, Bytes.toBytes("v" + i)));
      }
      t.put(puts);
    }
    util.flush(tn);
    util.compact(tn, true); // Level-1: segments and a manifest, the file without cells
    return tn;
  }

  private static List<HRegion> regions(TableName tn) {
    return util.getHBaseCluster().getRegions(tn);
  }

  private static void assertContent(TableName tn) throws IOException {
    try (Table t = util.getConnection().getTable(tn)) {
      for (int i = 0; i < ROWS; i++) {
        assertArrayEquals("row " + i, Bytes.toBytes("v" + i),
          t.get(new Get(row(i))).getValue(F, Q));
      }
    }
  }

  /** Splits at row 200 and waits for two open daughters; the content is unchanged. */
  private static void assertSplits(TableName tn) throws Exception {
    assertEquals(RlsmConfig.RLSM_SPLIT_POLICY_CLASS_NAME,
      util.getAdmin().getDescriptor(tn).getRegionSplitPolicyClassName());
    util.getAdmin().split(tn, row(ROWS / 2));
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> regions(tn).size() == 2
      && util.getAdmin().getRegions(tn).size() == 2);
    util.waitUntilNoRegionsInTransition(RlsmTestCluster.HANG_GUARD_MS);
    assertContent(tn);
  }

  @Test
  public void splitNeedsThePolicyOnTheDescriptor() throws Exception {
    Admin admin = util.getAdmin();
    TableName existing = load("site_only_existing");
    assertNull(admin.getDescriptor(existing).getRegionSplitPolicyClassName());
    try {
      admin.split(existing, row(ROWS / 2));
      fail("split a region whose descriptor does not name RLSM's split policy");
    } catch (DoNotRetryIOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("NOT splittable"));
    }
    assertEquals(1, admin.getRegions(existing).size());
    assertTrue(regions(existing).get(0).isAvailable());
    assertContent(existing);

    // The operator enables the observer on the master (docs/install.md) and alters the table.
    MiniHBaseCluster cluster = util.getMiniHBaseCluster();
    // the cluster's own copy of the configuration, which a master started later reads
    RlsmTestCluster.completeRlsmDescriptors(cluster.getConf());
    cluster.stopMaster(0).join();
    cluster.startMaster();
    assertTrue(cluster.waitForActiveAndReadyMaster(RlsmTestCluster.HANG_GUARD_MS));
    admin = util.getAdmin();
    admin.modifyTable(admin.getDescriptor(existing));
    assertEquals(RlsmConfig.ENGINE_CLASS_NAME, admin.getDescriptor(existing).getColumnFamily(F)
      .getConfigurationValue(StoreEngine.STORE_ENGINE_CLASS_KEY));
    assertSplits(existing);

    assertSplits(load("site_only_created"));
  }
}
