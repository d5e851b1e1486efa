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
import java.io.InterruptedIOException;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Requests a compaction of the demo table and waits (bounded) until it has finished, telling
 * "done" from "not started yet" by the store files changing or the compaction state. The server
 * offers no completion event to wait on, so this polls; the bound is a generous hang guard and a
 * compaction still running after it is a check failure.
 */
@InterfaceAudience.Private
final class CompactionWait {
  private static final long WAIT_SECONDS = 120;
  private static final long POLL_MS = 200;
  /** Polls with no sign of a compaction before concluding none was selected. */
  private static final int QUIET_POLLS = 50;

  private CompactionWait() {
  }

  /** Compacts {@code table} and returns what happened, for the report. */
  static String compact(Admin admin, TableName table, StoreFileReport files, Failures failures)
    throws IOException {
    boolean localRoot = files.localRoot();
    List<String> before = localRoot ? files.names(admin) : Collections.emptyList();
    admin.compact(table);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    boolean seenRunning = false;
    int quietPolls = 0;
    while (System.nanoTime() < deadline) {
      CompactionState state = admin.getCompactionState(table);
      if (state != CompactionState.NONE) {
        seenRunning = true;
        quietPolls = 0;
      } else if (localRoot && !files.names(admin).equals(before)) {
        return "compacted: the store files changed (" + before.size() + " before)";
      } else if (seenRunning) {
        return "compaction requested and finished";
      } else if (++quietPolls >= QUIET_POLLS) {
        // A queued compaction starts within moments; this long without one means the engine's
        // policy selected nothing (e.g. the stripe engine wants more Level-0 files).
        return "requested a compaction; the engine selected none";
      }
      sleep(POLL_MS);
    }
    failures.add("the compaction did not finish within " + WAIT_SECONDS + " s");
    return "requested a compaction; still running after " + WAIT_SECONDS + " s";
  }

  private static void sleep(long ms) throws InterruptedIOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
  }
}
