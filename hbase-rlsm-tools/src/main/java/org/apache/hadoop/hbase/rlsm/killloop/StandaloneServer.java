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

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.master.region.MasterRegionFactory;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.rlsm.ulfs.UlfsConfig;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The standalone HBase server of the loop as a child JVM: {@code HMaster start} in local mode
 * (master, RegionServer and ZooKeeper in one process), started as {@code bin/hbase-start} starts
 * it (the repository's {@code conf/} first on the classpath, the same {@code -Drlsm.*} system
 * properties and JDK 17 flags), plus {@code -D} overrides that make flushes and compactions
 * frequent and recovery after a kill fast. {@link #kill} is SIGKILL: no shutdown hook, no
 * unmount, no flush.
 */
@InterfaceAudience.Private
final class StandaloneServer {
  private final KillLoopOptions opts;
  private final int[] ports;
  private Process process;
  private int starts;

  StandaloneServer(KillLoopOptions opts, int[] ports) {
    this.opts = opts;
    this.ports = ports;
  }

  void start() throws IOException {
    File logs = new File(opts.dataDir, "logs");
    if (!logs.isDirectory() && !logs.mkdirs()) {
      throw new IOException("cannot create " + logs);
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(System.getProperty("java.home") + "/bin/java");
    cmd.add("-Xmx" + opts.serverHeap);
    cmd.add("-XX:+UseG1GC");
    // The JDK 17 flags this JVM got (surefire argLine or bin/rlsm-env.sh), HBase needs them too.
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.startsWith("--add-exports")
        || a.startsWith("-Dorg.apache.hbase.thirdparty")) {
        cmd.add(a);
      }
    }
    cmd.add("-Drlsm.data.dir=" + opts.dataDir.getAbsolutePath());
    cmd.add("-Drlsm.zk.port=" + ports[0]);
    cmd.add("-Drlsm.master.port=" + ports[1]);
    cmd.add("-Drlsm.regionserver.port=" + ports[2]);
    // No web UIs: loops run side by side and beside a standalone server.
    cmd.add("-Drlsm.master.info.port=-1");
    cmd.add("-Drlsm.regionserver.info.port=-1");
    cmd.add("-Drlsm.log.file=hbase-master.log");
    if (opts.ulfs) {
      cmd.add("-Drlsm.rootdir=ulfs:///hbase");
      cmd.add("-Drlsm.ulfs.bytes=" + opts.ulfsBytes);
      cmd.add("-Drlsm.ulfs.cache.trace="); // no page-access trace (see bin/rlsm-env.sh)
    }
    cmd.add("-cp");
    cmd.add(opts.confDir.getAbsolutePath() + File.pathSeparator
      + System.getProperty("java.class.path"));
    cmd.add("org.apache.hadoop.hbase.master.HMaster");
    for (String kv : serverOverrides()) {
      cmd.add("-D" + kv);
    }
    if (opts.powerLoss) {
      // Power-loss model: what ulfs has not flushed to the device lives only in this process,
      // so the kill loses it. A new seed per start varies the fault device's choices. hflush
      // promises nothing against a power cut, so every WAL (the master's too) syncs with hsync.
      cmd.add("-D" + UlfsConfig.FAULT_VOLATILE_KEY + "=true");
      cmd.add("-D" + UlfsConfig.FAULT_SEED_KEY + "=" + (opts.seed + starts + 1));
      cmd.add("-D" + HRegion.WAL_HSYNC_CONF_KEY + "=true");
      cmd.add("-D" + MasterRegionFactory.USE_HSYNC_KEY + "=true");
    }
    cmd.add("start");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
      .redirectOutput(ProcessBuilder.Redirect.appendTo(new File(logs, "hbase-master.out")));
    process = pb.start();
    starts++;
  }

  /**
   * Server settings of the loop. A short ZooKeeper session lets the restarted server take over
   * from the killed one quickly; the sanity check is off so tables may have a 256 KB flush size.
   */
  private static List<String> serverOverrides() {
    List<String> o = new ArrayList<>();
    o.add("hbase.table.sanity.checks=false");
    o.add("zookeeper.session.timeout=10000");
    o.add("hbase.regionserver.handler.count=20");
    o.add("hbase.hstore.compaction.min=2");
    o.add("hbase.master.wait.on.regionservers.mintostart=1");
    return o;
  }

  /** SIGKILL, then wait until the process is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("server process " + process.pid() + " survived SIGKILL");
    }
  }

  boolean alive() {
    return process != null && process.isAlive();
  }

  /** A client configuration for this server with the given retry budget. */
  Configuration clientConf(int retries, int operationTimeoutMs) {
    Configuration c = HBaseConfiguration.create();
    c.set(HConstants.ZOOKEEPER_QUORUM, "127.0.0.1");
    c.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, ports[0]);
    c.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, retries);
    c.setInt(HConstants.HBASE_CLIENT_PAUSE, 100);
    c.setInt(HConstants.HBASE_RPC_TIMEOUT_KEY, Math.min(operationTimeoutMs, 10_000));
    c.setInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, operationTimeoutMs);
    c.setInt(HConstants.HBASE_CLIENT_META_OPERATION_TIMEOUT, operationTimeoutMs);
    c.setInt("zookeeper.recovery.retry", 3);
    c.setInt(HConstants.ZK_SESSION_TIMEOUT, 10_000);
    return c;
  }
}
