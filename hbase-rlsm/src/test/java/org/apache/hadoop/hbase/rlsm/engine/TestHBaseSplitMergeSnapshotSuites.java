package org.apache.hadoop.hbase.rlsm.engine;

import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.testclassification.IntegrationTests;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.rules.Timeout;

/**
 * HBase 2.6.1's own region split, region merge and snapshot test classes, on the default engine
 * and on RLSM ({@link HBaseSuiteComparison}). A class that passes on the default engine must pass
 * on RLSM; docs/testing.md lists the outcome per class. By default the short subset
 * {@link #DEFAULTS} runs; long mode, minutes per class: {@code -Drlsm.hbase.splitSuites=all} or
 * a comma-separated list of simple class names among {@link #SUITES}. MOB variants are left out:
 * RLSM refuses MOB families.
 */
@Category(IntegrationTests.class)
public class TestHBaseSplitMergeSnapshotSuites {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestHBaseSplitMergeSnapshotSuites.class);

  /** Hang guard: each HBase class below has its own 13-minute class rule as well. */
  @Rule
  public final Timeout timeout = new Timeout(6, TimeUnit.HOURS);

  /**
   * The procedure-level split and merge classes (package {@code master.assignment}) use
   * hbase-procedure's test jar ({@code ProcedureTestingUtility}), a test dependency of this
   * module for their sake.
   */
  static final String[] SUITES = {
    "org.apache.hadoop.hbase.regionserver.TestEndToEndSplitTransaction",
    "org.apache.hadoop.hbase.regionserver.TestMergesSplitsAddToTracker",
    "org.apache.hadoop.hbase.regionserver.TestDirectStoreSplitsMerges",
    "org.apache.hadoop.hbase.regionserver.TestSplitTransactionOnCluster",
    "org.apache.hadoop.hbase.regionserver.TestRegionMergeTransactionOnCluster",
    "org.apache.hadoop.hbase.master.assignment.TestSplitTableRegionProcedure",
    "org.apache.hadoop.hbase.master.assignment.TestMergeTableRegionsProcedure",
    "org.apache.hadoop.hbase.master.assignment.TestRegionSplit",
    "org.apache.hadoop.hbase.master.assignment.TestRegionSplitAndSeparateChildren",
    "org.apache.hadoop.hbase.client.TestSnapshotFromClient",
    "org.apache.hadoop.hbase.client.TestCloneSnapshotFromClientNormal",
    "org.apache.hadoop.hbase.client.TestCloneSnapshotFromClientCustomSFT",
    "org.apache.hadoop.hbase.client.TestRestoreSnapshotFromClientSimple",
    "org.apache.hadoop.hbase.client.TestCloneSnapshotFromClientAfterSplittingRegion",
    "org.apache.hadoop.hbase.client.TestRestoreSnapshotFromClientAfterSplittingRegions",
    "org.apache.hadoop.hbase.client.TestSnapshotCloneIndependence",
    "org.apache.hadoop.hbase.snapshot.TestFlushSnapshotFromClient" };

  /**
   * The CI-size subset run when {@code rlsm.hbase.splitSuites} is unset: short classes that pass
   * on both engines, together within the 3 minutes a class may take on a quiet machine
   * (docs/testing.md gives their durations).
   */
  static final String[] DEFAULTS =
    { "TestDirectStoreSplitsMerges", "TestEndToEndSplitTransaction" };

  @Test
  public void splitMergeSnapshotTestsPassOnRlsmWhereTheyPassOnDefault() throws Exception {
    HBaseSuiteComparison.assertNoRegression("HBase split, merge and snapshot suites",
      HBaseSuiteComparison.selected("rlsm.hbase.splitSuites", SUITES, DEFAULTS));
  }
}
