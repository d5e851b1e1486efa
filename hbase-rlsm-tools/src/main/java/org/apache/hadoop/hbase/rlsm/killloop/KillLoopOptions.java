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
import org.apache.yetus.audience.InterfaceAudience;

/** Command-line options of {@link KillLoop}; every one has a default except the directories. */
@InterfaceAudience.Private
final class KillLoopOptions {
  static final String USAGE = "usage: KillLoop --dir DATA_DIR --conf-dir REPO/conf"
    + " [--cycles N] [--minutes M] [--writers N] [--readers N] [--keys N] [--counters N]"
    + " [--min-run-seconds S] [--max-run-seconds S] [--min-ops N] [--seed N] [--fs local|ulfs|ulfs-power]"
    + " [--ulfs-bytes N] [--server-heap SIZE]";

  File dataDir;
  File confDir;
  /** Stop after this many kills, or after {@link #minutes}, whichever comes first. */
  int cycles = 3;
  double minutes = Double.MAX_VALUE;
  int writers = 4;
  int readers = 2;
  int keys = 2_000;
  int counters = 64;
  int minRunSeconds = 4;
  int maxRunSeconds = 12;
  /**
   * A cycle is not killed before every table has acknowledged this many puts, deletes and
   * increments and served this many gets and scans in it: the run time alone says nothing about
   * what happened in it on a slow or loaded machine.
   */
  int minOps = 0;
  long seed = System.nanoTime();
  /** hbase.rootdir on ulfs (--fs ulfs or ulfs-power). */
  boolean ulfs;
  /**
   * --fs ulfs-power: the fault device's power-loss model under ulfs (a kill is a power cut for
   * unflushed device writes) and WALs synced with hsync (hbase.wal.hsync, FSYNC_WAL semantics);
   * plain --fs ulfs tests SYNC_WAL (hflush) against the death of the process.
   */
  boolean powerLoss;
  long ulfsBytes = 4L << 30;
  String serverHeap = "768m";

  static KillLoopOptions parse(String... args) {
    KillLoopOptions o = new KillLoopOptions();
    boolean cyclesGiven = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("option " + a + " needs a value; " + USAGE);
      }
      String v = args[++i];
      switch (a) {
        case "--dir":
          o.dataDir = new File(v).getAbsoluteFile();
          break;
        case "--conf-dir":
          o.confDir = new File(v).getAbsoluteFile();
          break;
        case "--cycles":
          o.cycles = positive(a, v);
          cyclesGiven = true;
          break;
        case "--minutes":
          o.minutes = Double.parseDouble(v);
          break;
        case "--writers":
          o.writers = positive(a, v);
          break;
        case "--readers":
          o.readers = positive(a, v);
          break;
        case "--keys":
          o.keys = positive(a, v);
          break;
        case "--counters":
          o.counters = positive(a, v);
          break;
        case "--min-run-seconds":
          o.minRunSeconds = positive(a, v);
          break;
        case "--max-run-seconds":
          o.maxRunSeconds = positive(a, v);
          break;
        case "--min-ops":
          o.minOps = nonNegative(a, v);
          break;
        case "--seed":
          o.seed = Long.parseLong(v);
          break;
        case "--fs":
          o.ulfs = fs(v);
          o.powerLoss = v.equals("ulfs-power");
          break;
        case "--ulfs-bytes":
          o.ulfsBytes = Long.parseLong(v);
          break;
        case "--server-heap":
          o.serverHeap = v;
          break;
        default:
          throw new IllegalArgumentException("unknown option " + a + "; " + USAGE);
      }
    }
    if (o.dataDir == null || o.confDir == null) {
      throw new IllegalArgumentException("--dir and --conf-dir are required; " + USAGE);
    }
    if (!new File(o.confDir, "hbase-site.xml").isFile()) {
      throw new IllegalArgumentException(o.confDir + " has no hbase-site.xml");
    }
    if (o.minRunSeconds > o.maxRunSeconds) {
      throw new IllegalArgumentException("--min-run-seconds exceeds --max-run-seconds");
    }
    if (o.minutes != Double.MAX_VALUE && !cyclesGiven) {
      o.cycles = Integer.MAX_VALUE; // a timed run: as many cycles as fit
    }
    return o;
  }

  private static int positive(String name, String v) {
    int n = Integer.parseInt(v);
    if (n <= 0) {
      throw new IllegalArgumentException(name + " must be positive, got " + v);
    }
    return n;
  }

  private static int nonNegative(String name, String v) {
    int n = Integer.parseInt(v);
    if (n < 0) {
      throw new IllegalArgumentException(name + " must not be negative, got " + v);
    }
    return n;
  }

  private static boolean fs(String v) {
    if (!v.equals("local") && !v.equals("ulfs") && !v.equals("ulfs-power")) {
      throw new IllegalArgumentException("--fs must be local, ulfs or ulfs-power, got " + v);
    }
    return !v.equals("local");
  }
}
