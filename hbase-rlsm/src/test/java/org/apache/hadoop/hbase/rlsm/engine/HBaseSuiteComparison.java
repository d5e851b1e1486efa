package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.rlsm.ChildJvm;
import org.junit.Assume;

/**
 * Runs HBase 2.6.1's own test classes from hbase-server's test jar first on HBase's default
 * engine, then with every store of their clusters on RLSM, system tables included
 * ({@link HBaseSuiteRun}: {@code rlsm-everywhere-site.xml} as a Hadoop default resource, which
 * every {@code HBaseConfiguration.create()} of those classes then reads). Each run of a class
 * has a JVM of its own, so the resource never reaches the default run or this test's JVM, and
 * no class sees what an earlier one left behind. A class that passes on the default engine must
 * pass on RLSM. Each run's output is in {@code target/hbase-suites/<class>-<engine>.log}.
 */
final class HBaseSuiteComparison {
  /**
   * Hang guard of one run; the class's own {@code HBaseClassTestRule} (13 minutes per parameter
   * set) ends a hanging class well before.
   */
  private static final long RUN_GUARD_MINUTES = 90;
  private static final File LOGS = new File("target/hbase-suites");

  private HBaseSuiteComparison() {
  }

  /**
   * The classes of {@code suites} (fully qualified) that {@code property} selects: {@code all} or
   * a comma-separated list of simple names; {@code defaults} (simple names) when it is unset.
   * Skips the calling test when the property is unset and there are no defaults.
   */
  static List<String> selected(String property, String[] suites, String... defaults) {
    String value = System.getProperty(property, String.join(",", defaults));
    Assume.assumeFalse("long mode: -D" + property + "=all", value.isEmpty());
    List<String> wanted = new ArrayList<>(Arrays.asList(value.split(",")));
    List<String> out = new ArrayList<>();
    for (String s : suites) {
      String simple = s.substring(s.lastIndexOf('.') + 1);
      if (value.equals("all") || wanted.remove(simple)) {
        out.add(s);
      }
    }
    assertTrue("-D" + property + " names classes that are not in the list: " + wanted,
      value.equals("all") || wanted.isEmpty());
    return out;
  }

  /**
   * Runs each of {@code suites} on the default engine and then on RLSM, prints each outcome as
   * it comes and a report, and fails naming the classes that pass on the default engine but not
   * on RLSM.
   */
  static void assertNoRegression(String title, List<String> suites) throws Exception {
    assertTrue(LOGS.isDirectory() || LOGS.mkdirs());
    StringBuilder report = new StringBuilder();
    List<String> regressions = new ArrayList<>();
    for (String suite : suites) {
      String name = suite.substring(suite.lastIndexOf('.') + 1);
      List<String> onDefault = run(name, suite, "default");
      System.out.println("default engine: " + name + " " + onDefault.get(1));
      List<String> onRlsm = run(name, suite, HBaseSuiteRun.RLSM);
      System.out.println("RLSM everywhere: " + name + " " + onRlsm.get(1));
      report.append(String.format("%n%s%n  default: %s%n  RLSM:    %s", name,
        String.join("\n", onDefault.subList(1, onDefault.size())),
        String.join("\n", onRlsm.subList(1, onRlsm.size()))));
      if (isPassed(onDefault) && !isPassed(onRlsm)) {
        regressions.add(name);
      }
    }
    System.out.println(title + ":" + report);
    assertEquals("classes passing on the default engine but not on RLSM:" + report, List.of(),
      regressions);
  }

  private static boolean isPassed(List<String> outcome) {
    return outcome.get(0).equals(HBaseSuiteRun.PASSED);
  }

  /** One run in a child JVM: the outcome's lines (see {@link HBaseSuiteRun}). */
  private static List<String> run(String name, String suite, String engine) throws Exception {
    File log = new File(LOGS, name + "-" + engine + ".log");
    File outcome = new File(LOGS, name + "-" + engine + ".outcome");
    Files.deleteIfExists(log.toPath());
    Files.deleteIfExists(outcome.toPath());
    List<String> options = new ArrayList<>(ChildJvm.moduleFlags());
    options.add("-Xmx" + Runtime.getRuntime().maxMemory() / (1024 * 1024) + "m");
    Process p = ChildJvm.start(options, log, HBaseSuiteRun.class, engine, suite,
      outcome.getAbsolutePath());
    if (!p.waitFor(RUN_GUARD_MINUTES, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      return List.of("failed", "hangs (no end after " + RUN_GUARD_MINUTES + " min): " + log);
    }
    if (!outcome.exists()) {
      return List.of("failed", "the run ended (exit " + p.exitValue() + ") without an outcome: "
        + log);
    }
    return Files.readAllLines(outcome.toPath(), StandardCharsets.UTF_8);
  }
}
