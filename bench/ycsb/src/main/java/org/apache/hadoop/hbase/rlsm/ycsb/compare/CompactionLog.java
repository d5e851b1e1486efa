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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The compactions of one column family, read from the server log. Every engine's compaction ends
 * in {@code HStore.doCompaction}, which logs "Completed compaction of N file(s) in
 * ENCODED_REGION/FAMILY of ENCODED_REGION" at INFO and, with {@code HStore} at TRACE (the
 * harness's log4j.properties), the start and end time in milliseconds on the next line of the same thread. The INFO line alone has whole seconds
 * only, and the RegionServer's compactionTime histogram resets at every JMX read, so neither
 * could give the total time.
 */
@InterfaceAudience.Private
public final class CompactionLog {
  private static final Pattern COMPLETED =
    Pattern.compile("\\[([^\\]]+)\\] \\S*HStore: Completed (?:major )?compaction of .*? in "
      + "[0-9a-f]+/(\\S+) of ");
  private static final Pattern TIMES = Pattern.compile(
    "\\[([^\\]]+)\\] \\S*HStore: COMPACTION start,end,[^\\[]*\\[(\\d+),(\\d+),");

  /** One compaction: when it ended and how long it ran, in milliseconds. */
  public static final class Compaction {
    final long endMillis;
    final long durationMillis;

    Compaction(long endMillis, long durationMillis) {
      this.endMillis = endMillis;
      this.durationMillis = durationMillis;
    }
  }

  private CompactionLog() {
  }

  /**
   * The compactions of the stores of {@code family} in the given log files, oldest file first, in
   * order of completion (the log names regions by their encoded name only, so the benchmark gives
   * its table a family name no system table uses). A compaction whose time line is missing is an
   * error: the log level was not TRACE for HStore, and the time would otherwise be silently
   * undercounted.
   */
  public static List<Compaction> read(List<Path> logs, String family) throws IOException {
    List<Compaction> result = new ArrayList<>();
    // thread -> "file:line" of its compaction still waiting for the time line
    Map<String, String> pending = new HashMap<>();
    for (Path log : logs) {
      List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        Matcher done = COMPLETED.matcher(line);
        if (done.find()) {
          if (done.group(2).equals(family)) {
            pending.put(done.group(1), log + ":" + (i + 1));
          }
          continue;
        }
        Matcher times = TIMES.matcher(line);
        if (times.find() && pending.remove(times.group(1)) != null) {
          long start = Long.parseLong(times.group(2));
          long end = Long.parseLong(times.group(3));
          result.add(new Compaction(end, end - start));
        }
      }
    }
    if (!pending.isEmpty()) {
      String where = pending.values().iterator().next();
      int colon = where.lastIndexOf(':');
      throw new ReportFormatException(Paths.get(where.substring(0, colon)),
        Integer.parseInt(where.substring(colon + 1)),
        "compaction of " + family + " without its TRACE time line (is HStore logged at TRACE?)");
    }
    return Collections.unmodifiableList(result);
  }
}
