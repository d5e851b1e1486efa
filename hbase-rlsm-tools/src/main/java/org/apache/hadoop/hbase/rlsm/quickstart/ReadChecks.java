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

import static org.apache.hadoop.hbase.rlsm.quickstart.DemoWorkload.BATCH;
import static org.apache.hadoop.hbase.rlsm.quickstart.DemoWorkload.FAMILY;
import static org.apache.hadoop.hbase.rlsm.quickstart.DemoWorkload.rowKey;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The reads the quick start checks against the {@link ReferenceModel}: Gets (latest and all
 * versions) of a sample covering every kind of row the {@link DemoWorkload} produces, a forward
 * Scan with start and stop rows, a reverse Scan and a full Scan. Each returns how many Gets or
 * rows it checked; every difference goes to {@link Failures}.
 */
@InterfaceAudience.Private
final class ReadChecks {
  private final Table table;
  private final ReferenceModel model;
  /** Rows of the workload's first phase. */
  private final int rows;
  private final Failures failures;

  ReadChecks(Table table, ReferenceModel model, int rows, Failures failures) {
    this.table = table;
    this.model = model;
    this.rows = rows;
    this.failures = failures;
  }

  int gets() throws IOException {
    List<Get> latest = new ArrayList<>();
    List<Get> allVersions = new ArrayList<>();
    int total = rows + rows / 10;
    for (int i = 0; i < total; i++) {
      if (DemoWorkload.touchedLater(i) || i % 13 == 0) {
        latest.add(new Get(rowKey(i)));
      }
      if (DemoWorkload.hasHistory(i)) {
        allVersions.add(new Get(rowKey(i)).readVersions(DemoWorkload.MAX_VERSIONS));
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

  /** The forward Scan's range, for the report. */
  String forwardRange() {
    return "[" + Bytes.toString(rowKey(rows / 4)) + ", " + Bytes.toString(rowKey(rows * 3 / 4))
      + ")";
  }

  int forwardScan() throws IOException {
    byte[] start = rowKey(rows / 4);
    byte[] stop = rowKey(rows * 3 / 4);
    Scan scan = new Scan().withStartRow(start).withStopRow(stop).setCaching(BATCH);
    return scan(scan, model.rows.subMap(start, true, stop, false), "forward Scan");
  }

  /** The reverse Scan's range, for the report. */
  String reverseRange() {
    return "from " + Bytes.toString(rowKey(rows * 9 / 10)) + " down to "
      + Bytes.toString(rowKey(rows / 10));
  }

  int reverseScan() throws IOException {
    // Reversed: the start row is the high end (inclusive), the stop row the low end (exclusive).
    byte[] high = rowKey(rows * 9 / 10);
    byte[] low = rowKey(rows / 10);
    Scan scan =
      new Scan().withStartRow(high).withStopRow(low).setReversed(true).setCaching(BATCH);
    return scan(scan, model.rows.subMap(low, false, high, true).descendingMap(), "reverse Scan");
  }

  int fullScan() throws IOException {
    return scan(new Scan().setCaching(BATCH), model.rows, "full Scan");
  }

  private int scan(Scan scan,
    NavigableMap<byte[], TreeMap<byte[], NavigableMap<Long, byte[]>>> expected, String what)
    throws IOException {
    Iterator<byte[]> want = expected.keySet().iterator();
    int n = 0;
    try (ResultScanner scanner = table.getScanner(scan)) {
      for (Result r : scanner) {
        n++;
        if (!want.hasNext()) {
          failures.add(what + ": unexpected extra row " + Bytes.toStringBinary(r.getRow()));
          continue;
        }
        byte[] row = want.next();
        if (!Bytes.equals(row, r.getRow())) {
          failures.add(what + ": row " + n + " is " + Bytes.toStringBinary(r.getRow())
            + ", expected " + Bytes.toStringBinary(row));
          return n;
        }
        compare(what + " row " + Bytes.toString(row), row, r, 1);
      }
    }
    if (want.hasNext()) {
      failures.add(what + ": returned " + n + " rows, expected " + expected.size()
        + " (first missing: " + Bytes.toStringBinary(want.next()) + ")");
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
        failures.add(what + ": foreign cell " + c);
      }
      actual.add(describe(CellUtil.cloneQualifier(c), c.getTimestamp(), CellUtil.cloneValue(c)));
    }
    if (!expected.equals(actual)) {
      failures.add(what + ": got " + actual + ", expected " + expected);
    }
  }

  private static String describe(byte[] qualifier, long ts, byte[] value) {
    String v = Bytes.toStringBinary(value, 0, Math.min(value.length, 24));
    // The digest catches a wrong byte past the part shown.
    return Bytes.toString(qualifier) + "@" + ts + "=" + v + "#" + Arrays.hashCode(value);
  }
}
