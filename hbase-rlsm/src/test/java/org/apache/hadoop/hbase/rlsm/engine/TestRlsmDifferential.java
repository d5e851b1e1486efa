package org.apache.hadoop.hbase.rlsm.engine;

import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The differential run ({@link DifferentialRun}) on families with default settings: one seeded
 * random operation log on an RLSM table and a default-engine table, every read compared. This is
 * the CI size (400 rows, 20,000 operations); {@code -Drlsm.diff.long=true} runs the long mode
 * (10,000 rows, 150,000 operations, at least 50 partitions through many splits and clean-ups).
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmDifferential {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmDifferential.class);

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER =
    new RlsmMiniClusterRule(1, RlsmTestCluster::completeRlsmDescriptors);

  @Test
  public void randomOperationLogMatchesDefaultEngine() throws Exception {
    new DifferentialRun(CLUSTER.util(), "diff", cf -> cf, false).run(20261123L, 20_000);
  }
}
