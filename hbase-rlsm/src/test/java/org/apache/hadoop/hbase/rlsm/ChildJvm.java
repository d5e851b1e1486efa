package org.apache.hadoop.hbase.rlsm.ulfs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;

/**
 * Child processes of the ulfs tests: a JVM on the test class path (a process loads one native
 * library for good and has one mount, so what needs a fresh one runs there), or a tool.
 */
final class ChildJvm {
  private ChildJvm() {
  }

  /** java [jvmOptions] -cp (this class path) main args; standard error is discarded. */
  static Process start(List<String> jvmOptions, Class<?> main, String... args)
    throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(System.getProperty("java.home") + "/bin/java");
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(Arrays.asList(args));
    return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
  }

  /**
   * Reads p's standard output to its end and returns it trimmed, after asserting that p ended
   * (within the hang guard) with exit code 0.
   */
  static String output(Process p) throws IOException, InterruptedException {
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertTrue("child process hangs", p.waitFor(RlsmTestCluster.HANG_GUARD_MINUTES, TimeUnit.MINUTES));
    assertEquals(out, 0, p.exitValue());
    return out;
  }
}
