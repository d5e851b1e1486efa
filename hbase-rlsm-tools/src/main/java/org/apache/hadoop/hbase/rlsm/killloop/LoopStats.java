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

import java.util.concurrent.atomic.AtomicLong;
import org.apache.yetus.audience.InterfaceAudience;

/** Counters of one table over the whole loop; printed per cycle and in the summary. */
@InterfaceAudience.Private
final class LoopStats {
  final AtomicLong puts = new AtomicLong();
  final AtomicLong deletes = new AtomicLong();
  final AtomicLong increments = new AtomicLong();
  final AtomicLong gets = new AtomicLong();
  final AtomicLong scans = new AtomicLong();
  /** Operations sent but never acknowledged (cut by a kill or failed): left pending. */
  final AtomicLong unacknowledged = new AtomicLong();
  /** Values read under load that were malformed or a counter below its acknowledged count. */
  final AtomicLong badReads = new AtomicLong();
  final AtomicLong flushes = new AtomicLong();
  final AtomicLong compactions = new AtomicLong();
  final AtomicLong keysVerified = new AtomicLong();
  final AtomicLong lost = new AtomicLong();
  final AtomicLong wrong = new AtomicLong();
  final AtomicLong extra = new AtomicLong();
  /** Pending operations whose effect was found after the restart, and those found not applied. */
  final AtomicLong pendingApplied = new AtomicLong();
  final AtomicLong pendingNotApplied = new AtomicLong();

  /** The counts of puts, deletes, increments, gets and scans, in that order. */
  long[] operationCounts() {
    return new long[] { puts.get(), deletes.get(), increments.get(), gets.get(), scans.get() };
  }

  /** True when every kind of operation has been done at least n times since {@code before}. */
  boolean everyKindGrewBy(long[] before, long n) {
    long[] now = operationCounts();
    for (int k = 0; k < now.length; k++) {
      if (now[k] < before[k] + n) {
        return false;
      }
    }
    return true;
  }

  long acknowledged() {
    return puts.get() + deletes.get() + increments.get();
  }

  long failures() {
    return badReads.get() + lost.get() + wrong.get() + extra.get();
  }

  String load() {
    return String.format("acked %d (put %d, delete %d, increment %d), unacked %d, gets %d,"
      + " scans %d, bad reads %d, flushes %d, compactions %d", acknowledged(), puts.get(),
      deletes.get(), increments.get(), unacknowledged.get(), gets.get(), scans.get(),
      badReads.get(), flushes.get(), compactions.get());
  }

  String verification() {
    return String.format("keys verified %d, lost %d, wrong %d, extra %d, pending applied %d,"
      + " pending not applied %d", keysVerified.get(), lost.get(), wrong.get(), extra.get(),
      pendingApplied.get(), pendingNotApplied.get());
  }
}
