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
 * HBase 2.6.1's own security test classes whose features live in cell tags (cell ACLs, visibility
 * labels), on the default engine and on RLSM ({@link HBaseSuiteComparison}). A class that passes
 * on the default engine must pass on RLSM. Long mode, minutes per class:
 * {@code -Drlsm.hbase.suites=all} or a comma-separated list of simple class names among
 * {@link #SUITES}.
 */
@Category(IntegrationTests.class)
public class TestHBaseTagSecuritySuites {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestHBaseTagSecuritySuites.class);

  /** Hang guard: each HBase class below has its own 13-minute class rule as well. */
  @Rule
  public final Timeout timeout = new Timeout(90, TimeUnit.MINUTES);

  static final String[] SUITES = { "org.apache.hadoop.hbase.security.access.TestCellACLs",
    "org.apache.hadoop.hbase.security.access.TestCellACLWithMultipleVersions",
    "org.apache.hadoop.hbase.security.visibility.TestVisibilityLabelsWithDefaultVisLabelService",
    "org.apache.hadoop.hbase.security.visibility.TestVisibilityLabelsWithDeletes" };

  @Test
  public void tagSecurityTestsPassOnRlsmWhereTheyPassOnDefault() throws Exception {
    HBaseSuiteComparison.assertNoRegression("HBase tag security suites",
      HBaseSuiteComparison.selected("rlsm.hbase.suites", SUITES));
  }
}
