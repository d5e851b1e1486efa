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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * One engine's run of {@code ycsb-compare.sh}, read from {@code RESULTS/ENGINE/}: per phase the
 * YCSB measurements and the figures accumulated since the server started (user bytes, committed
 * store-file bytes, the process's OS write bytes, compactions, RLSM counters). Phases are YCSB's
 * documented order, load, A, B, C, F, D, then the reload for E and E; "final" is after the
 * harness waited for the compaction queue to empty.
 */
@InterfaceAudience.Private
public final class EngineRun {
  /** Phases with a YCSB run, in order. */
  public static final List<String> YCSB_PHASES =
    List.of("load", "a", "b", "c", "f", "d", "reload", "e");
  /** The phase after the settle wait, without a YCSB run. */
  public static final String FINAL = "final";
  /** Store files listed after the server stopped (the only listing on ulfs). */
  static final String STOPPED_LISTING = "stopped.files";
  /** Allocated bytes of the server's data directory after the stop ({@code du}). */
  static final String STOPPED_DU = "stopped.du";

  /** The figures of one phase; cumulative ones count from the server's start. */
  public static final class Phase {
    final String name;
    /** Null for {@link #FINAL}. */
    final YcsbMeasurements ycsb;
    final double userBytes;
    /** Store-file bytes ever committed, or null when the files were not listed. */
    final Long committedBytes;
    final long osWriteBytes;
    final int compactions;
    final long compactionMillis;
    final long liveStoreBytes;
    /** Summed RLSM counters ({@link PhaseSnapshot#RLSM_COUNTERS}), or null for other engines. */
    final long[] rlsm;
    final long rlsmPartitions;
    final double loadAverage;

    Phase(String name, YcsbMeasurements ycsb, double userBytes, Long committedBytes,
      long osWriteBytes, int compactions, long compactionMillis, long liveStoreBytes,
      long[] rlsm, long rlsmPartitions, double loadAverage) {
      this.name = name;
      this.ycsb = ycsb;
      this.userBytes = userBytes;
      this.committedBytes = committedBytes;
      this.osWriteBytes = osWriteBytes;
      this.compactions = compactions;
      this.compactionMillis = compactionMillis;
      this.liveStoreBytes = liveStoreBytes;
      this.rlsm = rlsm;
      this.rlsmPartitions = rlsmPartitions;
      this.loadAverage = loadAverage;
    }

    /** Committed store-file bytes per user byte, or NaN when not listed. */
    public double writeAmplification() {
      return committedBytes == null ? Double.NaN : committedBytes / userBytes;
    }

    /** Bytes the server process wrote to storage (WAL, logs included) per user byte. */
    public double osWriteAmplification() {
      return osWriteBytes / userBytes;
    }
  }

  final String engine;
  final List<Phase> phases;
  /** Disk space of the data directory (WALs, logs, ZooKeeper included) at the end. */
  final long dataDirBytes;

  private EngineRun(String engine, List<Phase> phases, long dataDirBytes) {
    this.engine = engine;
    this.phases = phases;
    this.dataDirBytes = dataDirBytes;
  }

  /** Reads {@code dir} (named after the engine); {@code family} is the YCSB table's family. */
  public static EngineRun read(Path dir, String family, UserBytes perOp) throws IOException {
    String engine = dir.getFileName().toString();
    PhaseSnapshot start = PhaseSnapshot.read(dir, "start");
    List<CompactionLog.Compaction> compactions = CompactionLog.read(serverLogs(dir), family);
    Map<String, Long> files = new HashMap<>();
    Map<String, long[]> rlsmStores = new HashMap<>();
    List<Phase> phases = new ArrayList<>();
    double user = 0;
    List<String> names = new ArrayList<>(YCSB_PHASES);
    names.add(FINAL);
    for (String name : names) {
      YcsbMeasurements ycsb =
        name.equals(FINAL) ? null : YcsbMeasurements.read(dir.resolve(name + ".ycsb.txt"));
      PhaseSnapshot s = PhaseSnapshot.read(dir, name);
      if (ycsb != null) {
        user += perOp.of(ycsb);
      }
      Long committed = null;
      if (s.files != null) {
        s.files.forEach((k, v) -> files.merge(k, v, Math::max));
        committed = sum(files);
      }
      if (name.equals(FINAL) && Files.exists(dir.resolve(STOPPED_LISTING))) {
        PhaseSnapshot.readListing(dir.resolve(STOPPED_LISTING))
          .forEach((k, v) -> files.merge(k, v, Math::max));
        committed = sum(files);
      }
      rlsmStores.putAll(s.rlsmStores); // counters only grow: the last value of each store wins
      int count = 0;
      long millis = 0;
      for (CompactionLog.Compaction c : compactions) {
        if (c.endMillis <= s.timeMillis) {
          count++;
          millis += c.durationMillis;
        }
      }
      phases.add(new Phase(name, ycsb, user, committed, s.osWriteBytes - start.osWriteBytes, count,
        millis, s.storeFileBytes, rlsmStores.isEmpty() ? null : sumColumns(rlsmStores),
        s.rlsmPartitions, s.loadAverage));
    }
    return new EngineRun(engine, Collections.unmodifiableList(phases),
      PhaseSnapshot.firstNumber(dir.resolve(STOPPED_DU)));
  }

  /** The phase called {@code name}. */
  public Phase phase(String name) {
    for (Phase p : phases) {
      if (p.name.equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException("no phase " + name);
  }

  /** hbase-master.log and its rolled predecessors, oldest first. */
  private static List<Path> serverLogs(Path dir) throws IOException {
    Path logs = dir.resolve("logs");
    List<Path> result = new ArrayList<>();
    for (int i = 9; i >= 1; i--) {
      Path rolled = logs.resolve("hbase-master.log." + i);
      if (Files.exists(rolled)) {
        result.add(rolled);
      }
    }
    Path current = logs.resolve("hbase-master.log");
    if (!Files.exists(current)) {
      throw new ReportFormatException(current, 0, "server log is missing");
    }
    result.add(current);
    return result;
  }

  private static long sum(Map<String, Long> sizes) {
    long total = 0;
    for (long v : sizes.values()) {
      total += v;
    }
    return total;
  }

  private static long[] sumColumns(Map<String, long[]> rows) {
    long[] total = new long[PhaseSnapshot.RLSM_COUNTERS.length];
    for (long[] row : rows.values()) {
      for (int i = 0; i < total.length; i++) {
        total[i] += row[i];
      }
    }
    return total;
  }
}
