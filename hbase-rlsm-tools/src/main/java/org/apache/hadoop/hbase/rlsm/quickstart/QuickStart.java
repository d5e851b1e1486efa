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
package org.apache.hadoop.hbase.rlsm.quickstart;

import static org.apache.hadoop.hbase.rlsm.quickstart.DemoWorkload.FAMILY;
import static org.apache.hadoop.hbase.rlsm.quickstart.Formats.count;
import static org.apache.hadoop.hbase.rlsm.quickstart.Formats.seconds;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.standalone.CreateTable;
import org.apache.hadoop.hbase.rlsm.standalone.StandaloneClient;
import org.apache.hadoop.hbase.rlsm.tool.ToolSupport;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The README quick start, run by {@code bin/quickstart} against the standalone server: creates
 * table {@value #DEFAULT_TABLE} whose family {@code f} uses the RLSM store engine (dropping an
 * older one), writes the {@link DemoWorkload} (flushing after three of its four phases, so several
 * RLSM files exist while the last phase stays in the memstore), runs the {@link ReadChecks}
 * against the {@link ReferenceModel}; compacts the table (for RLSM: Level-0 files into Level-1
 * partitions, {@link CompactionWait}) and runs the same checks again; lists the family's store
 * files ({@link StoreFileReport}) and prints a summary.
 * <p>
 * Exit codes: 0 all checks passed; 1 a check failed or the server failed; 2 bad command line.
 * The table is kept so it can be looked at afterwards.
 */
@InterfaceAudience.Private
public final class QuickStart {
  private static final Logger LOG = LoggerFactory.getLogger(QuickStart.class);

  static final String DEFAULT_TABLE = "rlsm_demo";
  static final int DEFAULT_ROWS = 20_000;

  private static final String USAGE =
    "usage: QuickStart [--rows N] [--table NAME] [--engine rlsm|default|stripe]\n"
      + "  --rows    rows of the first phase (default " + DEFAULT_ROWS + ")\n"
      + "  --table   table to (re)create (default " + DEFAULT_TABLE + ")\n"
      + "  --engine  store engine of the family (default rlsm; the others for comparison)";

  private final Configuration conf;
  private final TableName tableName;
  private final int rows;
  private final CreateTable.Engine engine;
  private final PrintStream out;
  private final ReferenceModel model = new ReferenceModel();
  private final Failures failures = new Failures();
  private int flushes;
  private int step;

  QuickStart(Configuration conf, TableName tableName, int rows, CreateTable.Engine engine,
    PrintStream out) {
    this.conf = conf;
    this.tableName = tableName;
    this.rows = rows;
    this.engine = engine;
    this.out = out;
  }

  /** Runs everything; returns the exit code. */
  int run() throws IOException {
    long t0 = System.nanoTime();
    out.println("RLSM quick start: table " + tableName + ", family f, engine "
      + engine.displayName() + ", HBase at ZooKeeper " + StandaloneClient.zkAddress(conf));
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin(); Table table = createTable(conn, admin)) {
      DemoWorkload workload = new DemoWorkload(rows, model);
      long base = System.currentTimeMillis();
      long writeStart = System.nanoTime();
      long t = writeStart;
      workload.phase1(table, base + 1);
      flush(admin);
      step("phase 1: wrote " + count(rows) + " rows x 4 columns, flushed", t);
      t = System.nanoTime();
      workload.phase2(table, base + 2);
      flush(admin);
      step("phase 2: new versions, row and column deletes, a new column; flushed", t);
      t = System.nanoTime();
      workload.phase3(table, base + 3);
      flush(admin);
      step("phase 3: third versions, version deletes, re-inserted and " + count(rows / 10)
        + " new rows; flushed", t);
      t = System.nanoTime();
      workload.phase4(table, base + 4);
      step("phase 4: updates and deletes left in the memstore (not flushed)", t);
      long writeNanos = System.nanoTime() - writeStart;

      ReadChecks checks = new ReadChecks(table, model, rows, failures);
      t = System.nanoTime();
      int gets = checks.gets();
      step("checked " + count(gets) + " Gets (latest and all versions) against the model", t);
      t = System.nanoTime();
      int fwd = checks.forwardScan();
      step("checked a forward Scan " + checks.forwardRange() + ": " + count(fwd)
        + " rows in order", t);
      t = System.nanoTime();
      int rev = checks.reverseScan();
      step("checked a reverse Scan " + checks.reverseRange() + ": " + count(rev)
        + " rows in reverse order", t);
      t = System.nanoTime();
      int all = checks.fullScan();
      step("checked a full Scan: " + count(all) + " live rows", t);

      // A compaction moves the flushed (Level-0) data into Level-1 partitions (for RLSM a
      // range-append); the same reads must give the same answers afterwards.
      StoreFileReport files = new StoreFileReport(conf, tableName, FAMILY, failures);
      t = System.nanoTime();
      step(CompactionWait.compact(admin, tableName, files, failures), t);
      t = System.nanoTime();
      int gets2 = checks.gets();
      int scanned2 = checks.forwardScan() + checks.reverseScan() + checks.fullScan();
      step("checked the same Gets and Scans again: " + count(gets2) + " Gets, "
        + count(scanned2) + " rows", t);

      String storeFiles = summarizeStoreFiles(admin, files);
      out.println();
      out.println("Summary");
      out.println("  rows written     " + count(workload.rowsWritten()) + " ("
        + count(model.rows.size()) + " live at the end), " + count(workload.puts()) + " puts, "
        + count(workload.deletes()) + " deletes");
      out.println("  flushes          " + flushes);
      out.println("  store files      " + storeFiles);
      out.println("  reads checked    " + count(gets) + " Gets, scans of " + count(fwd) + " + "
        + count(rev) + " + " + count(all) + " rows; all again after the compaction");
      out.println("  time             " + seconds(writeNanos) + " writing and flushing, "
        + seconds(System.nanoTime() - t0) + " in all");
    }
    if (!failures.isEmpty()) {
      out.println();
      out.println("FAILED: " + failures.size() + " check(s) failed; the first ones:");
      for (String f : failures.first(20)) {
        out.println("  " + f);
      }
      return 1;
    }
    out.println();
    out.println("OK: every check passed.");
    return 0;
  }

  /** Creates the demo table (dropping an older one) and opens it. */
  private Table createTable(Connection conn, Admin admin) throws IOException {
    long t = System.nanoTime();
    boolean existed = admin.tableExists(tableName);
    TableDescriptor td = CreateTable.descriptor(tableName, Collections.singletonList(FAMILY),
      engine, DemoWorkload.MAX_VERSIONS, Collections.emptyMap());
    CreateTable.create(admin, td, true, CreateTable.DEFAULT_TIMEOUT_SECONDS);
    String engineClass =
      td.getColumnFamily(FAMILY).getConfigurationValue(StoreEngine.STORE_ENGINE_CLASS_KEY);
    step("created table " + tableName + (existed ? " (dropped the previous one)" : "")
      + " with engine " + engineClass, t);
    return conn.getTable(tableName);
  }

  /**
   * Lists the store files (a local root only) and checks that an RLSM family holds only RLSM
   * files; returns the summary line.
   */
  private String summarizeStoreFiles(Admin admin, StoreFileReport files) throws IOException {
    if (!files.localRoot()) {
      out.println();
      out.println("Store files: inside " + files.rootDir() + ", which only the server mounts;"
        + " not listed here (the server log names every flushed file).");
      return "in " + files.rootDir() + ", not listed";
    }
    long bytes = 0;
    int rlsmFiles = 0;
    int liveFiles = 0;
    Map<FileRole, Integer> roles = new EnumMap<>(FileRole.class);
    for (StoreFileReport.StoreFile f : files.list(admin, out)) {
      if (f.replaced) {
        continue;
      }
      liveFiles++;
      bytes += f.status.getLen();
      rlsmFiles += f.rlsm ? 1 : 0;
      if (f.role != null) {
        roles.merge(f.role, 1, Integer::sum);
      }
    }
    if (engine == CreateTable.Engine.RLSM) {
      if (liveFiles == 0) {
        failures.add("no store files in the family directory after " + flushes + " flushes");
      } else if (rlsmFiles != liveFiles) {
        failures.add((liveFiles - rlsmFiles) + " of " + liveFiles
          + " store files of the RLSM family are not RLSM files");
      }
    }
    return liveFiles + " in use (" + rlsmFiles + " RLSM " + roles + "), " + count(bytes)
      + " bytes";
  }

  private void flush(Admin admin) throws IOException {
    admin.flush(tableName);
    flushes++;
  }

  private void step(String message, long startNanos) {
    out.println(String.format(Locale.ROOT, "[%d] %7s  %s", ++step,
      seconds(System.nanoTime() - startNanos), message));
  }

  static int run(String[] argv, Configuration conf, PrintStream out, PrintStream err) {
    QuickStart qs;
    try {
      ToolSupport.Args args = new ToolSupport.Args(argv, Collections.emptyList(),
        Arrays.asList("--rows", "--table", "--engine"));
      if (!args.positional().isEmpty()) {
        throw new ToolSupport.UsageException("unexpected argument " + args.positional().get(0));
      }
      long n = args.getLong("--rows", DEFAULT_ROWS);
      if (n < 100 || n > 10_000_000) {
        throw new ToolSupport.UsageException("--rows must be between 100 and 10,000,000");
      }
      TableName tn;
      try {
        tn = TableName.valueOf(args.get("--table", DEFAULT_TABLE));
      } catch (IllegalArgumentException e) {
        throw new ToolSupport.UsageException("bad table name: " + e.getMessage());
      }
      qs = new QuickStart(conf, tn, (int) n,
        CreateTable.Engine.parse(args.get("--engine", "rlsm")), out);
    } catch (ToolSupport.UsageException e) {
      err.println("QuickStart: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    try {
      return qs.run();
    } catch (IOException | RuntimeException e) {
      LOG.error("quick start failed", e);
      err.println("QuickStart failed: " + e);
      return 1;
    }
  }

  public static void main(String[] argv) {
    // System.exit: the HBase client can leave non-daemon threads behind.
    System.exit(run(argv, ToolSupport.clientConf(), System.out, System.err));
  }
}
