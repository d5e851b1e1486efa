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
package org.apache.hadoop.hbase.rlsm.tool;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.format.FileMeta;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.RlsmFileFormat;
import org.apache.hadoop.hbase.rlsm.format.Trailer;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The README quick start, run by {@code bin/quickstart} against the standalone server: creates
 * table {@value #DEFAULT_TABLE} whose family {@code f} uses the RLSM store engine (dropping an
 * older one), writes a demo data set in four phases with several versions and every kind of
 * delete, flushes after three of them so several RLSM files exist while the last phase stays in
 * the memstore, then checks Gets (latest and all versions), a forward Scan with start/stop rows,
 * a reverse Scan and a full Scan against an in-memory model of HBase's semantics; compacts the
 * table (for RLSM: Level-0 files into Level-1 partitions) and checks the same reads again; lists
 * the family's store files under {@code hbase.rootdir} (size, RLSM or not; RLSM files are opened
 * and all their checksums verified) and prints a summary.
 * <p>
 * Exit codes: 0 all checks passed; 1 a check failed or the server failed; 2 bad command line.
 * The table is kept so it can be looked at afterwards.
 */
@InterfaceAudience.Private
public final class QuickStart {
  private static final Logger LOG = LoggerFactory.getLogger(QuickStart.class);

  static final String DEFAULT_TABLE = "rlsm_demo";
  static final int DEFAULT_ROWS = 20_000;
  static final byte[] FAMILY = Bytes.toBytes("f");
  /** Every cell gets at most this many versions, so deletes never uncover trimmed versions. */
  static final int MAX_VERSIONS = 3;

  private static final byte[] NAME = Bytes.toBytes("name");
  private static final byte[] CITY = Bytes.toBytes("city");
  private static final byte[] SCORE = Bytes.toBytes("score");
  private static final byte[] PAYLOAD = Bytes.toBytes("payload");
  private static final byte[] TAG = Bytes.toBytes("tag");
  private static final String[] CITIES =
    { "Aachen", "Bergen", "Cork", "Dijon", "Evora", "Fes", "Graz", "Hue" };
  private static final int BATCH = 1_000;
  private static final long COMPACTION_WAIT_SECONDS = 120;
  /** Polls (200 ms apart) with no sign of a compaction before concluding none was selected. */
  private static final int QUIET_POLLS = 50;

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
  private final Model model = new Model();
  private final List<String> failures = new ArrayList<>();
  private final Random random = new Random(20260101L);
  private long puts;
  private long deletes;
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

  /**
   * What the table should hold, following HBase's rules for the operations used here: a delete
   * marker hides cells with a timestamp at or below it, and later writes always carry a higher
   * timestamp, so applying operations in order gives exactly what a read must return.
   */
  static final class Model {
    /** row -> qualifier -> timestamp (newest first) -> value. */
    final TreeMap<byte[], TreeMap<byte[], NavigableMap<Long, byte[]>>> rows =
      new TreeMap<>(Bytes.BYTES_COMPARATOR);

    void put(byte[] row, byte[] qualifier, long ts, byte[] value) {
      rows.computeIfAbsent(row, r -> new TreeMap<>(Bytes.BYTES_COMPARATOR))
        .computeIfAbsent(qualifier, q -> new TreeMap<>(Comparator.reverseOrder())).put(ts, value);
    }

    void deleteRow(byte[] row, long ts) {
      TreeMap<byte[], NavigableMap<Long, byte[]>> cols = rows.get(row);
      if (cols != null) {
        for (NavigableMap<Long, byte[]> versions : cols.values()) {
          versions.tailMap(ts, true).clear();
        }
        prune(row);
      }
    }

    void deleteColumn(byte[] row, byte[] qualifier, long ts) {
      NavigableMap<Long, byte[]> versions = versions(row, qualifier);
      if (versions != null) {
        versions.tailMap(ts, true).clear();
        prune(row);
      }
    }

    void deleteVersion(byte[] row, byte[] qualifier, long ts) {
      NavigableMap<Long, byte[]> versions = versions(row, qualifier);
      if (versions != null) {
        versions.remove(ts);
        prune(row);
      }
    }

    private NavigableMap<Long, byte[]> versions(byte[] row, byte[] qualifier) {
      TreeMap<byte[], NavigableMap<Long, byte[]>> cols = rows.get(row);
      return cols == null ? null : cols.get(qualifier);
    }

    private void prune(byte[] row) {
      TreeMap<byte[], NavigableMap<Long, byte[]>> cols = rows.get(row);
      cols.values().removeIf(Map::isEmpty);
      if (cols.isEmpty()) {
        rows.remove(row);
      }
    }

    long cellCount() {
      long n = 0;
      for (TreeMap<byte[], NavigableMap<Long, byte[]>> cols : rows.values()) {
        for (NavigableMap<Long, byte[]> versions : cols.values()) {
          n += versions.size();
        }
      }
      return n;
    }
  }

  static byte[] rowKey(int i) {
    return Bytes.toBytes(String.format(Locale.ROOT, "user%08d", i));
  }

  private byte[] payload(int i, int phase) {
    byte[] b = new byte[64 + random.nextInt(128)];
    random.nextBytes(b);
    // A readable prefix, so a wrong row or phase shows in a failure message.
    byte[] tag = Bytes.toBytes(i + "/" + phase + ":");
    System.arraycopy(tag, 0, b, 0, Math.min(tag.length, b.length));
    return b;
  }

  /** Runs everything; returns the exit code. */
  int run() throws IOException {
    long t0 = System.nanoTime();
    out.println("RLSM quick start: table " + tableName + ", family f, engine "
      + engine.displayName() + ", HBase at ZooKeeper " + ToolSupport.zkAddress(conf));
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      long t = System.nanoTime();
      boolean existed = admin.tableExists(tableName);
      TableDescriptor td = CreateTable.descriptor(tableName, Collections.singletonList(FAMILY),
        engine, MAX_VERSIONS, Collections.emptyMap());
      CreateTable.create(admin, td, true, CreateTable.DEFAULT_TIMEOUT_SECONDS);
      String engineClass = td.getColumnFamily(FAMILY)
        .getConfigurationValue(StoreEngine.STORE_ENGINE_CLASS_KEY);
      step("created table " + tableName + (existed ? " (dropped the previous one)" : "")
        + " with engine " + engineClass, t);

      long base = System.currentTimeMillis();
      try (Table table = conn.getTable(tableName)) {
        long writeStart = System.nanoTime();
        t = writeStart;
        phase1(table, base + 1);
        flush(admin);
        step("phase 1: wrote " + fmt(rows) + " rows x 4 columns, flushed", t);
        t = System.nanoTime();
        phase2(table, base + 2);
        flush(admin);
        step("phase 2: new versions, row and column deletes, a new column; flushed", t);
        t = System.nanoTime();
        phase3(table, base + 3);
        flush(admin);
        step("phase 3: third versions, version deletes, re-inserted and " + fmt(rows / 10)
          + " new rows; flushed", t);
        t = System.nanoTime();
        phase4(table, base + 4);
        step("phase 4: updates and deletes left in the memstore (not flushed)", t);
        long writeNanos = System.nanoTime() - writeStart;

        t = System.nanoTime();
        int gets = checkGets(table);
        step("checked " + fmt(gets) + " Gets (latest and all versions) against the model", t);
        t = System.nanoTime();
        int fwd = checkForwardScan(table);
        step("checked a forward Scan [" + Bytes.toString(rowKey(rows / 4)) + ", "
          + Bytes.toString(rowKey(rows * 3 / 4)) + "): " + fmt(fwd) + " rows in order", t);
        t = System.nanoTime();
        int rev = checkReverseScan(table);
        step("checked a reverse Scan from " + Bytes.toString(rowKey(rows * 9 / 10)) + " down to "
          + Bytes.toString(rowKey(rows / 10)) + ": " + fmt(rev) + " rows in reverse order", t);
        t = System.nanoTime();
        int all = checkFullScan(table);
        step("checked a full Scan: " + fmt(all) + " live rows", t);

        // A compaction moves the flushed (Level-0) data into Level-1 partitions (for RLSM a
        // range-append); the same reads must give the same answers afterwards.
        t = System.nanoTime();
        String compaction = compactAndWait(admin);
        step(compaction, t);
        t = System.nanoTime();
        int gets2 = checkGets(table);
        int scanned2 = checkForwardScan(table) + checkReverseScan(table) + checkFullScan(table);
        step("checked the same Gets and Scans again: " + fmt(gets2) + " Gets, " + fmt(scanned2)
          + " rows", t);

        // Only a local root is listed. The client must not open another file system itself:
        // ulfs (RLSM_FS=ulfs) allows one mount of its image, and the server holds it.
        String rootDir = conf.get(HConstants.HBASE_DIR);
        boolean localRoot = "file".equals(new Path(rootDir).toUri().getScheme());
        List<StoreFile> files;
        if (localRoot) {
          files = listStoreFiles(admin);
        } else {
          files = Collections.emptyList();
          out.println();
          out.println("Store files: inside " + rootDir + ", which only the server mounts; not"
            + " listed here (the server log names every flushed file).");
        }
        long bytes = 0;
        int rlsmFiles = 0;
        int liveFiles = 0;
        Map<FileRole, Integer> roles = new EnumMap<>(FileRole.class);
        for (StoreFile f : files) {
          if (f.replaced) {
            continue;
          }
          liveFiles++;
          bytes += f.status.getLen();
          rlsmFiles += f.rlsm ? 1 : 0;
          if (f.trailer != null) {
            roles.merge(f.trailer.role(), 1, Integer::sum);
          }
        }
        if (engine == CreateTable.Engine.RLSM && localRoot) {
          if (liveFiles == 0) {
            fail("no store files in the family directory after " + flushes + " flushes");
          } else if (rlsmFiles != liveFiles) {
            fail((liveFiles - rlsmFiles) + " of " + liveFiles
              + " store files of the RLSM family are not RLSM files");
          }
        }
        long totalNanos = System.nanoTime() - t0;
        out.println();
        out.println("Summary");
        out.println("  rows written     " + fmt(rows + rows / 10) + " (" + fmt(model.rows.size())
          + " live at the end), " + fmt(puts) + " puts, " + fmt(deletes) + " deletes");
        out.println("  flushes          " + flushes);
        out.println("  store files      " + (localRoot ? liveFiles + " in use (" + rlsmFiles
          + " RLSM " + roles + "), " + fmt(bytes) + " bytes" : "in " + rootDir + ", not listed"));
        out.println("  reads checked    " + fmt(gets) + " Gets, scans of " + fmt(fwd) + " + "
          + fmt(rev) + " + " + fmt(all) + " rows; all again after the compaction");
        out.println("  time             " + secs(writeNanos) + " writing and flushing, "
          + secs(totalNanos) + " in all");
      }
    }
    if (!failures.isEmpty()) {
      out.println();
      out.println("FAILED: " + failures.size() + " check(s) failed; the first ones:");
      for (String f : failures.subList(0, Math.min(20, failures.size()))) {
        out.println("  " + f);
      }
      return 1;
    }
    out.println();
    out.println("OK: every check passed.");
    return 0;
  }

  // ----- writing -----

  /** Every row gets name, city, score and payload. */
  private void phase1(Table table, long ts) throws IOException {
    List<Put> batch = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      byte[] row = rowKey(i);
      Put p = new Put(row, ts);
      add(p, NAME, Bytes.toBytes("name-" + i));
      add(p, CITY, Bytes.toBytes(CITIES[i % CITIES.length]));
      add(p, SCORE, Bytes.toBytes((long) (i * 7 % 1000)));
      add(p, PAYLOAD, payload(i, 1));
      batch.add(p);
      if (batch.size() == BATCH) {
        putAll(table, batch);
      }
    }
    putAll(table, batch);
  }

  /** Second score versions, a new column, whole-row deletes and all-versions column deletes. */
  private void phase2(Table table, long ts) throws IOException {
    List<Put> puts = new ArrayList<>();
    List<Delete> dels = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      byte[] row = rowKey(i);
      if (i % 10 == 0) {
        puts.add(add(new Put(row, ts), SCORE, Bytes.toBytes((long) (i * 7 % 1000 + 1))));
      }
      if (i % 100 == 5) {
        puts.add(add(new Put(row, ts), TAG, Bytes.toBytes("tagged-" + i)));
      }
      if (i % 50 == 7) {
        dels.add(deleteRow(row, ts));
      } else if (i % 20 == 3) {
        dels.add(deleteColumn(row, CITY, ts));
      }
    }
    putAll(table, puts);
    deleteAll(table, dels);
  }

  /** Third score versions, deletes of single versions, re-inserted and brand-new rows. */
  private void phase3(Table table, long ts) throws IOException {
    List<Put> puts = new ArrayList<>();
    List<Delete> dels = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      byte[] row = rowKey(i);
      if (i % 30 == 0) {
        puts.add(add(new Put(row, ts), SCORE, Bytes.toBytes((long) (i * 7 % 1000 + 2))));
      }
      if (i % 100 == 7) {
        // Rows deleted in phase 2 come back with one column: the marker only hides older cells.
        puts.add(add(new Put(row, ts), NAME, Bytes.toBytes("reborn-" + i)));
      }
      if (i % 60 == 0) {
        // Deletes exactly the version written above, so the phase-2 version is current again.
        Delete d = new Delete(row);
        d.addColumn(FAMILY, SCORE, ts);
        model.deleteVersion(row, SCORE, ts);
        dels.add(d);
      }
    }
    for (int i = rows; i < rows + rows / 10; i++) {
      byte[] row = rowKey(i);
      Put p = new Put(row, ts);
      add(p, NAME, Bytes.toBytes("name-" + i));
      add(p, PAYLOAD, payload(i, 3));
      puts.add(p);
    }
    putAll(table, puts);
    deleteAll(table, dels);
  }

  /** Left in the memstore: reads must merge it with the flushed files. */
  private void phase4(Table table, long ts) throws IOException {
    List<Put> puts = new ArrayList<>();
    List<Delete> dels = new ArrayList<>();
    for (int i = 0; i < rows + rows / 10; i++) {
      byte[] row = rowKey(i);
      if (i % 25 == 1) {
        puts.add(add(new Put(row, ts), CITY, Bytes.toBytes("Moved-" + i)));
      }
      if (i % 200 == 99) {
        dels.add(deleteRow(row, ts));
      } else if (i % 40 == 11) {
        dels.add(deleteColumn(row, PAYLOAD, ts));
      }
    }
    putAll(table, puts);
    deleteAll(table, dels);
  }

  private Put add(Put p, byte[] qualifier, byte[] value) {
    p.addColumn(FAMILY, qualifier, p.getTimestamp(), value);
    model.put(p.getRow(), qualifier, p.getTimestamp(), value);
    return p;
  }

  private Delete deleteRow(byte[] row, long ts) {
    model.deleteRow(row, ts);
    return new Delete(row, ts);
  }

  private Delete deleteColumn(byte[] row, byte[] qualifier, long ts) {
    model.deleteColumn(row, qualifier, ts);
    return new Delete(row).addColumns(FAMILY, qualifier, ts);
  }

  private void putAll(Table table, List<Put> batch) throws IOException {
    for (int from = 0; from < batch.size(); from += BATCH) {
      table.put(batch.subList(from, Math.min(batch.size(), from + BATCH)));
    }
    puts += batch.size();
    batch.clear();
  }

  private void deleteAll(Table table, List<Delete> batch) throws IOException {
    int n = batch.size();
    for (int from = 0; from < batch.size(); from += BATCH) {
      // Table.delete(List) removes the successful ones from the list it is given.
      table.delete(new ArrayList<>(batch.subList(from, Math.min(batch.size(), from + BATCH))));
    }
    deletes += n;
    batch.clear();
  }

  private void flush(Admin admin) throws IOException {
    admin.flush(tableName);
    flushes++;
  }

  /**
   * Requests a compaction of the table and waits (bounded) until it has finished, telling "done"
   * from "not started yet" by the store files changing or the compaction state; returns what
   * happened, for the log. A compaction still running after the bound is a check failure.
   */
  private String compactAndWait(Admin admin) throws IOException {
    boolean localRoot = "file".equals(new Path(conf.get(HConstants.HBASE_DIR)).toUri().getScheme());
    List<String> before = localRoot ? storeFileNames(admin) : Collections.emptyList();
    admin.compact(tableName);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(COMPACTION_WAIT_SECONDS);
    boolean seenRunning = false;
    int quietPolls = 0;
    while (System.nanoTime() < deadline) {
      CompactionState state = admin.getCompactionState(tableName);
      if (state != CompactionState.NONE) {
        seenRunning = true;
        quietPolls = 0;
      } else if (localRoot && !storeFileNames(admin).equals(before)) {
        return "compacted: the store files changed (" + before.size() + " before)";
      } else if (seenRunning) {
        return "compaction requested and finished";
      } else if (++quietPolls >= QUIET_POLLS) {
        // A queued compaction starts within moments; this long without one means the engine's
        // policy selected nothing (e.g. the stripe engine wants more Level-0 files).
        return "requested a compaction; the engine selected none";
      }
      sleep(200);
    }
    fail("the compaction did not finish within " + COMPACTION_WAIT_SECONDS + " s");
    return "requested a compaction; still running after " + COMPACTION_WAIT_SECONDS + " s";
  }

  private List<String> storeFileNames(Admin admin) throws IOException {
    Path root = CommonFSUtils.getRootDir(conf);
    FileSystem fs = root.getFileSystem(conf);
    Path tableDir = CommonFSUtils.getTableDir(root, tableName);
    List<String> names = new ArrayList<>();
    for (RegionInfo region : admin.getRegions(tableName)) {
      Path familyDir =
        new Path(new Path(tableDir, region.getEncodedName()), Bytes.toString(FAMILY));
      if (fs.exists(familyDir)) {
        for (FileStatus st : fs.listStatus(familyDir)) {
          if (st.isFile()) {
            names.add(st.getPath().getName());
          }
        }
      }
    }
    Collections.sort(names);
    return names;
  }

  private static void sleep(long ms) throws InterruptedIOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
  }

  // ----- checking -----

  /** Gets of a sample that covers every kind of row the phases produce. */
  private int checkGets(Table table) throws IOException {
    List<Get> latest = new ArrayList<>();
    List<Get> allVersions = new ArrayList<>();
    int total = rows + rows / 10;
    for (int i = 0; i < total; i++) {
      boolean special = i % 50 == 7 || i % 20 == 3 || i % 100 == 5 || i % 25 == 1
        || i % 200 == 99 || i % 40 == 11 || i % 60 == 0;
      if (special || i % 13 == 0) {
        latest.add(new Get(rowKey(i)));
      }
      if (i % 30 == 0 || i % 50 == 7) {
        allVersions.add(new Get(rowKey(i)).readVersions(MAX_VERSIONS));
      }
    }
    // A row that was never written must come back empty.
    latest.add(new Get(Bytes.toBytes("user99999999")));
    int n = 0;
    for (List<Get> gets : Arrays.asList(latest, allVersions)) {
      for (int from = 0; from < gets.size(); from += BATCH) {
        List<Get> chunk = gets.subList(from, Math.min(gets.size(), from + BATCH));
        Result[] results = table.get(chunk);
        for (int k = 0; k < chunk.size(); k++) {
          Get g = chunk.get(k);
          compare("Get " + Bytes.toString(g.getRow()), g.getRow(), results[k], g.getMaxVersions());
          n++;
        }
      }
    }
    return n;
  }

  private int checkForwardScan(Table table) throws IOException {
    byte[] start = rowKey(rows / 4);
    byte[] stop = rowKey(rows * 3 / 4);
    Scan scan = new Scan().withStartRow(start).withStopRow(stop).setCaching(BATCH);
    return checkScan(table, scan, model.rows.subMap(start, true, stop, false), "forward Scan");
  }

  private int checkReverseScan(Table table) throws IOException {
    // Reversed: the start row is the high end (inclusive), the stop row the low end (exclusive).
    byte[] high = rowKey(rows * 9 / 10);
    byte[] low = rowKey(rows / 10);
    Scan scan =
      new Scan().withStartRow(high).withStopRow(low).setReversed(true).setCaching(BATCH);
    return checkScan(table, scan, model.rows.subMap(low, false, high, true).descendingMap(),
      "reverse Scan");
  }

  private int checkFullScan(Table table) throws IOException {
    return checkScan(table, new Scan().setCaching(BATCH), model.rows, "full Scan");
  }

  private int checkScan(Table table, Scan scan,
    NavigableMap<byte[], TreeMap<byte[], NavigableMap<Long, byte[]>>> expected, String what)
    throws IOException {
    Iterator<byte[]> want = expected.keySet().iterator();
    int n = 0;
    try (ResultScanner scanner = table.getScanner(scan)) {
      for (Result r : scanner) {
        n++;
        if (!want.hasNext()) {
          fail(what + ": unexpected extra row " + Bytes.toStringBinary(r.getRow()));
          continue;
        }
        byte[] row = want.next();
        if (!Bytes.equals(row, r.getRow())) {
          fail(what + ": row " + n + " is " + Bytes.toStringBinary(r.getRow()) + ", expected "
            + Bytes.toStringBinary(row));
          return n;
        }
        compare(what + " row " + Bytes.toString(row), row, r, 1);
      }
    }
    if (want.hasNext()) {
      fail(what + ": returned " + n + " rows, expected " + expected.size() + " (first missing: "
        + Bytes.toStringBinary(want.next()) + ")");
    }
    return n;
  }

  /** Compares a result with the model's newest {@code versions} versions of every column. */
  private void compare(String what, byte[] row, Result r, int versions) {
    List<String> expected = new ArrayList<>();
    TreeMap<byte[], NavigableMap<Long, byte[]>> cols = model.rows.get(row);
    if (cols != null) {
      for (Map.Entry<byte[], NavigableMap<Long, byte[]>> col : cols.entrySet()) {
        int k = 0;
        for (Map.Entry<Long, byte[]> v : col.getValue().entrySet()) {
          if (k++ == versions) {
            break;
          }
          expected.add(describe(col.getKey(), v.getKey(), v.getValue()));
        }
      }
    }
    List<String> actual = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      if (!Bytes.equals(CellUtil.cloneRow(c), row) || !CellUtil.matchingFamily(c, FAMILY)) {
        fail(what + ": foreign cell " + c);
      }
      actual.add(describe(CellUtil.cloneQualifier(c), c.getTimestamp(), CellUtil.cloneValue(c)));
    }
    if (!expected.equals(actual)) {
      fail(what + ": got " + actual + ", expected " + expected);
    }
  }

  private static String describe(byte[] qualifier, long ts, byte[] value) {
    String v = Bytes.toStringBinary(value, 0, Math.min(value.length, 24));
    // The digest catches a wrong byte past the part shown.
    return Bytes.toString(qualifier) + "@" + ts + "=" + v + "#" + Arrays.hashCode(value);
  }

  private void fail(String message) {
    LOG.warn("check failed: {}", message);
    failures.add(message);
  }

  // ----- files -----

  /** A store file as listed; for RLSM files also what its validated trailer says. */
  private static final class StoreFile {
    final FileStatus status;
    final boolean rlsm;
    /** Null unless {@link #rlsm}. */
    final Trailer trailer;
    /** Store files this one replaces (written by compactions; HBase archives them later). */
    final List<String> replaces;
    /** Set when a compaction output in the same directory replaces this file. */
    boolean replaced;

    StoreFile(FileStatus status, boolean rlsm, Trailer trailer, List<String> replaces) {
      this.status = status;
      this.rlsm = rlsm;
      this.trailer = trailer;
      this.replaces = replaces;
    }
  }

  /**
   * The family's store files, printed with sizes and whether each is an RLSM file. Every RLSM
   * file is opened and all its checksums verified, and its role (Level-0 flush, Level-1 segment
   * or manifest) and counts are shown; a file that fails is a check failure.
   */
  private List<StoreFile> listStoreFiles(Admin admin) throws IOException {
    Path root = CommonFSUtils.getRootDir(conf);
    FileSystem fs = root.getFileSystem(conf);
    Path tableDir = CommonFSUtils.getTableDir(root, tableName);
    List<StoreFile> files = new ArrayList<>();
    for (RegionInfo region : admin.getRegions(tableName)) {
      Path familyDir =
        new Path(new Path(tableDir, region.getEncodedName()), Bytes.toString(FAMILY));
      out.println();
      out.println("Store files of family f (region " + region.getEncodedName() + "):");
      out.println("  " + fs.makeQualified(familyDir));
      if (!fs.exists(familyDir)) {
        out.println("  (directory missing)");
        continue;
      }
      List<FileStatus> listed = new ArrayList<>();
      for (FileStatus st : fs.listStatus(familyDir)) {
        // Skips .tmp and other directories; store files are plain files.
        if (st.isFile() && !st.getPath().getName().startsWith(".")) {
          listed.add(st);
        }
      }
      listed.sort(Comparator.comparingLong(FileStatus::getModificationTime));
      List<StoreFile> here = new ArrayList<>();
      Set<String> replacedNames = new HashSet<>();
      for (FileStatus st : listed) {
        try {
          StoreFile f = inspect(fs, st);
          here.add(f);
          replacedNames.addAll(f.replaces);
        } catch (FileNotFoundException e) {
          // A compaction finished in between and archived its inputs: not a store file any more.
          LOG.info("{} went away while listing (compacted)", st.getPath());
        }
      }
      for (StoreFile f : here) {
        f.replaced = replacedNames.contains(f.status.getPath().getName());
        String what;
        if (f.trailer != null) {
          what = String.format(Locale.ROOT, "RLSM %-8s L%d %8s rows %9s cells  checksums OK",
            f.trailer.role(), f.trailer.role().level(), fmt(f.trailer.rowCount()),
            fmt(f.trailer.cellCount()));
        } else {
          what = f.rlsm ? "RLSM, damaged (see above)" : "not RLSM (HFile or other)";
        }
        out.println(String.format(Locale.ROOT, "  %-32s %11s bytes  %s%s",
          f.status.getPath().getName(), fmt(f.status.getLen()), what,
          f.replaced ? "  (replaced; archived later)" : ""));
      }
      if (here.isEmpty()) {
        out.println("  (no store files)");
      }
      files.addAll(here);
    }
    return files;
  }

  private StoreFile inspect(FileSystem fs, FileStatus st) throws IOException {
    if (!RlsmFileFormat.isRlsmFile(fs, st.getPath())) {
      return new StoreFile(st, false, null, Collections.emptyList());
    }
    try (RlsmFileReader reader = RlsmFileReader.open(fs, st.getPath())) {
      // open() checks the trailer, index, Bloom and meta sections; this checks the rows too.
      reader.verifyData();
      return new StoreFile(st, true, reader.trailer(),
        reader.meta().getStringList(st.getPath().toString(), FileMeta.COMPACTED_FILES));
    } catch (FileNotFoundException e) {
      throw e;
    } catch (IOException e) {
      fail("RLSM file " + st.getPath() + " does not validate: " + e.getMessage());
      return new StoreFile(st, true, null, Collections.emptyList());
    }
  }

  // ----- output -----

  private void step(String message, long startNanos) {
    out.println(String.format(Locale.ROOT, "[%d] %7s  %s", ++step,
      secs(System.nanoTime() - startNanos), message));
  }

  private static String secs(long nanos) {
    return String.format(Locale.ROOT, "%.1f s", nanos / (double) TimeUnit.SECONDS.toNanos(1));
  }

  private static String fmt(long n) {
    return String.format(Locale.ROOT, "%,d", n);
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
