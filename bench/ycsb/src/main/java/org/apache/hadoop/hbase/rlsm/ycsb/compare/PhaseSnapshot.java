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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.yetus.audience.InterfaceAudience;

import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParseException;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * The state of one engine's server after one phase, as {@code ycsb-compare.sh} recorded it in
 * {@code PHASE.*}: the time (epoch ms, {@code .time}), the load average ({@code .loadavg}), the
 * RegionServer's {@code Server} bean ({@code .server.json}), the RLSM store beans
 * ({@code .rlsm.json}, {@code Hadoop:service=hbase-rlsm,name=Store-*}), the server process's
 * {@code /proc/<pid>/io} ({@code .io}) and, when the store files could be listed while the server
 * ran, the table's store files live and archived ({@code .files}: size TAB key per line).
 */
@InterfaceAudience.Private
public final class PhaseSnapshot {
  /** Counters of {@code RlsmStoreStatsMXBean} summed here, in this order. */
  static final String[] RLSM_COUNTERS = { "FlushBytes", "AppendBytes", "ManifestBytes",
    "SplitBytes", "MergeBytes", "CleanupBytes", "MajorBytes", "CompactionReadBytes",
    "Compactions", "LinkedFiles", "CompactionMillis" };

  final long timeMillis;
  final double loadAverage;
  final long storeFileBytes;
  final long osWriteBytes;
  /** Per RLSM store bean name, its counters in {@link #RLSM_COUNTERS} order. */
  final Map<String, long[]> rlsmStores;
  /** Sum of partitions over the RLSM stores open at this time. */
  final long rlsmPartitions;
  /** Store file key to size, or null when not listed. */
  final Map<String, Long> files;

  private PhaseSnapshot(long timeMillis, double loadAverage, long storeFileBytes,
    long osWriteBytes, Map<String, long[]> rlsmStores, long rlsmPartitions,
    Map<String, Long> files) {
    this.timeMillis = timeMillis;
    this.loadAverage = loadAverage;
    this.storeFileBytes = storeFileBytes;
    this.osWriteBytes = osWriteBytes;
    this.rlsmStores = rlsmStores;
    this.rlsmPartitions = rlsmPartitions;
    this.files = files;
  }

  /** Reads {@code dir/PHASE.*}. */
  public static PhaseSnapshot read(Path dir, String phase) throws IOException {
    Path time = dir.resolve(phase + ".time");
    Path load = dir.resolve(phase + ".loadavg");
    Path server = dir.resolve(phase + ".server.json");
    Path rlsm = dir.resolve(phase + ".rlsm.json");
    Path io = dir.resolve(phase + ".io");
    Path listing = dir.resolve(phase + ".files");
    JsonObject serverBean = onlyBean(server);
    Map<String, long[]> stores = new HashMap<>();
    long partitions = 0;
    for (JsonElement e : beans(rlsm)) {
      JsonObject bean = e.getAsJsonObject();
      long[] values = new long[RLSM_COUNTERS.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = number(rlsm, bean, RLSM_COUNTERS[i]);
      }
      stores.put(bean.get("name").getAsString(), values);
      partitions += number(rlsm, bean, "Partitions");
    }
    return new PhaseSnapshot(firstNumber(time),
      Double.parseDouble(firstWord(load)), number(server, serverBean, "storeFileSize"),
      procIo(io, "write_bytes"), stores, partitions,
      Files.exists(listing) ? readListing(listing) : null);
  }

  /** A {@code SIZE<TAB>KEY} listing; a key listed twice keeps its largest size. */
  static Map<String, Long> readListing(Path file) throws IOException {
    Map<String, Long> sizes = new HashMap<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isEmpty()) {
        continue;
      }
      int tab = line.indexOf('\t');
      long size;
      try {
        size = tab > 0 ? Long.parseLong(line.substring(0, tab)) : -1;
      } catch (NumberFormatException e) {
        size = -1;
      }
      if (size < 0) {
        throw new ReportFormatException(file, i + 1, "expected SIZE<TAB>FILE, got '" + line + "'");
      }
      sizes.merge(line.substring(tab + 1), size, Math::max);
    }
    return sizes;
  }

  /** The whole number a file starts with (date +%s%3N, du -s). */
  static long firstNumber(Path file) throws IOException {
    String word = firstWord(file);
    try {
      return Long.parseLong(word);
    } catch (NumberFormatException e) {
      throw new ReportFormatException(file, 1, "expected a whole number, got '" + word + "'");
    }
  }

  private static String firstWord(Path file) throws IOException {
    String text = read(file).trim();
    String word = text.split("\\s+")[0];
    try {
      Double.parseDouble(word);
    } catch (NumberFormatException e) {
      throw new ReportFormatException(file, 1, "expected a number, got '" + text + "'");
    }
    return word;
  }

  private static long procIo(Path file, String key) throws IOException {
    List<String> lines = Files.readAllLines(requireFile(file), StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith(key + ":")) {
        try {
          return Long.parseLong(line.substring(key.length() + 1).trim());
        } catch (NumberFormatException e) {
          throw new ReportFormatException(file, i + 1, "not a number: '" + line + "'");
        }
      }
    }
    throw new ReportFormatException(file, 0, "no '" + key + ":' line (not /proc/<pid>/io?)");
  }

  private static JsonArray beans(Path file) throws IOException {
    try {
      JsonElement root = JsonParser.parseString(read(file));
      if (root.isJsonObject() && root.getAsJsonObject().has("beans")) {
        return root.getAsJsonObject().getAsJsonArray("beans");
      }
    } catch (JsonParseException | IllegalStateException e) {
      throw new ReportFormatException(file, 0, "not JMX JSON: " + e.getMessage());
    }
    throw new ReportFormatException(file, 0, "no \"beans\" array (not the output of /jmx?)");
  }

  private static JsonObject onlyBean(Path file) throws IOException {
    JsonArray beans = beans(file);
    if (beans.size() != 1) {
      throw new ReportFormatException(file, 0, "expected one bean, found " + beans.size());
    }
    return beans.get(0).getAsJsonObject();
  }

  private static long number(Path file, JsonObject bean, String attribute)
    throws ReportFormatException {
    JsonElement v = bean.get(attribute);
    if (v == null || !v.isJsonPrimitive() || !v.getAsJsonPrimitive().isNumber()) {
      throw new ReportFormatException(file, 0,
        "bean " + bean.get("name") + " has no numeric " + attribute);
    }
    return v.getAsLong();
  }

  private static Path requireFile(Path file) throws ReportFormatException {
    if (!Files.isRegularFile(file)) {
      throw new ReportFormatException(file, 0, "missing");
    }
    return file;
  }

  private static String read(Path file) throws IOException {
    return new String(Files.readAllBytes(requireFile(file)), StandardCharsets.UTF_8);
  }
}
