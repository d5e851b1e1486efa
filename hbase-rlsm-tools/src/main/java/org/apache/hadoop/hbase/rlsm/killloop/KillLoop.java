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
package org.apache.hadoop.hbase.rlsm.killloop;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionConfiguration;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The kill -9 loop (docs/kill-loop.md). Each cycle runs the {@link Workload} on an RLSM table
 * and a default-engine control table for a random time, kills the {@link StandaloneServer} with
 * SIGKILL while operations are in flight, restarts it, measures the time until both tables serve
 * reads again, and has the {@link OracleCheck} check every key against the {@link Oracle}.
 * Exit code 0 only if nothing acknowledged was lost and nothing wrong was ever read.
 */
@InterfaceAudience.Private
public final class KillLoop {
  static final TableName RLSM_TABLE = TableName.valueOf("killloop_rlsm");
  static final TableName DEFAULT_TABLE = TableName.valueOf("killloop_default");
  /** Small memstores, so a few seconds of load make several flushes per cycle. */
  private static final long FLUSH_BYTES = 256L << 10;
  /** RLSM partition split size: the few MB of live data span several partitions. */
  private static final long PARTITION_BYTES = 512L << 10;
  private static final long RECOVERY_TIMEOUT_MS = TimeUnit.MINUTES.toMillis(5);

  private final KillLoopOptions opts;
  private final PrintStream out;
  private final List<TableRun> tables = new ArrayList<>();
  private int cycles;
  private long maxRecoveryMs;
  private long totalRecoveryMs;
  private boolean exitedEarly;

  /** One table's oracle, statistics and value sequences across the cycles. */
  private static final class TableRun {
    final TableName name;
    final Oracle oracle;
    final LoopStats stats = new LoopStats();
    final long[] nextSeq;

    TableRun(TableName name, KillLoopOptions o) {
      this.name = name;
      this.oracle = new Oracle(o.keys, o.counters);
      this.nextSeq = new long[o.writers];
    }
  }

  KillLoop(KillLoopOptions opts, PrintStream out) {
    this.opts = opts;
    this.out = out;
    tables.add(new TableRun(RLSM_TABLE, opts));
    tables.add(new TableRun(DEFAULT_TABLE, opts));
  }

  public static void main(String[] args) throws Exception {
    KillLoopOptions o;
    try {
      o = KillLoopOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("KillLoop: " + e.getMessage());
      System.exit(2);
      return;
    }
    System.exit(new KillLoop(o, System.out).run() ? 0 : 1);
  }

  /** Runs the loop; true if every check passed. */
  boolean run() throws Exception {
    out.printf("kill loop: seed %d, %s, data %s, %d writers and %d readers per table, %d keys"
      + " and %d counters per table%n", opts.seed, !opts.ulfs ? "rootdir on the local file system"
      : opts.powerLoss ? "rootdir on ulfs, kills are power cuts, WALs hsync" : "rootdir on ulfs", opts.dataDir, opts.writers, opts.readers, opts.keys,
      opts.counters);
    Random rnd = new Random(opts.seed);
    StandaloneServer server = new StandaloneServer(opts, freePorts(3));
    long start = System.nanoTime();
    long budget = opts.minutes * 60e9 >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE / 2
      : (long) (opts.minutes * 60e9);
    try {
      server.start();
      awaitServing(server, true);
      while (cycles < opts.cycles && System.nanoTime() - start < budget && !exitedEarly) {
        cycle(server, rnd);
      }
    } finally {
      if (server.alive()) {
        server.kill();
      }
    }
    return summary();
  }

  private void cycle(StandaloneServer server, Random rnd) throws Exception {
    int runMs = 1000 * opts.minRunSeconds
      + rnd.nextInt(1000 * (opts.maxRunSeconds - opts.minRunSeconds) + 1);
    List<Workload> loads = new ArrayList<>();
    long[][] countsBefore = new long[tables.size()][];
    for (int i = 0; i < countsBefore.length; i++) {
      countsBefore[i] = tables.get(i).stats.operationCounts();
    }
    Connection load = ConnectionFactory.createConnection(server.clientConf(3, 15_000));
    try {
      for (TableRun t : tables) {
        Workload w = new Workload(load, t.name, t.oracle, t.stats, rnd.nextLong(), t.nextSeq);
        w.start(opts.writers, opts.readers);
        loads.add(w);
      }
      Thread.sleep(runMs);
      awaitMinimumOps(server, countsBefore);
      if (!server.alive()) {
        // As in RocksDB's crash test: a server that dies by itself is a failure, not a kill.
        exitedEarly = true;
        out.printf("cycle %d: the server exited by itself before the kill (see %s/logs)%n",
          cycles + 1, opts.dataDir);
      }
      server.kill();
    } finally {
      for (Workload w : loads) {
        w.stop();
      }
      // Closing the connection fails what waits on the dead server's ZooKeeper or RPC, so every
      // thread ends now; none may survive into the restart, where a retried operation could
      // land behind the oracle's back.
      load.close();
    }
    for (Workload w : loads) {
      w.join(TimeUnit.MINUTES.toMillis(2));
    }
    cycles++;
    long t0 = System.nanoTime();
    server.start();
    awaitServing(server, false);
    long recoveryMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    maxRecoveryMs = Math.max(maxRecoveryMs, recoveryMs);
    totalRecoveryMs += recoveryMs;
    StringBuilder line = new StringBuilder(String.format(
      "cycle %d: killed after %.1f s, recovered in %.1f s", cycles, runMs / 1e3,
      recoveryMs / 1e3));
    try (Connection conn = ConnectionFactory.createConnection(server.clientConf(30, 120_000))) {
      for (TableRun t : tables) {
        int pending = t.oracle.pendingOperations();
        long failures = new OracleCheck(t.oracle, t.stats).run(conn, t.name);
        line.append(String.format("; %s: %d pending at the kill, %d failures",
          t.name.getQualifierAsString(), pending, failures));
      }
    }
    out.println(line);
    for (TableRun t : tables) {
      out.println("  " + t.name.getQualifierAsString() + " so far: " + t.stats.load());
    }
    out.flush();
  }

  /**
   * Waits until every table has done at least --min-ops operations of every kind in this cycle
   * (the run time alone guarantees nothing on a slow machine), or the server has died. Polls the
   * counters: their values, not the time, decide when the wait ends.
   */
  private void awaitMinimumOps(StandaloneServer server, long[][] countsBefore)
    throws InterruptedException {
    for (int i = 0; i < countsBefore.length; i++) {
      LoopStats s = tables.get(i).stats;
      while (!s.everyKindGrewBy(countsBefore[i], opts.minOps) && server.alive()) {
        Thread.sleep(50);
      }
    }
  }

  /** Waits until both tables exist (creating them the first time) and serve a read. */
  private void awaitServing(StandaloneServer server, boolean create) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RECOVERY_TIMEOUT_MS);
    IOException last = null;
    while (System.nanoTime() < deadline) {
      if (!server.alive()) {
        throw new IOException("the server process exited during start-up; see "
          + opts.dataDir + "/logs/hbase-master.out and hbase-master.log");
      }
      try (Connection conn = ConnectionFactory.createConnection(server.clientConf(1, 10_000));
        Admin admin = conn.getAdmin()) {
        if (create) {
          createTables(admin);
          create = false;
        }
        for (TableRun t : tables) {
          try (Table table = conn.getTable(t.name)) {
            table.get(new Get(Oracle.keyRow(0)));
          }
        }
        return;
      } catch (IOException e) {
        last = e;
        Thread.sleep(500);
      }
    }
    throw new IOException("the server did not serve both tables within "
      + RECOVERY_TIMEOUT_MS / 1000 + " s", last);
  }

  private void createTables(Admin admin) throws IOException {
    for (TableRun t : tables) {
      if (admin.tableExists(t.name)) {
        continue;
      }
      boolean rlsm = t.name.equals(RLSM_TABLE);
      ColumnFamilyDescriptorBuilder f = rlsm ? RlsmTables.familyBuilder(Workload.FAMILY)
        : ColumnFamilyDescriptorBuilder.newBuilder(Workload.FAMILY);
      // Compactions after every second flush, and RLSM partitions small enough to split and
      // merge: kills land in compactions, splits and merges as well as in flushes.
      f.setConfiguration(CompactionConfiguration.HBASE_HSTORE_COMPACTION_MIN_KEY, "2");
      if (rlsm) {
        f.setConfiguration(RlsmCompactionConfig.L0_TRIGGER_KEY, "2");
        f.setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(PARTITION_BYTES));
      }
      TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(t.name)
        .setColumnFamily(f.build()).setMemStoreFlushSize(FLUSH_BYTES);
      TableDescriptor d = (rlsm ? RlsmTables.configure(b) : b).build();
      admin.createTable(d);
    }
  }

  private boolean summary() {
    long failures = 0;
    out.printf("kill loop summary: seed %d, %d kills, recovery %.1f s mean / %.1f s max%n",
      opts.seed, cycles, cycles == 0 ? 0 : totalRecoveryMs / 1e3 / cycles, maxRecoveryMs / 1e3);
    for (TableRun t : tables) {
      out.println("  " + t.name.getQualifierAsString() + ": " + t.stats.load());
      out.println("  " + t.name.getQualifierAsString() + ": " + t.stats.verification());
      failures += t.stats.failures();
    }
    boolean ok = failures == 0 && !exitedEarly && cycles > 0;
    out.println(ok ? "kill loop: PASSED" : "kill loop: FAILED (" + failures + " failures"
      + (exitedEarly ? ", server exited by itself" : "") + ")");
    out.flush();
    return ok;
  }

  LoopStats stats(TableName name) {
    for (TableRun t : tables) {
      if (t.name.equals(name)) {
        return t.stats;
      }
    }
    throw new IllegalArgumentException("no table " + name);
  }

  int cycles() {
    return cycles;
  }

  private static int[] freePorts(int n) throws IOException {
    int[] ports = new int[n];
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        held.add(s);
        ports[i] = s.getLocalPort();
      }
    } finally {
      for (ServerSocket s : held) {
        s.close();
      }
    }
    return ports;
  }
}
