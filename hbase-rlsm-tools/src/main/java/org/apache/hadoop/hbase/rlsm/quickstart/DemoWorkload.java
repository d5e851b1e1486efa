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

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The demo data set, written in four phases with several versions and every kind of delete; each
 * write is applied to the {@link ReferenceModel} too. Rows {@code 0 .. rows-1} are written first,
 * {@code rows .. rows + rows/10 - 1} join in phase 3; which rows get which operation follows from
 * the row number, so {@link ReadChecks} can sample every kind.
 */
@InterfaceAudience.Private
final class DemoWorkload {
  static final byte[] FAMILY = Bytes.toBytes("f");
  /** Every cell gets at most this many versions, so deletes never uncover trimmed versions. */
  static final int MAX_VERSIONS = 3;
  static final int BATCH = 1_000;

  private static final byte[] NAME = Bytes.toBytes("name");
  private static final byte[] CITY = Bytes.toBytes("city");
  private static final byte[] SCORE = Bytes.toBytes("score");
  private static final byte[] PAYLOAD = Bytes.toBytes("payload");
  private static final byte[] TAG = Bytes.toBytes("tag");
  private static final String[] CITIES =
    { "Aachen", "Bergen", "Cork", "Dijon", "Evora", "Fes", "Graz", "Hue" };

  private final int rows;
  private final ReferenceModel model;
  private final Random random = new Random(20260101L);
  private long puts;
  private long deletes;

  DemoWorkload(int rows, ReferenceModel model) {
    this.rows = rows;
    this.model = model;
  }

  static byte[] rowKey(int i) {
    return Bytes.toBytes(String.format(Locale.ROOT, "user%08d", i));
  }

  /** Rows written in all phases together. */
  int rowsWritten() {
    return rows + rows / 10;
  }

  long puts() {
    return puts;
  }

  long deletes() {
    return deletes;
  }

  private byte[] payload(int i, int phase) {
    byte[] b = new byte[64 + random.nextInt(128)];
    random.nextBytes(b);
    // A readable prefix, so a wrong row or phase shows in a failure message.
    byte[] tag = Bytes.toBytes(i + "/" + phase + ":");
    System.arraycopy(tag, 0, b, 0, Math.min(tag.length, b.length));
    return b;
  }

  /** Every row gets name, city, score and payload. */
  void phase1(Table table, long ts) throws IOException {
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
  void phase2(Table table, long ts) throws IOException {
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
  void phase3(Table table, long ts) throws IOException {
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
    for (int i = rows; i < rowsWritten(); i++) {
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
  void phase4(Table table, long ts) throws IOException {
    List<Put> puts = new ArrayList<>();
    List<Delete> dels = new ArrayList<>();
    for (int i = 0; i < rowsWritten(); i++) {
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

  /**
   * Whether phases 2 to 4 give row {@code i} anything beyond its first write: the rows
   * {@link ReadChecks} must always read.
   */
  static boolean touchedLater(int i) {
    return i % 50 == 7 || i % 20 == 3 || i % 100 == 5 || i % 25 == 1 || i % 200 == 99
      || i % 40 == 11 || i % 60 == 0;
  }

  /** Whether row {@code i} has several versions of a column or was deleted and written again. */
  static boolean hasHistory(int i) {
    return i % 30 == 0 || i % 50 == 7;
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
}
