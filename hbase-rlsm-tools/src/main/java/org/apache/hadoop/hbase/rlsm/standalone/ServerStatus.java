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

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ClusterMetrics.Option;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.rlsm.tool.ToolSupport;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers "is the standalone server up?" for {@code bin/hbase-start} (which polls with
 * {@code --wait}) and {@code bin/hbase-status} (one probe, then a short report).
 * <p>
 * "Up" means what a user needs before creating tables: the master is initialized (it answers
 * {@code listTableDescriptors}, which refuses with {@code PleaseHoldException} before that) and at
 * least one RegionServer is live. A running JVM or an open port is not enough: the master takes
 * several seconds after binding its port to assign {@code hbase:meta}.
 * <p>
 * Exit codes: 0 up; 1 not up (within the wait, if any); 2 bad command line; 3 the process given
 * by {@code --pid} died while we waited.
 */
@InterfaceAudience.Private
public final class ServerStatus {
  private static final Logger LOG = LoggerFactory.getLogger(ServerStatus.class);

  static final int EXIT_UP = 0;
  static final int EXIT_DOWN = 1;
  static final int EXIT_USAGE = 2;
  static final int EXIT_DIED = 3;

  private static final String USAGE = "usage: ServerStatus [--wait SECONDS] [--pid PID] [--quiet]\n"
    + "  --wait SECONDS  poll until the server is up or SECONDS have passed (default: one probe)\n"
    + "  --pid PID       stop waiting early if this process exits (the server being started)\n"
    + "  --quiet         print nothing when the server is up";

  /** Upper bound of one probe, on top of the client's own (shortened) timeouts. */
  private static final long PROBE_TIMEOUT_MS = 20_000;
  private static final long POLL_INTERVAL_MS = 1_000;
  private static final long PROGRESS_INTERVAL_MS = 30_000;

  private ServerStatus() {
  }

  /** What one probe saw. {@code error} is null when the server is up. */
  static final class Probe {
    final String error;
    final ServerName master;
    final List<ServerName> liveServers;
    final List<ServerName> deadServers;
    final int regions;
    final int regionsInTransition;
    final List<String> tables;

    private Probe(String error, ServerName master, List<ServerName> live, List<ServerName> dead,
      int regions, int rit, List<String> tables) {
      this.error = error;
      this.master = master;
      this.liveServers = live;
      this.deadServers = dead;
      this.regions = regions;
      this.regionsInTransition = rit;
      this.tables = tables;
    }

    static Probe down(String error) {
      return new Probe(error, null, Collections.emptyList(), Collections.emptyList(), 0, 0,
        Collections.emptyList());
    }

    boolean isUp() {
      return error == null;
    }
  }

  /** One probe with the fail-fast client settings, bounded by {@link #PROBE_TIMEOUT_MS}. */
  static Probe probe(Configuration base) {
    Configuration conf = StandaloneClient.probeConf(base);
    // The HBase client can block in ZooKeeper or RPC setup longer than its timeouts say; a daemon
    // thread lets us give up on it without keeping the JVM alive.
    ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "server-probe");
      t.setDaemon(true);
      return t;
    });
    try {
      Future<Probe> f = pool.submit(() -> probeOnce(conf));
      return f.get(PROBE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return Probe.down("no answer within " + PROBE_TIMEOUT_MS / 1000 + " s");
    } catch (ExecutionException e) {
      LOG.debug("probe failed", e.getCause());
      // The root cause says what is missing (connection refused, master initializing); the
      // client's wrappers (RetriesExhaustedException ...) only say that it gave up.
      Throwable c = e.getCause();
      while (c.getCause() != null && c.getCause() != c) {
        c = c.getCause();
      }
      return Probe.down(c.getClass().getSimpleName() + ": " + firstLine(c.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Probe.down("interrupted");
    } finally {
      pool.shutdownNow();
    }
  }

  private static Probe probeOnce(Configuration conf) throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      ClusterMetrics m = admin.getClusterMetrics(EnumSet.of(Option.MASTER, Option.LIVE_SERVERS,
        Option.DEAD_SERVERS, Option.REGIONS_IN_TRANSITION));
      List<ServerName> live = new ArrayList<>(m.getLiveServerMetrics().keySet());
      Collections.sort(live);
      if (live.isEmpty()) {
        return Probe.down("master " + m.getMasterName() + " has no live RegionServer yet");
      }
      // Throws PleaseHoldException until the master has finished initializing.
      List<String> tables = new ArrayList<>();
      for (TableDescriptor td : admin.listTableDescriptors()) {
        tables.add(td.getTableName().getNameAsString());
      }
      Collections.sort(tables);
      int regions = 0;
      for (ServerMetrics sm : m.getLiveServerMetrics().values()) {
        regions += sm.getRegionMetrics().size();
      }
      return new Probe(null, m.getMasterName(), live, new ArrayList<>(m.getDeadServerNames()),
        regions, m.getRegionStatesInTransition().size(), tables);
    }
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  private static boolean alive(long pid) {
    Optional<ProcessHandle> h = ProcessHandle.of(pid);
    return h.isPresent() && h.get().isAlive();
  }

  static void report(Configuration conf, Probe p, PrintStream out) {
    out.println("ZooKeeper:       " + StandaloneClient.zkAddress(conf));
    out.println("HBase root:      " + conf.get("hbase.rootdir"));
    out.println("master:          " + p.master);
    out.println("region servers:  " + p.liveServers.size() + " live " + p.liveServers + ", "
      + p.deadServers.size() + " dead");
    out.println("regions:         " + p.regions + " online on live servers, "
      + p.regionsInTransition + " in transition");
    out.println("user tables:     " + p.tables.size() + (p.tables.isEmpty() ? "" : " " + p.tables));
  }

  static int run(String[] argv, PrintStream out, PrintStream err) {
    long waitSeconds;
    long pid;
    boolean quiet;
    try {
      ToolSupport.Args args =
        new ToolSupport.Args(argv, Arrays.asList("--quiet"), Arrays.asList("--wait", "--pid"));
      if (!args.positional().isEmpty()) {
        throw new ToolSupport.UsageException("unexpected argument " + args.positional().get(0));
      }
      waitSeconds = args.getLong("--wait", -1);
      pid = args.getLong("--pid", -1);
      quiet = args.has("--quiet");
    } catch (ToolSupport.UsageException e) {
      err.println("ServerStatus: " + e.getMessage());
      err.println(USAGE);
      return EXIT_USAGE;
    }
    Configuration conf = ToolSupport.clientConf();
    long start = System.nanoTime();
    long deadline = start + TimeUnit.SECONDS.toNanos(Math.max(waitSeconds, 0));
    long nextProgress = start + TimeUnit.MILLISECONDS.toNanos(PROGRESS_INTERVAL_MS);
    while (true) {
      Probe p = probe(conf);
      if (p.isUp()) {
        if (!quiet) {
          report(conf, p, out);
        }
        return EXIT_UP;
      }
      LOG.debug("server not up: {}", p.error);
      long now = System.nanoTime();
      if (pid > 0 && !alive(pid)) {
        err.println("the server process " + pid + " exited before it came up (last probe: "
          + p.error + ")");
        return EXIT_DIED;
      }
      if (waitSeconds < 0 || now >= deadline) {
        err.println("the HBase server at ZooKeeper " + StandaloneClient.zkAddress(conf)
          + " is not up" + (waitSeconds > 0 ? " after " + waitSeconds + " s" : "") + ": "
          + p.error);
        return EXIT_DOWN;
      }
      if (now >= nextProgress) {
        err.println("still waiting for the master ("
          + TimeUnit.NANOSECONDS.toSeconds(now - start) + " s; last probe: " + p.error + ")");
        nextProgress = now + TimeUnit.MILLISECONDS.toNanos(PROGRESS_INTERVAL_MS);
      }
      try {
        Thread.sleep(POLL_INTERVAL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return EXIT_DOWN;
      }
    }
  }

  public static void main(String[] argv) {
    // System.exit: the HBase client leaves non-daemon threads behind after a failed connection.
    System.exit(run(argv, System.out, System.err));
  }
}
