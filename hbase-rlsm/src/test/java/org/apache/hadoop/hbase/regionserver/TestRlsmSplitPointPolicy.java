package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * An RLSM store proposes a split point only when its table's descriptor names RLSM's split
 * policy: with HBase's own policy on a descriptor without it (no {@code RlsmMasterObserver}) the
 * master would split the RLSM files as HFiles and the daughters could not open, so no automatic
 * split and no split without a row may be requested.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmSplitPointPolicy {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmSplitPointPolicy.class);

  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();

  @AfterClass
  public static void cleanUp() throws IOException {
    UTIL.cleanupTestDir();
  }

  private static Optional<byte[]> splitPointOf(TableDescriptor td) throws IOException {
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    HRegion r = HBaseTestingUtility.createRegionAndWAL(info,
      UTIL.getDataTestDir(td.getTableName().getNameAsString()), UTIL.getConfiguration(), td);
    try {
      RlsmLayouts.load(r, 2);
      assertTrue("several partitions",
        RlsmStoreProbe.partitionLows(r.getStore(RlsmLayouts.F)).size() >= 2);
      return r.checkSplit(true);
    } finally {
      HBaseTestingUtility.closeRegionAndWAL(r);
    }
  }

  @Test
  public void splitPointOnlyWhenTheDescriptorNamesRlsmsPolicy() throws IOException {
    TableDescriptor named = RlsmLayouts.smallPartitions("split_policy_named");
    assertEquals(RlsmConfig.RLSM_SPLIT_POLICY_CLASS_NAME,
      named.getRegionSplitPolicyClassName());
    assertTrue("a partition boundary", splitPointOf(named).isPresent());

    TableDescriptor unnamed =
      TableDescriptorBuilder.newBuilder(RlsmLayouts.smallPartitions("split_policy_unnamed"))
        .setRegionSplitPolicyClassName(null).build();
    assertEquals(null, unnamed.getRegionSplitPolicyClassName());
    assertFalse("no split point without RLSM's policy", splitPointOf(unnamed).isPresent());
  }
}
