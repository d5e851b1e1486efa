package org.apache.hadoop.hbase.rlsm.engine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.junit.runner.JUnitCore;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;

/**
 * One run of one of HBase's test classes on one engine, in a JVM of its own
 * ({@link HBaseSuiteComparison} starts it): {@code hbase-suites-site.xml} (what HBase's own test
 * build configures for these classes) is added as a Hadoop default resource in every run,
 * {@code rlsm-everywhere-site.xml} only in the RLSM run; a default resource stays added for the
 * life of the JVM, which is why each run gets a fresh one. Arguments: {@code default} or {@code rlsm}, the class's name, the
 * file the outcome is written to (first line {@code passed} or {@code failed}, then a summary).
 * Exits explicitly: HBase's classes can leave non-daemon threads behind.
 */
public final class HBaseSuiteRun {
  static final String RLSM = "rlsm";
  static final String PASSED = "passed";

  private HBaseSuiteRun() {
  }

  public static void main(String[] args) throws Exception {
    boolean rlsm = RLSM.equals(args[0]);
    Configuration.addDefaultResource("hbase-suites-site.xml");
    if (rlsm) {
      Configuration.addDefaultResource("rlsm-everywhere-site.xml");
    }
    String engine = HBaseConfiguration.create().get(StoreEngine.STORE_ENGINE_CLASS_KEY);
    if (rlsm != RlsmConfig.ENGINE_CLASS_NAME.equals(engine)) {
      throw new IllegalStateException("the " + args[0] + " run's store engine is " + engine);
    }
    Result r = JUnitCore.runClasses(Class.forName(args[1]));
    for (Failure f : r.getFailures()) {
      // into the run's log (standard output), where the outcome file keeps only a summary
      System.out.println("FAILURE " + f.getTestHeader() + "\n" + f.getTrace());
    }
    Files.write(Paths.get(args[2]), outcome(r).getBytes(StandardCharsets.UTF_8));
    System.exit(0);
  }

  private static String outcome(Result r) {
    String time = (r.getRunTime() + 500) / 1000 + " s";
    if (r.wasSuccessful()) {
      return PASSED + "\npassed (" + r.getRunCount() + " tests, " + time + ")";
    }
    StringBuilder b = new StringBuilder("failed\nFAILED " + r.getFailureCount() + "/"
      + r.getRunCount() + " (" + time + ")");
    for (Failure f : r.getFailures()) {
      String msg = String.valueOf(f.getException());
      b.append("\n    ").append(f.getDescription().getMethodName()).append(": ")
        .append(msg, 0, Math.min(msg.length(), 300));
    }
    return b.toString();
  }
}
