package org.apache.hadoop.hbase.rlsm.ycsb;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * A real YCSB run through the binding: site.ycsb.Client in a child JVM loads an RLSM table and
 * runs the shipped workload A with {@code dataintegrity=true}; every verification must be OK.
 * The same check then sees every verification fail after the stored values are altered, so it
 * is known to be able to fail.
 */
public class TestYcsbDataIntegrity {
  private static final int RECORDS = 300;
  private static final int OPERATIONS = 600;
  /** A hang guard only: a loaded machine may run the child YCSB slowly. */
  private static final long CHILD_TIMEOUT_S = 1200;
  /** YCSB's per-status lines, e.g. "[VERIFY], Return=OK, 297". */
  private static final Pattern RETURN_LINE =
    Pattern.compile("^\\[([A-Z_-]+)\\], Return=([A-Z_]+), (\\d+)$");
  @ClassRule
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1);
  private static HBaseTestingUtility util;

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @BeforeClass
  public static void setUp() throws Exception {
    util = CLUSTER.util();
    YcsbTables.create(util);
  }

  /** Counts per operation and status from one YCSB run's standard output. */
  private static final class Outcome {
    final Map<String, Map<String, Long>> returns = new TreeMap<>();
    final String stdout;
    final String stderr;

    Outcome(String stdout, String stderr) {
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

    Map<String, Long> of(String operation) {
      return returns.getOrDefault(operation, Collections.emptyMap());
    }

    long count(String operation, String status) {
      return of(operation).getOrDefault(status, 0L);
    }

    @Override
    public String toString() {
      return returns + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
    }
  }

  private static Path workload(String name) {
    return Paths.get(System.getProperty("basedir", "."), "workloads", name);
  }

  /** Runs site.ycsb.Client in a child JVM with the binding against the mini cluster. */
  private Outcome ycsb(String phase, String workload, String... extra) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    // The JDK 17 flags this JVM got from surefire (the parent pom's jdk17.flags).
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-") || arg.startsWith("-Dorg.apache.hbase.thirdparty")) {
        cmd.add(arg);
      }
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    cmd.add("site.ycsb.Client");
    cmd.add(phase);
    cmd.addAll(Arrays.asList("-db", RlsmHBaseClient.class.getName(),
      "-P", workload(workload).toString(),
      "-p", "table=" + YcsbTables.RLSM_TABLE,
      "-p", "columnfamily=" + YcsbTables.FAMILY,
      "-p", "hbase.zookeeper.quorum=localhost",
      "-p", "hbase.zookeeper.property.clientPort=" + util.getZkCluster().getClientPort(),
      "-p", "recordcount=" + RECORDS,
      "-p", "dataintegrity=true",
      "-threads", "2"));
    cmd.addAll(Arrays.asList(extra));
    File out = tmp.newFile();
    File err = tmp.newFile();
    Process p = new ProcessBuilder(cmd).redirectOutput(out).redirectError(err).start();
    if (!p.waitFor(CHILD_TIMEOUT_S, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      fail("YCSB " + phase + " did not finish in " + CHILD_TIMEOUT_S + " s; stderr:\n"
        + read(err));
    }
    Outcome o = new Outcome(read(out), read(err));
    assertEquals("YCSB " + phase + " exit code\n" + o, 0, p.exitValue());
    // YCSB exits 0 even when a client thread's init() failed; the stack trace tells.
    assertFalse("a client thread failed\n" + o, o.stderr.contains("DBException"));
    return o;
  }

  private static String read(File f) throws IOException {
    return new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8);
  }

  @Test
  public void workloadAVerifiesOkThenDetectsAlteredValues() throws Exception {
    Outcome load = ycsb("-load", "workloada");
    assertEquals(load.toString(), Collections.singletonMap("OK", (long) RECORDS),
      load.of("INSERT"));

    Outcome run = ycsb("-t", "workloada", "-p", "operationcount=" + OPERATIONS);
    long reads = run.count("READ", "OK");
    assertTrue(run.toString(), reads > 0);
    assertEquals(run.toString(), Collections.singletonMap("OK", reads), run.of("READ"));
    assertEquals(run.toString(), Collections.singletonMap("OK", reads), run.of("VERIFY"));
    long updates = run.count("UPDATE", "OK");
    assertEquals(run.toString(), Collections.singletonMap("OK", updates), run.of("UPDATE"));
    assertEquals(run.toString(), OPERATIONS, reads + updates);

    // Alter one field of every record (same length, other bytes): the same check must now fail.
    int altered = 0;
    byte[] family = Bytes.toBytes(YcsbTables.FAMILY);
    byte[] field = Bytes.toBytes("field0");
    try (Table t = util.getConnection().getTable(TableName.valueOf(YcsbTables.RLSM_TABLE));
      ResultScanner rs = t.getScanner(new Scan().addColumn(family, field))) {
      for (Result r : rs) {
        byte[] v = r.getValue(family, field);
        Arrays.fill(v, (byte) '#');
        t.put(new Put(r.getRow()).addColumn(family, field, v));
        altered++;
      }
    }
    assertEquals(RECORDS, altered);
    Outcome bad = ycsb("-t", "workloadc", "-p", "operationcount=200");
    assertEquals(bad.toString(), Collections.singletonMap("OK", 200L), bad.of("READ"));
    assertEquals(bad.toString(), Collections.singletonMap("UNEXPECTED_STATE", 200L),
      bad.of("VERIFY"));
  }
}
