package org.apache.hadoop.hbase.rlsm.ycsb;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.testclassification.ClientTests;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.rules.TemporaryFolder;

/**
 * A real YCSB run through the binding: site.ycsb.Client in a child JVM loads an RLSM table and
 * runs the shipped workload A with {@code dataintegrity=true}; every verification must be OK.
 * The same check then sees every verification fail after the stored values are altered, so it
 * is known to be able to fail.
 */
@Category({ MediumTests.class, ClientTests.class })
public class TestYcsbDataIntegrity {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestYcsbDataIntegrity.class);

  private static final int RECORDS = 300;
  private static final int OPERATIONS = 600;
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1);
  private static HBaseTestingUtility util;

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @BeforeClass
  public static void setUp() throws Exception {
    util = CLUSTER.util();
    YcsbTables.create(util);
  }

  private static Path workload(String name) {
    return Paths.get(System.getProperty("basedir", "."), "workloads", name);
  }

  /** Runs site.ycsb.Client in a child JVM with the binding against the mini cluster. */
  private YcsbOutcome ycsb(String phase, String workload, String... extra) throws Exception {
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
    YcsbOutcome o = YcsbOutcome.run(new ProcessBuilder(cmd), tmp.newFile(), tmp.newFile());
    assertEquals("YCSB " + phase + " exit code\n" + o, 0, o.exit);
    // YCSB exits 0 even when a client thread's init() failed; the stack trace tells.
    assertFalse("a client thread failed\n" + o, o.stderr.contains("DBException"));
    return o;
  }

  @Test
  public void workloadAVerifiesOkThenDetectsAlteredValues() throws Exception {
    YcsbOutcome load = ycsb("-load", "workloada");
    assertEquals(load.toString(), Collections.singletonMap("OK", (long) RECORDS),
      load.of("INSERT"));

    YcsbOutcome run = ycsb("-t", "workloada", "-p", "operationcount=" + OPERATIONS);
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
    YcsbOutcome bad = ycsb("-t", "workloadc", "-p", "operationcount=200");
    assertEquals(bad.toString(), Collections.singletonMap("OK", 200L), bad.of("READ"));
    assertEquals(bad.toString(), Collections.singletonMap("UNEXPECTED_STATE", 200L),
      bad.of("VERIFY"));
  }
}
