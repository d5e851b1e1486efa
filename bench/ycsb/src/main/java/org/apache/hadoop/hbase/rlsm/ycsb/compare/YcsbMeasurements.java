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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * What YCSB's {@code site.ycsb.Client} printed for one phase: the {@code [OVERALL]} run time and
 * throughput, and per operation type (READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE, ...) the
 * count, OK count and latencies of {@code measurementtype=hdrhistogram} with
 * {@code hdrhistogram.percentiles=50,95,99}. Lines that are not measurements (YCSB's banner, log
 * lines) are skipped; a measurement line with a malformed value is an error.
 */
@InterfaceAudience.Private
public final class YcsbMeasurements {
  /** The latencies and counts of one operation type, in microseconds. */
  public static final class Operation {
    long operations;
    long ok;
    double averageUs = Double.NaN;
    double p50Us = Double.NaN;
    double p95Us = Double.NaN;
    double p99Us = Double.NaN;

    public long operations() {
      return operations;
    }

    public long ok() {
      return ok;
    }

    public double averageUs() {
      return averageUs;
    }

    public double p50Us() {
      return p50Us;
    }

    public double p95Us() {
      return p95Us;
    }

    public double p99Us() {
      return p99Us;
    }
  }

  private final double runtimeMs;
  private final double throughput;
  private final Map<String, Operation> operations;

  private YcsbMeasurements(double runtimeMs, double throughput,
    Map<String, Operation> operations) {
    this.runtimeMs = runtimeMs;
    this.throughput = throughput;
    this.operations = operations;
  }

  public static YcsbMeasurements read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new ReportFormatException(file, 0, "YCSB output is missing");
    }
    return parse(file, Files.readAllLines(file, StandardCharsets.UTF_8));
  }

  static YcsbMeasurements parse(Path file, List<String> lines) throws ReportFormatException {
    double runtime = Double.NaN;
    double throughput = Double.NaN;
    Map<String, Operation> ops = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (!line.startsWith("[")) {
        continue;
      }
      String[] parts = line.split(",", 3);
      int close = parts[0].indexOf(']');
      if (parts.length != 3 || close < 0) {
        continue; // a log line that happens to start with '['
      }
      String section = parts[0].substring(1, close);
      String metric = parts[1].trim();
      double value;
      try {
        value = Double.parseDouble(parts[2].trim());
      } catch (NumberFormatException e) {
        throw new ReportFormatException(file, i + 1,
          "not a number in YCSB measurement '" + line + "'");
      }
      if (section.equals("OVERALL")) {
        if (metric.equals("RunTime(ms)")) {
          runtime = value;
        } else if (metric.equals("Throughput(ops/sec)")) {
          throughput = value;
        }
        continue;
      }
      if (section.equals("CLEANUP") || section.startsWith("TOTAL_GC")) {
        continue;
      }
      Operation op = ops.computeIfAbsent(section, s -> new Operation());
      switch (metric) {
        case "Operations":
          op.operations = (long) value;
          break;
        case "Return=OK":
          op.ok = (long) value;
          break;
        case "AverageLatency(us)":
          op.averageUs = value;
          break;
        case "50thPercentileLatency(us)":
          op.p50Us = value;
          break;
        case "95thPercentileLatency(us)":
          op.p95Us = value;
          break;
        case "99thPercentileLatency(us)":
          op.p99Us = value;
          break;
        default:
          break; // min, max, other return codes: in the raw output
      }
    }
    if (Double.isNaN(runtime) || Double.isNaN(throughput)) {
      throw new ReportFormatException(file, 0,
        "no [OVERALL] RunTime(ms) and Throughput(ops/sec): YCSB did not finish");
    }
    return new YcsbMeasurements(runtime, throughput, Collections.unmodifiableMap(ops));
  }

  public double runtimeMs() {
    return runtimeMs;
  }

  public double throughput() {
    return throughput;
  }

  /** Operation types in YCSB's order of output. */
  public Map<String, Operation> operations() {
    return operations;
  }

  /** OK operations of {@code type}, 0 when the phase had none. */
  public long ok(String type) {
    Operation op = operations.get(type);
    return op == null ? 0 : op.ok;
  }
}
