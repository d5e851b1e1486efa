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
package org.apache.hadoop.hbase.rlsm.ycsb.compare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.testclassification.MiscTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.rules.TemporaryFolder;

/**
 * The harness's report on a small results directory written here in the formats the script
 * records (YCSB output, /jmx JSON, /proc/PID/io, store-file listings, server log): the derived
 * figures, the summary's ratios and targets, and typed errors naming file and line.
 */
@Category({ SmallTests.class, MiscTests.class })
public class TestCompareReport {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestCompareReport.class);

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static final String SERVER_BEAN =
    "{\"beans\":[{\"name\":\"Hadoop:service=HBase,name=RegionServer,sub=Server\","
      + "\"storeFileSize\":%d,\"compactionQueueLength\":0}]}";

  private static String ycsb(String op, long ops, double throughput) {
    return String.join("\n", "Loading workload...", "Starting test.",
      "[OVERALL], RunTime(ms), 1000", "[OVERALL], Throughput(ops/sec), " + throughput,
      "[TOTAL_GCS_G1_Young_Generation], Count, 3", "[CLEANUP], Operations, 4",
      "[" + op + "], Operations, " + ops, "[" + op + "], AverageLatency(us), 250.5",
      "[" + op + "], 50thPercentileLatency(us), 200",
      "[" + op + "], 95thPercentileLatency(us), 400",
      "[" + op + "], 99thPercentileLatency(us), 900", "[" + op + "], Return=OK, " + ops, "");
  }

  /** One engine: 1,000 inserts at load and reload, reads elsewhere; store files of 2x the data. */
  private void writeEngine(Path results, String engine, double throughput, long fileBytes,
    boolean rlsm) throws IOException {
    Path dir = Files.createDirectories(results.resolve(engine));
    long t = 1_000_000;
    List<String> phases = Arrays.asList("start", "load", "a", "b", "c", "f", "d", "reload", "e",
      "final");
    for (String phase : phases) {
      t += 10_000;
      write(dir.resolve(phase + ".time"), t + "\n");
      write(dir.resolve(phase + ".loadavg"), "1.50 1.20 1.00\n");
      write(dir.resolve(phase + ".server.json"), String.format(SERVER_BEAN, fileBytes));
      write(dir.resolve(phase + ".io"),
        "rchar: 1\nwchar: 2\nread_bytes: 0\nwrite_bytes: " + (phase.equals("start") ? 100 : 300)
          + "\ncancelled_write_bytes: 0\n");
      write(dir.resolve(phase + ".rlsm.json"), rlsm
        ? "{\"beans\":[{\"name\":\"Hadoop:service=hbase-rlsm,name=Store-r1-family\","
          + "\"FlushBytes\":10,\"AppendBytes\":5,\"ManifestBytes\":1,\"SplitBytes\":0,"
          + "\"MergeBytes\":0,\"CleanupBytes\":0,\"MajorBytes\":0,\"CompactionReadBytes\":5,"
          + "\"Compactions\":1,\"LinkedFiles\":2,\"CompactionMillis\":30,\"Partitions\":3,"
          + "\"Segments\":4}]}"
        : "{\"beans\":[]}");
      // The load's file moves to the archive later on: it must be counted once.
      write(dir.resolve(phase + ".files"), phase.equals("start") ? ""
        : "" + fileBytes + "\tr1/family/f1\n");
      if (!phase.equals("start") && !phase.equals("final")) {
        String op = phase.equals("load") || phase.equals("reload") ? "INSERT" : "READ";
        write(dir.resolve(phase + ".ycsb.txt"), ycsb(op, 1000, throughput));
      }
    }
    write(dir.resolve("stopped.du"), "5242880\t/data\n");
    Files.createDirectories(dir.resolve("logs"));
    write(dir.resolve("logs/hbase-master.log"), String.join("\n",
      "2026-11-23 07:00:00,000 INFO  [rs-shortCompactions-0] regionserver.HStore: Completed"
        + " compaction of 3 (all) file(s) in 190c0b1da48f/family of 190c0b1da48f into f9(size=1 M),"
        + " total size for store is 1 M. This selection was in queue for 0sec, and took 1sec",
      "2026-11-23 07:00:00,000 INFO  [rs-shortCompactions-1] regionserver.HStore: Completed"
        + " compaction of 2 file(s) in 1588230740/info of 1588230740 into x(size=1 K), ...",
      "2026-11-23 07:00:00,001 TRACE [rs-shortCompactions-1] regionserver.HStore: COMPACTION"
        + " start,end,size out,files in,files out,store size,store files [1,2,3,4,5,6,7]",
      "2026-11-23 07:00:00,001 TRACE [rs-shortCompactions-0] regionserver.HStore: COMPACTION"
        + " start,end,size out,files in,files out,store size,store files [1025000,1025250,"
        + "1,3,1,1,1]", ""));
  }

  private static void write(Path file, String text) throws IOException {
    Files.write(file, text.getBytes(StandardCharsets.UTF_8));
  }

  private Path results(long rlsmFileBytes) throws IOException {
    Path results = tmp.newFolder("results").toPath();
    write(results.resolve("params.properties"), "records=1000\noperations=1000\n"
      + "scan.operations=100\nthreads=2\nengines=default rlsm\nfieldcount=10\nfieldlength=100\n");
    writeEngine(results, "default", 1000, 3_000_000, false);
    writeEngine(results, "rlsm", 1500, rlsmFileBytes, true);
    return results;
  }

  /** The report of {@code results} must fail with a message starting with {@code prefix}. */
  private static void assertReadFails(Path results, String prefix) throws IOException {
    try {
      CompareReport.read(results);
      fail("accepted bad input; expected: " + prefix);
    } catch (ReportFormatException e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(prefix));
    }
  }

  @Test
  public void derivesFiguresRatiosAndTargets() throws IOException {
    CompareReport report = CompareReport.read(results(1_000_000));
    UserBytes perOp = new UserBytes(1000, 10, 100);
    // "user" + 18 to 19 digits of the FNV hash + "fieldN" + 100 bytes
    assertTrue(perOp.cellBytes() > 4 + 17 + 6 + 100 && perOp.cellBytes() < 4 + 20 + 6 + 100);
    EngineRun.Phase fin = report.runs().get(0).phase(EngineRun.FINAL);
    double user = 2 * 1000 * 10 * perOp.cellBytes(); // load + reload, reads write nothing
    assertEquals(user, fin.userBytes, 1e-6);
    assertEquals(3_000_000L, (long) fin.committedBytes);
    assertEquals(3_000_000 / user, fin.writeAmplification(), 1e-9);
    assertEquals(200, fin.osWriteBytes);
    assertEquals(1, fin.compactions); // hbase:meta's compaction (family info) is not counted
    assertEquals(250, fin.compactionMillis);
    assertNull(fin.rlsm);
    EngineRun.Phase load = report.runs().get(0).phase("load");
    assertEquals(0, load.compactions); // it ended at 1,025,250 ms, after the load's snapshot
    EngineRun.Phase rlsm = report.runs().get(1).phase(EngineRun.FINAL);
    assertEquals(10, rlsm.rlsm[0]);
    assertEquals(3, rlsm.rlsmPartitions);

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    report.printSummary(new PrintStream(bytes, true, "UTF-8"));
    String summary = bytes.toString("UTF-8");
    assertTrue(summary, summary.contains("| rlsm | 1500 (1.50) |"));
    assertTrue(summary, summary.contains("| 3 | 5 |\n")); // live MB, disk MB
    assertTrue(summary, summary.matches("(?s).*write amplification <= 1/3 +0\\.33x +met.*"));
    assertTrue(summary, summary.matches("(?s).*load throughput >= 1\\.3x +1\\.50x +met.*"));
    assertTrue(summary, summary.matches("(?s).*workload E >= 0\\.95x +1\\.50x +met.*"));

    String csv = report.phasesCsv();
    assertTrue(csv, csv.startsWith("engine,phase,runtime_s,throughput_ops_s,"));
    assertEquals(1 + 2 * 9, csv.split("\n").length);
    assertTrue(report.operationsCsv().contains("rlsm,e,READ,1000,1000,1500.0,250.500,200.000,"
      + "400.000,900.000"));
    assertTrue(report.json().contains("\"writeAmplification\""));
    assertTrue(report.throughputPlot().startsWith("phase default rlsm\nload 1000.000 1500.000\n"));
  }

  @Test
  public void notMetWhenRlsmWritesMore() throws IOException {
    CompareReport report = CompareReport.read(results(2_000_000));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    report.printSummary(new PrintStream(bytes, true, "UTF-8"));
    assertTrue(bytes.toString("UTF-8"),
      bytes.toString("UTF-8").matches("(?s).*write amplification <= 1/3 +0\\.67x +NOT met.*"));
  }

  @Test
  public void malformedYcsbOutputNamesFileAndLine() throws IOException {
    Path results = results(1_000_000);
    Path c = results.resolve("rlsm/c.ycsb.txt");
    write(c, ycsb("READ", 1000, 1000).replace("AverageLatency(us), 250.5",
      "AverageLatency(us), fast"));
    assertReadFails(results, c + ":8: not a number");
  }

  @Test
  public void unfinishedYcsbRunIsAnError() throws IOException {
    Path results = results(1_000_000);
    Path d = results.resolve("default/d.ycsb.txt");
    write(d, "Loading workload...\nStarting test.\n");
    assertReadFails(results, d + ": no [OVERALL]");
  }

  @Test
  public void compactionWithoutItsTimeIsAnError() throws IOException {
    Path results = results(1_000_000);
    Path log = results.resolve("rlsm/logs/hbase-master.log");
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    write(log, String.join("\n", lines.subList(0, 3)) + "\n");
    assertReadFails(results, log + ":1: compaction of family");
  }

  @Test
  public void badListingNamesFileAndLine() throws IOException {
    Path results = results(1_000_000);
    Path files = results.resolve("default/b.files");
    write(files, "12\tr1/family/f1\nbig r1/family/f2\n");
    assertReadFails(results, files + ":2: expected SIZE");
  }
}
