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
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The load of one cycle on one table: writer threads (each owning the keys and counters whose
 * index is its number modulo the writer count), reader threads doing gets and short scans that
 * check every value they see, and a thread forcing flushes and compactions. It runs until
 * {@link #stop} (called right after the kill); a thread ends at its first failed operation.
 */
@InterfaceAudience.Private
final class Workload {
  private static final Logger LOG = LoggerFactory.getLogger(Workload.class);
  static final byte[] FAMILY = Bytes.toBytes("f");
  static final byte[] QUALIFIER = Bytes.toBytes("q");
  private static final int SCAN_ROWS = 50;

  private final Connection conn;
  private final TableName name;
  private final Oracle oracle;
  private final LoopStats stats;
  private final long seed;
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean stopped;
  /** Kept so the next cycle continues the sequence: values stay unique across cycles. */
  private final long[] nextSeq;

  Workload(Connection conn, TableName name, Oracle oracle, LoopStats stats, long seed,
    long[] nextSeq) {
    this.conn = conn;
    this.name = name;
    this.oracle = oracle;
    this.stats = stats;
    this.seed = seed;
    this.nextSeq = nextSeq;
  }

  void start(int writers, int readers) {
    for (int w = 0; w < writers; w++) {
      int id = w;
      threads.add(thread("writer-" + w, () -> write(id, writers)));
    }
    for (int r = 0; r < readers; r++) {
      int id = r;
      threads.add(thread("reader-" + r, () -> read(id)));
    }
    threads.add(thread("chaos", this::chaos));
    threads.forEach(Thread::start);
  }

  void stop() {
    stopped = true;
  }

  /** Waits for every thread; they end within the client's operation timeout after the kill. */
  void join(long timeoutMs) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    for (Thread t : threads) {
      t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      if (t.isAlive()) {
        throw new IllegalStateException(t.getName() + " of " + name + " did not end");
      }
    }
  }

  private interface Body {
    void run() throws IOException, InterruptedException;
  }

  private Thread thread(String what, Body body) {
    Thread t = new Thread(() -> {
      try {
        body.run();
      } catch (IOException | RuntimeException e) {
        // Expected once the server is killed or the connection closed: the operation stays
        // pending in the oracle.
        LOG.debug("{} {} ended: {}", name, what, e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "killloop-" + name.getQualifierAsString() + "-" + what);
    t.setDaemon(true);
    return t;
  }

  private void write(int id, int writers) throws IOException {
    Random rnd = new Random(seed * 31 + id);
    int ownKeys = (oracle.keys() - id + writers - 1) / writers;
    int ownCounters = (oracle.counters() - id + writers - 1) / writers;
    try (Table t = conn.getTable(name)) {
      while (!stopped) {
        int op = rnd.nextInt(100);
        if (op < 25 && ownCounters > 0) {
          increment(t, id + writers * rnd.nextInt(ownCounters), 1 + rnd.nextInt(9));
        } else if (op < 40) {
          delete(t, id + writers * rnd.nextInt(ownKeys));
        } else {
          put(t, id + writers * rnd.nextInt(ownKeys), id, writers);
        }
      }
    }
  }

  private void put(Table t, int key, int id, int writers) throws IOException {
    byte[] row = Oracle.keyRow(key);
    byte[] value = ValueCodec.encode(row, nextSeq[id] * writers + id);
    nextSeq[id]++;
    oracle.begin(key, value);
    try {
      t.put(new Put(row).addColumn(FAMILY, QUALIFIER, value));
    } catch (IOException | RuntimeException e) {
      stats.unacknowledged.incrementAndGet();
      throw e;
    }
    oracle.ack(key, value);
    stats.puts.incrementAndGet();
  }

  private void delete(Table t, int key) throws IOException {
    oracle.begin(key, null);
    try {
      t.delete(new Delete(Oracle.keyRow(key)));
    } catch (IOException | RuntimeException e) {
      stats.unacknowledged.incrementAndGet();
      throw e;
    }
    oracle.ack(key, null);
    stats.deletes.incrementAndGet();
  }

  private void increment(Table t, int counter, long delta) throws IOException {
    oracle.beginIncrement(counter, delta);
    try {
      t.incrementColumnValue(Oracle.counterRow(counter), FAMILY, QUALIFIER, delta);
    } catch (IOException | RuntimeException e) {
      stats.unacknowledged.incrementAndGet();
      throw e;
    }
    oracle.ackIncrement(counter, delta);
    stats.increments.incrementAndGet();
  }

  private void read(int id) throws IOException {
    Random rnd = new Random(seed * 37 + 1000 + id);
    try (Table t = conn.getTable(name)) {
      while (!stopped) {
        if (rnd.nextInt(10) < 7) {
          readOne(t, rnd);
        } else {
          scanSome(t, Oracle.keyRow(rnd.nextInt(oracle.keys())));
        }
      }
    }
  }

  private void readOne(Table t, Random rnd) throws IOException {
    if (rnd.nextBoolean()) {
      int c = rnd.nextInt(oracle.counters());
      long atLeast = oracle.counterLowerBound(c);
      Result r = t.get(new Get(Oracle.counterRow(c)));
      stats.gets.incrementAndGet();
      long seen = r.isEmpty() ? 0 : Bytes.toLong(r.getValue(FAMILY, QUALIFIER));
      if (seen < atLeast) {
        badRead(Oracle.counterRow(c), "counter " + seen + " below acknowledged " + atLeast);
      }
    } else {
      byte[] row = Oracle.keyRow(rnd.nextInt(oracle.keys()));
      Result r = t.get(new Get(row));
      stats.gets.incrementAndGet();
      checkValue(row, r);
    }
  }

  private void scanSome(Table t, byte[] start) throws IOException {
    try (ResultScanner s = t.getScanner(new Scan().withStartRow(start).setLimit(SCAN_ROWS))) {
      for (Result r : s) {
        if (oracle.keyIndex(r.getRow()) >= 0) {
          checkValue(r.getRow(), r);
        } else if (oracle.counterIndex(r.getRow()) < 0
          || r.getValue(FAMILY, QUALIFIER).length != Bytes.SIZEOF_LONG) {
          badRead(r.getRow(), "unexpected row or counter in a scan");
        }
      }
    }
    stats.scans.incrementAndGet();
  }

  private void checkValue(byte[] row, Result r) {
    if (r.isEmpty()) {
      return;
    }
    String why = ValueCodec.check(row, r.getValue(FAMILY, QUALIFIER));
    if (why != null) {
      badRead(row, why);
    }
  }

  private void badRead(byte[] row, String why) {
    stats.badReads.incrementAndGet();
    LOG.error("BAD READ in {} row {}: {}", name, Bytes.toStringBinary(row), why);
  }

  /** Flushes and compactions every few hundred milliseconds, so kills land inside them. */
  private void chaos() throws IOException, InterruptedException {
    Random rnd = new Random(seed * 41);
    try (Admin admin = conn.getAdmin()) {
      while (!stopped) {
        Thread.sleep(200 + rnd.nextInt(800));
        int what = rnd.nextInt(10);
        if (what < 6) {
          admin.flush(name);
          stats.flushes.incrementAndGet();
        } else if (what < 9) {
          admin.compact(name);
          stats.compactions.incrementAndGet();
        } else {
          admin.majorCompact(name);
          stats.compactions.incrementAndGet();
        }
      }
    }
  }
}
