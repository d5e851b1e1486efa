package org.apache.hadoop.hbase.rlsm.ycsb;

import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one YCSB run in a child process left: its exit code, its output, and the counts of YCSB's
 * per-status lines ("[READ], Return=OK, 297") per operation and status.
 */
final class YcsbOutcome {
  /** A hang guard only: a loaded machine may run the child YCSB slowly. */
  private static final long CHILD_TIMEOUT_S = 1200;
  private static final Pattern RETURN_LINE =
    Pattern.compile("^\\[([A-Z_-]+)\\], Return=([A-Z_]+), (\\d+)$");

  final int exit;
  final String stdout;
  final String stderr;
  private final Map<String, Map<String, Long>> returns = new TreeMap<>();

  private YcsbOutcome(int exit, String stdout, String stderr) {
    this.exit = exit;
    this.stdout = stdout;
    this.stderr = stderr;
    for (String line : stdout.split("\n")) {
      Matcher m = RETURN_LINE.matcher(line.trim());
      if (m.matches()) {
        returns.computeIfAbsent(m.group(1), k -> new TreeMap<>()).merge(m.group(2),
          Long.parseLong(m.group(3)), Long::sum);
      }
    }
  }

  /**
   * Starts {@code pb} with its output to {@code out} and {@code err}, and waits for it (failing
   * the test after the hang guard).
   */
  static YcsbOutcome run(ProcessBuilder pb, File out, File err) throws Exception {
    Process p = pb.redirectOutput(out).redirectError(err).start();
    if (!p.waitFor(CHILD_TIMEOUT_S, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      fail(String.join(" ", pb.command()) + " did not finish in " + CHILD_TIMEOUT_S
        + " s; stderr:\n" + read(err));
    }
    return new YcsbOutcome(p.exitValue(), read(out), read(err));
  }

  private static String read(File f) throws IOException {
    return new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8);
  }

  Map<String, Long> of(String operation) {
    return returns.getOrDefault(operation, Collections.emptyMap());
  }

  long count(String operation, String status) {
    return of(operation).getOrDefault(status, 0L);
  }

  @Override
  public String toString() {
    return "exit " + exit + ", " + returns + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n"
      + stderr;
  }
}
