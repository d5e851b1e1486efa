/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.apache.hadoop.hbase.rlsm.standalone;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.value;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.regionserver.StripeStoreEngine;
import org.apache.hadoop.hbase.rlsm.LinkReferenceCleaner;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.testclassification.IntegrationTests;
import org.apache.hadoop.hbase.testclassification.MiscTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.After;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standalone launchers end to end, as a user runs them: {@code bin/hbase-start} with a
 * private data directory and free, non-default ports; the refusals for "already running" and
 * "port taken"; {@code bin/hbase-status}; {@code bin/create-table --engine rlsm}; writes, a flush
 * and reads through the Java client; RLSM files on disk; tables on the stripe and default
 * engines; {@code bin/hbase-shell} reading that table and creating another; {@code bin/hbase-stop};
 * and then no process of that server left and its ports free again.
 */
// IntegrationTests: real standalone servers in child processes, so no class timeout; the
// per-test Timeout below is the hang guard (docs/testing.md).
@Category({ IntegrationTests.class, MiscTests.class })
public class TestStandaloneLaunchers {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestStandaloneLaunchers.class);

  private static final Logger LOG = LoggerFactory.getLogger(TestStandaloneLaunchers.class);

  /** The module directory is surefire's working directory; the scripts are one level up. */
  private static final File REPO = new File(System.getProperty("user.dir")).getAbsoluteFile()
    .getParentFile();
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int ROWS = 2_000;
  /** How long a launcher may take before the test calls it hung; never a speed requirement. */
  private static final long HANG_GUARD_SECONDS = 300;

  @Rule
  public final TemporaryFolder tmp = new TemporaryFolder();

  @Rule
  public final Timeout timeout = new Timeout(30, TimeUnit.MINUTES); // a hang guard only

  private File dataDir;
  private int zkPort;
  private int masterPort;
  private int rsPort;
  private int masterInfoPort;
  private int rsInfoPort;

  @Before
  public void setUp() throws IOException {
    assertTrue("repository root not found from " + REPO,
      new File(REPO, "bin/hbase-start").canExecute());
    dataDir = tmp.newFolder("data");
    int[] ports = freePorts(5);
    zkPort = ports[0];
    masterPort = ports[1];
    rsPort = ports[2];
    masterInfoPort = ports[3];
    rsInfoPort = ports[4];
  }

  /** Safety net: a failed assertion must not leave a server running on the machine. */
  @After
  public void killLeftovers() {
    for (ProcessHandle p : serverProcesses()) {
      LOG.warn("killing left-over server process {}", p.pid());
      p.destroyForcibly();
    }
  }

  @Test
  public void testStartCreateWriteReadStop() throws Exception {
    Run start = run("bin/hbase-start");
    assertEquals("hbase-start failed:\n" + start.output, 0, start.rc);
    assertTrue(start.output, start.output.contains("is up"));
    File pidFile = new File(dataDir, "hbase-master.pid");
    long pid = Long.parseLong(new String(Files.readAllBytes(pidFile.toPath()),
      StandardCharsets.US_ASCII).trim());
    assertTrue("server process " + pid + " is not alive", alive(pid));
    assertTrue("the server log is not under the data dir",
      new File(dataDir, "logs/hbase-master.log").isFile());

    // A second start for the same data directory is refused and names the running pid.
    Run again = run("bin/hbase-start");
    assertEquals(again.output, 1, again.rc);
    assertTrue(again.output, again.output.contains("already running (pid " + pid + ")"));

    // Another data directory on the same ports is refused before any JVM starts.
    Run clash = run(Map.of("RLSM_HOME_DATA", tmp.newFolder("other").getPath()),
      "bin/hbase-start");
    assertEquals(clash.output, 1, clash.rc);
    assertTrue(clash.output, clash.output.contains("port " + zkPort + " is already in use"));
    assertTrue(clash.output, clash.output.contains("RLSM_ZK_PORT"));

    Run status = run("bin/hbase-status");
    assertEquals(status.output, 0, status.rc);
    assertTrue(status.output, status.output.contains("1 live"));

    TableName table = TableName.valueOf("launcher_rlsm");
    Run create = run("bin/create-table", table.getNameAsString(), "f", "--engine", "rlsm");
    assertEquals("create-table failed:\n" + create.output, 0, create.rc);

    try (Connection conn = ConnectionFactory.createConnection(clientConf());
      Admin admin = conn.getAdmin()) {
      assertEquals(RlsmConfig.ENGINE_CLASS_NAME, admin.getDescriptor(table).getColumnFamily(F)
        .getConfigurationValue(StoreEngine.STORE_ENGINE_CLASS_KEY));
      try (Table t = conn.getTable(table)) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
          puts.add(new Put(row(i)).addColumn(F, Q, value(i)));
        }
        t.put(puts);
        admin.flush(table);
        // One more row stays in the memstore, so the reads merge memstore and file.
        t.put(new Put(row(ROWS)).addColumn(F, Q, value(ROWS)));
        for (int i = 0; i <= ROWS; i += 97) {
          Result r = t.get(new Get(row(i)));
          assertArrayEquals("row " + i, value(i), r.getValue(F, Q));
        }
        int n = 0;
        try (ResultScanner s = t.getScanner(new Scan())) {
          for (Result r : s) {
            assertArrayEquals(row(n), r.getRow());
            assertArrayEquals(value(n), r.getValue(F, Q));
            n++;
          }
        }
        assertEquals(ROWS + 1, n);
      }
      assertRlsmFilesUnderDataDir(table, admin.getRegions(table));
    }
    // The web UIs are on, and the RLSM counters of the table are in the RegionServer's /jmx.
    assertTrue(http(masterInfoPort, "/master-status").contains(table.getNameAsString()));
    // The metrics system refreshes its JMX view on its own period: poll (a hang guard only).
    String counter = "Namespace_default_table_launcher_rlsm_metric_rlsmFlushBytes";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_GUARD_SECONDS);
    String jmx;
    while (!(jmx = http(rsInfoPort, "/jmx?qry=Hadoop:service=HBase,name=RegionServer,sub=Rlsm"))
      .contains(counter) && System.nanoTime() < deadline) {
      Thread.sleep(500); // pacing of the poll, not synchronisation
    }
    assertTrue(jmx, jmx.contains(counter));

    checkShell(table);

    // The comparison engines of the benchmark, with an override as --conf gives it; through the
    // tool's API in this JVM, since the script path is covered above and each JVM costs seconds.
    try (Connection conn = ConnectionFactory.createConnection(clientConf());
      Admin admin = conn.getAdmin()) {
      TableName stripeName = TableName.valueOf("launcher_stripe");
      CreateTable.create(admin, CreateTable.descriptor(stripeName, List.of(F),
        CreateTable.Engine.STRIPE, 0, Map.of("hbase.store.stripe.initialStripeCount", "2")),
        false, 120);
      ColumnFamilyDescriptor s = admin.getDescriptor(stripeName).getColumnFamily(F);
      assertEquals(StripeStoreEngine.class.getName(),
        s.getConfigurationValue(StoreEngine.STORE_ENGINE_CLASS_KEY));
      assertEquals("2", s.getConfigurationValue("hbase.store.stripe.initialStripeCount"));
      TableName defaultName = TableName.valueOf("launcher_default");
      CreateTable.create(admin, CreateTable.descriptor(defaultName, List.of(F),
        CreateTable.Engine.DEFAULT, 0, Map.of()), false, 120);
      assertEquals(DefaultStoreEngine.class.getName(), admin.getDescriptor(defaultName)
        .getColumnFamily(F).getConfigurationValue(StoreEngine.STORE_ENGINE_CLASS_KEY));
    }

    Run stop = run("bin/hbase-stop");
    assertEquals("hbase-stop failed:\n" + stop.output, 0, stop.rc);
    assertFalse("pid file left behind", pidFile.exists());
    assertFalse("server process " + pid + " still alive", alive(pid));
    assertEquals("processes of the server left behind", List.of(),
      serverProcesses().stream().map(ProcessHandle::pid).collect(Collectors.toList()));
    for (int port : new int[] { zkPort, masterPort, rsPort }) {
      assertTrue("port " + port + " still in use after the stop", canBind(port));
    }

    Run down = run("bin/hbase-status");
    assertEquals(down.output, 1, down.rc);
    assertTrue(down.output, down.output.contains("not running"));
  }

  /**
   * On {@code ulfs://} (RLSM_FS=ulfs): while the server runs, ulfs-stat prints the counters the
   * mount publishes; {@code bin/hbase-stop} unmounts the device (the JVM's exit hook), so fsck
   * finds it unmounted cleanly with nothing to replay and the stats file is gone; and the empty
   * trace setting of conf/hbase-site.xml traced nothing (docs/ulfs.md "Clean stop").
   */
  @Test
  public void testStopUnmountsUlfsCleanly() throws Exception {
    Map<String, String> ulfs = Map.of("RLSM_FS", "ulfs", "RLSM_ULFS_BYTES", "1073741824");
    Run start = run(ulfs, "bin/hbase-start");
    assertEquals("hbase-start failed:\n" + start.output, 0, start.rc);
    TableName table = TableName.valueOf("launcher_ulfs");
    Run create = run(ulfs, "bin/create-table", table.getNameAsString(), "f", "--engine", "rlsm");
    assertEquals("create-table failed:\n" + create.output, 0, create.rc);
    try (Connection conn = ConnectionFactory.createConnection(clientConf());
      Table t = conn.getTable(table)) {
      for (int i = 0; i < 100; i++) {
        t.put(new Put(row(i)).addColumn(F, Q, value(i)));
      }
      assertArrayEquals(value(7), t.get(new Get(row(7))).getValue(F, Q));
    }
    File image = new File(dataDir, "ulfs.img");
    File tools = new File(REPO, "hbase-rlsm/target/native");
    Run stat = run(ulfs, new File(tools, "ulfs-stat").getPath(), image.getPath());
    assertEquals(stat.output, 0, stat.rc);
    assertTrue(stat.output, stat.output.contains("mounted by another process"));
    assertTrue(stat.output, stat.output.contains("hits/misses role user"));

    Run stop = run(ulfs, "bin/hbase-stop");
    assertEquals("hbase-stop failed:\n" + stop.output, 0, stop.rc);
    String log = read(new File(dataDir, "logs/hbase-master.log"));
    assertFalse("traced with an empty trace setting", log.contains("access trace"));
    // conf/hbase-site.xml's cleaner delegate is loaded by HBase's HFile cleaner
    assertTrue("no LinkReferenceCleaner", log.contains(
      "Initialize cleaner=" + LinkReferenceCleaner.class.getName()));
    assertFalse(log.contains("Can NOT create CleanerDelegate"));
    assertFalse(new File(REPO, "${rlsm.ulfs.cache.trace}").exists());
    assertFalse(new File(dataDir, "${rlsm.ulfs.cache.trace}").exists());
    assertFalse("stats file left behind", new File(image.getPath() + ".stats").exists());
    Run fsck = run(ulfs, new File(tools, "ulfs-fsck").getPath(), "-n", image.getPath());
    assertEquals(fsck.output, 0, fsck.rc);
    assertTrue(fsck.output, fsck.output.contains("0 journal txns pending, unmounted cleanly"));
  }

  /**
   * bin/hbase-shell both ways a script uses it, in HBase shell syntax: commands on standard input
   * (reading and splitting the RLSM table written above; a failing command, a missing table, is
   * shown as an ERROR line and makes the exit status 1) and a script file that runs
   * the operators' commands on a default-engine table and creates an RLSM table with only the
   * engine key.
   */
  private void checkShell(TableName written) throws Exception {
    String t = written.getNameAsString();
    File commands = tmp.newFile("commands.txt");
    Files.write(commands.toPath(), ("list\n"
      + "get '" + t + "', '" + Bytes.toString(row(5)) + "', 'f:q'\n"
      + "scan '" + t + "', {FILTER => \"PrefixFilter('" + Bytes.toString(row(7)) + "')\"}\n"
      + "describe '" + t + "'\n"
      + "status\n"
      + "get 'no_such_table', 'r'\n"
      + "split '" + t + "'\n").getBytes(StandardCharsets.UTF_8));
    Run piped = run(Map.of(), commands, "bin/hbase-shell");
    assertEquals(piped.output, 1, piped.rc);
    assertTrue(piped.output, piped.output.contains(t));
    assertTrue(piped.output, piped.output.contains("value=" + Bytes.toString(value(5))));
    assertTrue(piped.output, piped.output.contains("1 column(s)"));
    assertTrue(piped.output, piped.output.contains(" " + Bytes.toString(row(7)) + " ")); // scan
    assertTrue(piped.output, piped.output.contains(RlsmConfig.ENGINE_CLASS_NAME));
    assertTrue(piped.output, piped.output.contains("1 servers, 0 dead"));
    assertTrue(piped.output, piped.output.contains("ERROR: TableNotFoundException"));
    // RLSM tables split (RlsmRegionSplitPolicy): the shell's split is accepted, not refused
    assertTrue(piped.output, piped.output.contains("Requested split of " + t));
    assertFalse(piped.output, piped.output.contains("ERROR: DoNotRetryIOException"));

    File script = tmp.newFile("script.rb");
    Files.write(script.toPath(), String.join("\n",
      "create 'shell_plain', {NAME => 'f', VERSIONS => 2, TTL => 86400}, SPLITS => ['m']",
      "put 'shell_plain', 'a', 'f:q', 'x'",
      "put 'shell_plain', 'z', 'f:q', 'y'",
      "n = incr 'shell_plain', 'c', 'f:n', 5",
      "raise \"incr gave #{n}\" unless n == 5",
      "n = scan 'shell_plain', {FILTER => \"PrefixFilter('z')\"}",
      "raise \"filtered scan gave #{n}\" unless n == 1",
      "flush 'shell_plain'",
      "compact 'shell_plain'",
      "major_compact 'shell_plain', 'f'",
      "alter 'shell_plain', {NAME => 'f', VERSIONS => 5}",
      "describe 'shell_plain'",
      "snapshot 'shell_plain', 'shell_snap'",
      "clone_snapshot 'shell_snap', 'shell_clone'",
      "n = count 'shell_clone'",
      "raise \"clone has #{n} rows\" unless n == 3",
      "raise 'snapshot not listed' unless list_snapshots.include?('shell_snap')",
      "disable 'shell_plain'",
      "restore_snapshot 'shell_snap'",
      "enable 'shell_plain'",
      "split 'shell_plain', 'c'",
      "truncate 'shell_plain'",
      "n = count 'shell_plain'",
      "raise \"truncate left #{n} rows\" unless n == 0",
      "create 'shell_rlsm', {NAME => 'f', CONFIGURATION => {",
      "  'hbase.hstore.engine.class' => '" + RlsmConfig.ENGINE_CLASS_NAME + "'}}",
      "put 'shell_rlsm', 'r1', 'f:q', 'from-shell'",
      "n = count 'shell_rlsm'",
      "raise \"count gave #{n}\" unless n == 1", "").getBytes(StandardCharsets.UTF_8));
    Run scripted = run("bin/hbase-shell", script.getPath());
    assertEquals(scripted.output, 0, scripted.rc);
    assertTrue(scripted.output, scripted.output.contains("Created table shell_rlsm"));
    assertTrue(scripted.output, scripted.output.contains("VERSIONS => '5'"));
    try (Connection conn = ConnectionFactory.createConnection(clientConf())) {
      Admin admin = conn.getAdmin();
      // create keeps HBase's default engine unless a family names one.
      assertEquals(null, admin.getDescriptor(TableName.valueOf("shell_plain")).getColumnFamily(F)
        .getConfigurationValue(StoreEngine.STORE_ENGINE_CLASS_KEY));
      // Only the engine key was given: the master completed the family (RlsmMasterObserver).
      TableName created = TableName.valueOf("shell_rlsm");
      assertEquals(RlsmTables.complete(clientConf(), admin.getDescriptor(created)),
        admin.getDescriptor(created));
      assertEquals(RlsmConfig.ENGINE_CLASS_NAME, admin.getDescriptor(created).getColumnFamily(F)
        .getConfigurationValue(StoreEngine.STORE_ENGINE_CLASS_KEY));
      try (Table table = conn.getTable(created)) {
        assertEquals("from-shell",
          Bytes.toString(table.get(new Get(Bytes.toBytes("r1"))).getValue(F, Q)));
      }
    }
  }

  /** bin/rlsm-env.sh uses the pom's jdk17.flags list, so tests and launchers run alike. */
  @Test
  public void testLauncherJdkFlagsMatchPom() throws IOException {
    String pom = new String(Files.readAllBytes(new File(REPO, "pom.xml").toPath()),
      StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("<jdk17.flags>([^<]*)</jdk17.flags>").matcher(pom);
    assertTrue("no jdk17.flags property in pom.xml", m.find());
    List<String> pomFlags = Arrays.asList(m.group(1).trim().split("\\s+"));
    String env = new String(Files.readAllBytes(new File(REPO, "bin/rlsm-env.sh").toPath()),
      StandardCharsets.UTF_8);
    Matcher a = Pattern.compile("RLSM_JDK17_FLAGS=\\(([^)]*)\\)").matcher(env);
    assertTrue("no RLSM_JDK17_FLAGS array in bin/rlsm-env.sh", a.find());
    List<String> envFlags = Arrays.asList(a.group(1).trim().split("\\s+"));
    assertEquals(pomFlags, envFlags);
  }

  private void assertRlsmFilesUnderDataDir(TableName table, List<RegionInfo> regions)
    throws IOException {
    Configuration conf = new Configuration();
    FileSystem fs = FileSystem.getLocal(conf);
    int files = 0;
    for (RegionInfo region : regions) {
      Path dir = new Path(dataDir.getPath(), "hbase/data/default/" + table.getNameAsString() + "/"
        + region.getEncodedName() + "/f");
      assertTrue("no family directory " + dir, fs.exists(dir));
      for (FileStatus st : fs.listStatus(dir)) {
        if (st.isFile()) {
          assertTrue(st.getPath() + " is not an RLSM file",
            RlsmTestCluster.role(fs, conf, st.getPath()) != null);
          files++;
        }
      }
    }
    assertTrue("the flush wrote no store file under " + dataDir, files > 0);
  }

  private Configuration clientConf() {
    Configuration conf = HBaseConfiguration.create();
    conf.set(HConstants.ZOOKEEPER_QUORUM, "127.0.0.1");
    conf.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, zkPort);
    conf.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 5);
    return conf;
  }

  /** Output and exit code of one launcher run. */
  private static final class Run {
    final int rc;
    final String output;

    Run(int rc, String output) {
      this.rc = rc;
      this.output = output;
    }
  }

  private Run run(String... command) throws Exception {
    return run(Map.of(), command);
  }

  private Run run(Map<String, String> extraEnv, String... command) throws Exception {
    return run(extraEnv, null, command);
  }

  /** Runs a launcher; {@code stdin}, if not null, is its standard input. */
  private Run run(Map<String, String> extraEnv, File stdin, String... command)
    throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(REPO).redirectErrorStream(true);
    if (stdin != null) {
      pb.redirectInput(stdin);
    }
    File log = tmp.newFile();
    pb.redirectOutput(log);
    Map<String, String> env = pb.environment();
    env.put("RLSM_HOME_DATA", dataDir.getPath());
    env.put("RLSM_ZK_PORT", Integer.toString(zkPort));
    env.put("RLSM_MASTER_PORT", Integer.toString(masterPort));
    env.put("RLSM_RS_PORT", Integer.toString(rsPort));
    env.put("RLSM_MASTER_INFO_PORT", Integer.toString(masterInfoPort));
    env.put("RLSM_RS_INFO_PORT", Integer.toString(rsInfoPort));
    // A small server: this test and the build share the machine.
    env.put("RLSM_HEAP", "512m");
    env.put("RLSM_TOOL_HEAP", "256m");
    // The launchers' own waits become hang guards too: a loaded machine may start slowly.
    env.put("RLSM_START_TIMEOUT", Long.toString(HANG_GUARD_SECONDS));
    env.put("RLSM_STOP_TIMEOUT", Long.toString(HANG_GUARD_SECONDS));
    env.putAll(extraEnv);
    long t = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(2 * HANG_GUARD_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail(String.join(" ", command) + " did not finish in " + 2 * HANG_GUARD_SECONDS + " s:\n"
        + read(log));
    }
    String out = read(log);
    LOG.info("{} -> rc {} in {} ms:\n{}", String.join(" ", command), p.exitValue(),
      TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t), out);
    return new Run(p.exitValue(), out);
  }

  private static String read(File f) throws IOException {
    return new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8);
  }

  /** Every live process whose command line names this test's data directory. */
  private List<ProcessHandle> serverProcesses() {
    String marker = "-Drlsm.data.dir=" + dataDir.getPath();
    return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive).filter(p -> {
      Optional<String[]> args = p.info().arguments();
      return args.isPresent() && Arrays.asList(args.get()).contains(marker);
    }).collect(Collectors.toList());
  }

  private static boolean alive(long pid) {
    Optional<ProcessHandle> h = ProcessHandle.of(pid);
    if (!h.isPresent() || !h.get().isAlive()) {
      return false;
    }
    // An exited child that nobody reaped is a zombie: gone for our purposes.
    try {
      String status = read(new File("/proc/" + pid + "/status"));
      return !status.contains("State:\tZ");
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean canBind(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Distinct ports that were free a moment ago (the OS hands out ephemeral ones). */
  /** The body of a GET on the standalone server's web UI port {@code port} (status 200). */
  private static String http(int port, String path) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(
      "http://127.0.0.1:" + port + path).openConnection();
    c.setConnectTimeout((int) TimeUnit.SECONDS.toMillis(HANG_GUARD_SECONDS));
    c.setReadTimeout((int) TimeUnit.SECONDS.toMillis(HANG_GUARD_SECONDS));
    try (InputStream in = c.getInputStream()) {
      assertEquals(path, 200, c.getResponseCode());
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  private static int[] freePorts(int n) throws IOException {
    List<ServerSocket> held = new ArrayList<>();
    try {
      int[] ports = new int[n];
      for (int i = 0; i < n; i++) {
        ServerSocket s = new ServerSocket(0);
        held.add(s);
        ports[i] = s.getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket s : held) {
        s.close();
      }
    }
  }
}
