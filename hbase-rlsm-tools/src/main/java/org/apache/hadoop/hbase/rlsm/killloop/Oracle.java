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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * What one table must contain, kept in the loop's own process (outside the fault domain). Every
 * operation is marked pending before it is sent and committed when it is acknowledged. Rows
 * {@code k000000...} hold values (put/delete), rows {@code n0000...} hold counters (increment).
 * <p>
 * A key's operations come from one thread only and that thread stops after a failed operation,
 * so a key has either pending operations (not acknowledged, may or may not have been applied)
 * or an acknowledged last state, and an acknowledgement supersedes everything before it.
 */
@InterfaceAudience.Private
final class Oracle {
  /** Result of checking one observed row against the oracle. */
  enum Verdict {
    /** The acknowledged state, or the effect of a pending operation. */
    OK,
    /** An acknowledged put is missing or older, or an acknowledged increment is not counted. */
    LOST,
    /** A value that was never written for this row, or an increment counted twice. */
    WRONG,
    /** A row that must be absent (deleted with acknowledgement, or never written) is present. */
    EXTRA
  }

  private final int keys;
  private final int counters;
  /** Acknowledged value per key; null means absent. */
  private final byte[][] acked;
  /** Pending effects per key; a null element is a pending delete. */
  private final List<List<byte[]>> pending;
  private final long[] counterAcked;
  private final long[] counterPending;

  Oracle(int keys, int counters) {
    this.keys = keys;
    this.counters = counters;
    this.acked = new byte[keys][];
    this.pending = new ArrayList<>(keys);
    for (int i = 0; i < keys; i++) {
      pending.add(new ArrayList<>(1));
    }
    this.counterAcked = new long[counters];
    this.counterPending = new long[counters];
  }

  int keys() {
    return keys;
  }

  int counters() {
    return counters;
  }

  static byte[] keyRow(int i) {
    return String.format("k%06d", i).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] counterRow(int i) {
    return String.format("n%04d", i).getBytes(StandardCharsets.US_ASCII);
  }

  /** The key index of a value row, or -1 if {@code row} is not one. */
  int keyIndex(byte[] row) {
    return index(row, 'k', 6, keys);
  }

  /** The counter index of a counter row, or -1 if {@code row} is not one. */
  int counterIndex(byte[] row) {
    return index(row, 'n', 4, counters);
  }

  private static int index(byte[] row, char prefix, int digits, int limit) {
    if (row.length != digits + 1 || row[0] != prefix) {
      return -1;
    }
    int v = 0;
    for (int i = 1; i < row.length; i++) {
      if (row[i] < '0' || row[i] > '9') {
        return -1;
      }
      v = v * 10 + (row[i] - '0');
    }
    return v < limit ? v : -1;
  }

  /** Marks a put ({@code value} non-null) or delete ({@code value} null) as sent. */
  synchronized void begin(int key, byte[] value) {
    pending.get(key).add(value);
  }

  /** The put or delete begun last on {@code key} was acknowledged. */
  synchronized void ack(int key, byte[] value) {
    acked[key] = value;
    pending.get(key).clear();
  }

  synchronized void beginIncrement(int counter, long delta) {
    counterPending[counter] += delta;
  }

  synchronized void ackIncrement(int counter, long delta) {
    counterPending[counter] -= delta;
    counterAcked[counter] += delta;
  }

  /** The acknowledged count: any read that starts later must see at least this. */
  synchronized long counterLowerBound(int counter) {
    return counterAcked[counter];
  }

  synchronized int pendingOperations() {
    int n = 0;
    for (List<byte[]> p : pending) {
      n += p.size();
    }
    for (long p : counterPending) {
      n += p > 0 ? 1 : 0;
    }
    return n;
  }

  /** Checks an observed value (null = absent) of {@code key} after a restart. */
  synchronized Verdict checkKey(int key, byte[] observed) {
    if (Arrays.equals(observed, acked[key])) {
      return Verdict.OK;
    }
    for (byte[] p : pending.get(key)) {
      if (Arrays.equals(observed, p)) {
        return Verdict.OK;
      }
    }
    if (observed == null) {
      return Verdict.LOST;
    }
    if (acked[key] == null && !pendingPut(key)) {
      return Verdict.EXTRA;
    }
    return ValueCodec.check(keyRow(key), observed) == null && olderThanAcked(key, observed)
      ? Verdict.LOST : Verdict.WRONG;
  }

  private boolean pendingPut(int key) {
    for (byte[] p : pending.get(key)) {
      if (p != null) {
        return true;
      }
    }
    return false;
  }

  /** A well-formed value with a smaller sequence than the acknowledged one: an older version. */
  private boolean olderThanAcked(int key, byte[] observed) {
    return acked[key] != null && sequence(observed) < sequence(acked[key]);
  }

  private static long sequence(byte[] value) {
    String s = Bytes.toString(value);
    int a = s.indexOf('#');
    return Long.parseLong(s.substring(a + 1, s.indexOf('#', a + 1)));
  }

  /** Checks an observed count (0 when the row is absent) of {@code counter} after a restart. */
  synchronized Verdict checkCounter(int counter, long observed) {
    long lo = counterAcked[counter];
    long hi = lo + counterPending[counter];
    if (observed < lo) {
      return Verdict.LOST;
    }
    return observed <= hi ? Verdict.OK : Verdict.WRONG;
  }

  synchronized boolean matchesAcked(int key, byte[] observed) {
    return Arrays.equals(observed, acked[key]);
  }

  /** True if {@code key} has operations that were sent but not acknowledged. */
  synchronized boolean hasPending(int key) {
    return !pending.get(key).isEmpty();
  }

  synchronized boolean hasPendingIncrement(int counter) {
    return counterPending[counter] > 0;
  }

  /** After a verified restart the observed state is the new acknowledged state. */
  synchronized void resolveKey(int key, byte[] observed) {
    acked[key] = observed;
    pending.get(key).clear();
  }

  synchronized void resolveCounter(int counter, long observed) {
    counterAcked[counter] = observed;
    counterPending[counter] = 0;
  }
}
