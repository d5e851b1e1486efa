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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a table against its oracle after a restart, with no load running: a Get of every key
 * and counter, and a full scan that must agree with the gets and hold no other row. Then the
 * observed state becomes the oracle's acknowledged state for the next cycle.
 */
@InterfaceAudience.Private
final class OracleCheck {
  private static final Logger LOG = LoggerFactory.getLogger(OracleCheck.class);
  private static final int BATCH = 500;

  private final Oracle oracle;
  private final LoopStats stats;

  OracleCheck(Oracle oracle, LoopStats stats) {
    this.oracle = oracle;
    this.stats = stats;
  }

  /** Checks and resolves; returns the number of failures found in this table this time. */
  long run(Connection conn, TableName name) throws IOException {
    long before = stats.lost.get() + stats.wrong.get() + stats.extra.get();
    try (Table t = conn.getTable(name)) {
      byte[][] keyValues = new byte[oracle.keys()][];
      long[] counts = new long[oracle.counters()];
      for (int from = 0; from < oracle.keys(); from += BATCH) {
        List<Get> gets = new ArrayList<>();
        for (int k = from; k < Math.min(oracle.keys(), from + BATCH); k++) {
          gets.add(new Get(Oracle.keyRow(k)));
        }
        Result[] rs = t.get(gets);
        for (int i = 0; i < rs.length; i++) {
          keyValues[from + i] = rs[i].isEmpty() ? null : rs[i].getValue(Workload.FAMILY,
            Workload.QUALIFIER);
        }
      }
      List<Get> gets = new ArrayList<>();
      for (int c = 0; c < oracle.counters(); c++) {
        gets.add(new Get(Oracle.counterRow(c)));
      }
      Result[] rs = t.get(gets);
      for (int c = 0; c < rs.length; c++) {
        counts[c] = rs[c].isEmpty() ? 0
          : Bytes.toLong(rs[c].getValue(Workload.FAMILY, Workload.QUALIFIER));
      }
      compareScan(t, name, keyValues, counts);
      for (int k = 0; k < keyValues.length; k++) {
        judge(name, Oracle.keyRow(k), oracle.checkKey(k, keyValues[k]), oracle.hasPending(k),
          !oracle.matchesAcked(k, keyValues[k]));
        oracle.resolveKey(k, keyValues[k]);
      }
      for (int c = 0; c < counts.length; c++) {
        judge(name, Oracle.counterRow(c), oracle.checkCounter(c, counts[c]),
          oracle.hasPendingIncrement(c), counts[c] > oracle.counterLowerBound(c));
        oracle.resolveCounter(c, counts[c]);
      }
    }
    return stats.lost.get() + stats.wrong.get() + stats.extra.get() - before;
  }

  private void judge(TableName name, byte[] row, Oracle.Verdict v, boolean pending,
    boolean changed) {
    stats.keysVerified.incrementAndGet();
    switch (v) {
      case OK:
        if (pending) {
          (changed ? stats.pendingApplied : stats.pendingNotApplied).incrementAndGet();
        }
        return;
      case LOST:
        stats.lost.incrementAndGet();
        break;
      case WRONG:
        stats.wrong.incrementAndGet();
        break;
      default:
        stats.extra.incrementAndGet();
        break;
    }
    LOG.error("{} in {} row {}", v, name, Bytes.toStringBinary(row));
  }

  /** The full scan must return exactly the rows and values the gets found, and nothing else. */
  private void compareScan(Table t, TableName name, byte[][] keyValues, long[] counts)
    throws IOException {
    int expected = 0;
    for (byte[] v : keyValues) {
      expected += v != null ? 1 : 0;
    }
    for (long c : counts) {
      expected += c != 0 ? 1 : 0;
    }
    int seen = 0;
    try (ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        seen++;
        byte[] row = r.getRow();
        byte[] v = r.getValue(Workload.FAMILY, Workload.QUALIFIER);
        int k = oracle.keyIndex(row);
        int c = oracle.counterIndex(row);
        boolean same = k >= 0 ? Arrays.equals(v, keyValues[k])
          : c >= 0 && v.length == Bytes.SIZEOF_LONG && Bytes.toLong(v) == counts[c];
        if (!same) {
          stats.wrong.incrementAndGet();
          LOG.error("scan of {} disagrees with get at row {}", name, Bytes.toStringBinary(row));
        }
      }
    }
    if (seen != expected) {
      stats.extra.incrementAndGet();
      LOG.error("scan of {} returned {} rows, gets found {}", name, seen, expected);
    }
  }
}
