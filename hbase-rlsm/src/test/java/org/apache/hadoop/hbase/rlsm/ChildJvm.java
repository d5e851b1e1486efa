package org.apache.hadoop.hbase.rlsm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
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
    return new ProcessBuilder(command(jvmOptions, main, args))
      .redirectError(ProcessBuilder.Redirect.DISCARD).start();
  }

  /**
   * java [jvmOptions] -cp (this class path) main args with standard output and error appended to
   * log, for a child whose output is read by a person, not by the test.
   */
  public static Process start(List<String> jvmOptions, File log, Class<?> main, String... args)
    throws IOException {
    return new ProcessBuilder(command(jvmOptions, main, args)).redirectErrorStream(true)
      .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
  }

  /** The JDK module flags ({@code --add-opens}, {@code --add-exports}) of this JVM. */
  public static List<String> moduleFlags() {
    List<String> flags = new ArrayList<>();
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-")) {
        flags.add(a);
      }
    }
    return flags;
  }

  private static List<String> command(List<String> jvmOptions, Class<?> main, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(System.getProperty("java.home") + "/bin/java");
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(Arrays.asList(args));
    return cmd;
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
