package org.apache.hadoop.hbase.rlsm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Child processes of tests: a JVM on the test class path (for what needs a fresh process: a
 * native library loads once per process and has one mount; a heap of a chosen size), or a tool.
 */
public final class ChildJvm {
  private ChildJvm() {
  }

  /** java [jvmOptions] -cp (this class path) main args; standard error is discarded. */
  public static Process start(List<String> jvmOptions, Class<?> main, String... args)
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
  public static String output(Process p) throws IOException, InterruptedException {
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertTrue("child process hangs", p.waitFor(RlsmTestCluster.HANG_GUARD_MINUTES, TimeUnit.MINUTES));
    assertEquals(out, 0, p.exitValue());
    return out;
  }
}
