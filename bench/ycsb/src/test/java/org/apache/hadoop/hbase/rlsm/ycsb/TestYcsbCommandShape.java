package org.apache.hadoop.hbase.rlsm.ycsb;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.testclassification.ClientTests;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.rules.TemporaryFolder;

/**
 * The command shape of upstream YCSB's HBase 2 binding, as docs/ycsb.md and docs/install.md give
 * it, through the real script: {@code bench/ycsb/ycsb load|run hbase2 -cp CONF_DIR -P WORKLOAD
 * -p key=value}, where CONF_DIR holds only an hbase-site.xml naming the cluster (the mini
 * cluster's ZooKeeper), as an operator's {@code /etc/hbase/conf} would. The script's own
 * {@code conf/} points elsewhere, so the load reaching the RLSM table shows that {@code -cp} is
 * honoured. A binding name other than {@code hbase2} is refused.
 */
@Category({ MediumTests.class, ClientTests.class })
public class TestYcsbCommandShape {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestYcsbCommandShape.class);

  private static final int RECORDS = 200;
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

  private static Path repository() {
    return Paths.get(System.getProperty("basedir", ".")).toAbsolutePath().resolve("../..")
      .normalize();
  }

  /** Runs {@code bench/ycsb/ycsb} with {@code args}, its data directory under the test's. */
  private YcsbOutcome ycsb(String... args) throws Exception {
    Path repo = repository();
    List<String> cmd = new ArrayList<>();
    cmd.add("bash");
    cmd.add(repo.resolve("bench/ycsb/ycsb").toString());
    cmd.addAll(Arrays.asList(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(repo.toFile());
    pb.environment().put("RLSM_HOME_DATA", tmp.newFolder().getAbsolutePath());
    pb.environment().put("RLSM_TOOL_HEAP", "256m");
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    return YcsbOutcome.run(pb, tmp.newFile(), tmp.newFile());
  }

  /** A configuration directory with only the cluster's ZooKeeper in its hbase-site.xml. */
  private File clusterConfDir() throws IOException {
    File dir = tmp.newFolder("hbase-conf");
    String site = "<?xml version=\"1.0\"?>\n<configuration>\n"
      + "  <property><name>hbase.zookeeper.quorum</name><value>localhost</value></property>\n"
      + "  <property><name>hbase.zookeeper.property.clientPort</name><value>"
      + util.getZkCluster().getClientPort() + "</value></property>\n</configuration>\n";
    Files.write(new File(dir, "hbase-site.xml").toPath(), site.getBytes(StandardCharsets.UTF_8));
    return dir;
  }

  private static long rows(String table) throws IOException {
    long n = 0;
    try (Table t = util.getConnection().getTable(TableName.valueOf(table));
      ResultScanner rs = t.getScanner(new Scan())) {
      while (rs.next() != null) {
        n++;
      }
    }
    return n;
  }

  @Test
  public void upstreamHbase2CommandLoadsAndRunsAgainstTheClusterOfCp() throws Exception {
    String conf = clusterConfDir().getAbsolutePath();
    String workload = repository().resolve("bench/ycsb/workloads/workloada").toString();
    YcsbOutcome load = ycsb("load", "hbase2", "-cp", conf, "-P", workload,
      "-p", "table=" + YcsbTables.RLSM_TABLE, "-p", "columnfamily=" + YcsbTables.FAMILY,
      "-p", "recordcount=" + RECORDS, "-threads", "2");
    assertEquals(load.toString(), 0, load.exit);
    assertEquals(load.toString(), RECORDS, load.count("INSERT", "OK"));
    assertEquals(RECORDS, rows(YcsbTables.RLSM_TABLE));

    YcsbOutcome run = ycsb("run", "hbase2", "-cp", conf, "-P", workload,
      "-p", "table=" + YcsbTables.RLSM_TABLE, "-p", "columnfamily=" + YcsbTables.FAMILY,
      "-p", "recordcount=" + RECORDS, "-p", "operationcount=" + RECORDS, "-threads", "2");
    assertEquals(run.toString(), 0, run.exit);
    long reads = run.count("READ", "OK");
    long updates = run.count("UPDATE", "OK");
    assertTrue(run.toString(), reads > 0 && updates > 0);
    assertEquals(run.toString(), RECORDS, reads + updates);
  }

  @Test
  public void otherBindingNameIsRefused() throws Exception {
    YcsbOutcome r = ycsb("load", "hbase10", "-cp", tmp.getRoot().getAbsolutePath());
    assertEquals(r.toString(), 2, r.exit);
    assertTrue(r.toString(), r.stderr.contains("unknown binding 'hbase10'"));
  }
}
