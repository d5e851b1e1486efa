package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.junit.Assume;
import org.junit.runner.JUnitCore;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;

/**
 * Runs HBase 2.6.1's own test classes from hbase-server's test jar first on HBase's default
 * engine, then with every store of their clusters on RLSM, system tables included:
 * {@code rlsm-everywhere-site.xml} is added as a Hadoop default resource, which every
 * {@code HBaseConfiguration.create()} of those classes then reads (HBase's own resources do not
 * set the engine). A class that passes on the default engine must pass on RLSM.
 *
 * <p>The resource stays added for the rest of the JVM, so one comparison per JVM: long mode runs
 * one suite class with {@code -Dtest=...} (docs/testing.md).
 */
final class HBaseSuiteComparison {
  private HBaseSuiteComparison() {
  }

  /**
   * The classes of {@code suites} (fully qualified) that {@code property} selects: {@code all} or
   * a comma-separated list of simple names. Skips the calling test when the property is unset.
   */
  static List<Class<?>> selected(String property, String[] suites)
    throws ClassNotFoundException {
    String value = System.getProperty(property, "");
    Assume.assumeFalse("long mode: -D" + property + "=all", value.isEmpty());
    List<Class<?>> out = new ArrayList<>();
    for (String s : suites) {
      String simple = s.substring(s.lastIndexOf('.') + 1);
      if (value.equals("all") || List.of(value.split(",")).contains(simple)) {
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

  /**
   * Runs {@code suites} on both engines, prints each outcome as it comes and a report, and fails
   * naming the classes that pass on the default engine but not on RLSM.
   */
  static void assertNoRegression(String title, List<Class<?>> suites) {
    assertNotEquals("RLSM is already everywhere in this JVM (one comparison per JVM)",
      RlsmConfig.ENGINE_CLASS_NAME,
      HBaseConfiguration.create().get(StoreEngine.STORE_ENGINE_CLASS_KEY));
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
    System.out.println(title + ":" + report);
    assertEquals("classes passing on the default engine but not on RLSM:" + report, List.of(),
      regressions);
  }
}
