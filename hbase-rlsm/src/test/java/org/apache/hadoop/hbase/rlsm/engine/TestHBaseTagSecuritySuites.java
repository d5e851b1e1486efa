package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.testclassification.IntegrationTests;
import org.junit.Assume;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.rules.Timeout;
import org.junit.runner.JUnitCore;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;

/**
 * HBase 2.6.1's own security test classes whose features live in cell tags (cell ACLs, visibility
 * labels), run from hbase-server's test jar first on HBase's default engine, then with every store
 * of their clusters on RLSM, system tables included: {@code rlsm-everywhere-site.xml} is added as
 * a Hadoop default resource, which every {@code HBaseConfiguration.create()} of those classes then
 * reads (HBase's own resources do not set the engine). A class that passes on the default engine
 * must pass on RLSM. Long mode, minutes per class: {@code -Drlsm.hbase.suites=all} or a
 * comma-separated list of simple class names among {@link #SUITES}.
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

  private static List<Class<?>> selected(String property) throws ClassNotFoundException {
    List<Class<?>> out = new ArrayList<>();
    for (String s : SUITES) {
      String simple = s.substring(s.lastIndexOf('.') + 1);
      if (property.equals("all") || List.of(property.split(",")).contains(simple)) {
        out.add(Class.forName(s));
      }
    }
    return out;
  }

  private static String outcome(Result r) {
    if (r.wasSuccessful()) {
      return "passed (" + r.getRunCount() + " tests)";
    }
    StringBuilder b = new StringBuilder("FAILED " + r.getFailureCount() + "/" + r.getRunCount());
    for (Failure f : r.getFailures()) {
      String msg = String.valueOf(f.getException());
      b.append("\n    ").append(f.getDescription().getMethodName()).append(": ")
        .append(msg, 0, Math.min(msg.length(), 300));
    }
    return b.toString();
  }

  @Test
  public void tagSecurityTestsPassOnRlsmWhereTheyPassOnDefault() throws Exception {
    String property = System.getProperty("rlsm.hbase.suites", "");
    Assume.assumeFalse("long mode: -Drlsm.hbase.suites=all", property.isEmpty());
    List<Class<?>> suites = selected(property);
    Map<String, Result> onDefault = new LinkedHashMap<>();
    for (Class<?> c : suites) {
      onDefault.put(c.getSimpleName(), JUnitCore.runClasses(c));
      System.out.println("default engine: " + c.getSimpleName() + " "
        + outcome(onDefault.get(c.getSimpleName())));
    }
    Configuration.addDefaultResource("rlsm-everywhere-site.xml");
    assertEquals("the resource makes RLSM the engine of every store", RlsmConfig.ENGINE_CLASS_NAME,
      HBaseConfiguration.create().get(StoreEngine.STORE_ENGINE_CLASS_KEY));
    Map<String, Result> onRlsm = new LinkedHashMap<>();
    for (Class<?> c : suites) {
      onRlsm.put(c.getSimpleName(), JUnitCore.runClasses(c));
      System.out.println("RLSM everywhere: " + c.getSimpleName() + " "
        + outcome(onRlsm.get(c.getSimpleName())));
    }
    StringBuilder report = new StringBuilder();
    List<String> regressions = new ArrayList<>();
    for (String name : onDefault.keySet()) {
      report.append(String.format("%n%s%n  default: %s%n  RLSM:    %s", name,
        outcome(onDefault.get(name)), outcome(onRlsm.get(name))));
      if (onDefault.get(name).wasSuccessful() && !onRlsm.get(name).wasSuccessful()) {
        regressions.add(name);
      }
    }
    System.out.println("HBase tag security suites:" + report);
    assertEquals("classes passing on the default engine but not on RLSM:" + report, List.of(),
      regressions);
  }
}
