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
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.yetus.audience.InterfaceAudience;

import org.apache.hbase.thirdparty.com.google.gson.stream.JsonWriter;

/**
 * Writes the report of one {@code ycsb-compare.sh} run:
 * <pre>
 * CompareReport RESULTS_DIR OUT_PREFIX
 * </pre>
 * RESULTS_DIR holds {@code params.properties} and one directory per engine; the report writes
 * {@code OUT_PREFIX.csv} (per engine, phase and operation type: count, throughput, latency
 * percentiles), {@code OUT_PREFIX-phases.csv} (per engine and phase: throughput and the
 * cumulative write, compaction and space figures), {@code OUT_PREFIX.json} (all of it), the
 * gnuplot data {@code RESULTS_DIR/plot-*.dat}, and prints the summary table (Markdown) with
 * ratios to the default engine and RLSM's targets (docs/benchmarks.md).
 */
@InterfaceAudience.Private
public final class CompareReport {
  /** The family of the script's usertable (bench/scripts/ycsb-compare.sh). */
  static final String FAMILY = "family";
  static final String BASELINE = "default";
  private static final double MB = 1024.0 * 1024.0;

  private final Properties params;
  private final List<EngineRun> runs;

  CompareReport(Properties params, List<EngineRun> runs) {
    this.params = params;
    this.runs = runs;
  }

  List<EngineRun> runs() {
    return runs;
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: CompareReport RESULTS_DIR OUT_PREFIX");
      System.exit(2);
    }
    Path results = Paths.get(args[0]);
    CompareReport report = read(results);
    String prefix = args[1];
    write(Paths.get(prefix + ".csv"), report.operationsCsv());
    write(Paths.get(prefix + "-phases.csv"), report.phasesCsv());
    write(Paths.get(prefix + ".json"), report.json());
    write(results.resolve("plot-throughput.dat"), report.throughputPlot());
    write(results.resolve("plot-latency.dat"), report.latencyPlot());
    write(results.resolve("plot-writeamp.dat"), report.writeAmpPlot());
    report.printSummary(System.out);
  }

  /** Reads {@code params.properties} and the engines it names, in that order. */
  static CompareReport read(Path results) throws IOException {
    Path file = results.resolve("params.properties");
    if (!Files.isRegularFile(file)) {
      throw new ReportFormatException(file, 0, "missing");
    }
    Properties params = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      params.load(r);
    }
    UserBytes perOp = new UserBytes(intParam(file, params, "records"),
      intParam(file, params, "fieldcount"), intParam(file, params, "fieldlength"));
    List<EngineRun> runs = new ArrayList<>();
    for (String engine : params.getProperty("engines", "").trim().split("\\s+")) {
      if (!engine.isEmpty()) {
        runs.add(EngineRun.read(results.resolve(engine), FAMILY, perOp));
      }
    }
    if (runs.isEmpty()) {
      throw new ReportFormatException(file, 0, "no engines listed");
    }
    return new CompareReport(params, runs);
  }

  String operationsCsv() {
    StringBuilder b = new StringBuilder(
      "engine,phase,operation,operations,ok,phase_throughput_ops_s,avg_us,p50_us,p95_us,p99_us\n");
    for (EngineRun run : runs) {
      for (EngineRun.Phase p : run.phases) {
        if (p.ycsb == null) {
          continue;
        }
        for (Map.Entry<String, YcsbMeasurements.Operation> e : p.ycsb.operations().entrySet()) {
          YcsbMeasurements.Operation op = e.getValue();
          b.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%.1f,%s,%s,%s,%s%n", run.engine,
            p.name, e.getKey(), op.operations(), op.ok(), p.ycsb.throughput(),
            num(op.averageUs()), num(op.p50Us()), num(op.p95Us()), num(op.p99Us())));
        }
      }
    }
    return b.toString();
  }

  String phasesCsv() {
    StringBuilder b = new StringBuilder("engine,phase,runtime_s,throughput_ops_s,user_mb,"
      + "committed_mb,write_amp,os_write_mb,os_write_amp,compactions,compaction_s,live_store_mb,"
      + "rlsm_flush_mb,rlsm_append_mb,rlsm_manifest_mb,rlsm_split_mb,rlsm_merge_mb,"
      + "rlsm_cleanup_mb,rlsm_major_mb,rlsm_compaction_read_mb,rlsm_compactions,rlsm_linked_files,"
      + "rlsm_compaction_s,rlsm_partitions,load_avg\n");
    for (EngineRun run : runs) {
      for (EngineRun.Phase p : run.phases) {
        b.append(run.engine).append(',').append(p.name).append(',');
        b.append(p.ycsb == null ? "" : num(p.ycsb.runtimeMs() / 1000)).append(',');
        b.append(p.ycsb == null ? "" : num(p.ycsb.throughput())).append(',');
        b.append(num(p.userBytes / MB)).append(',');
        b.append(p.committedBytes == null ? "" : num(p.committedBytes / MB)).append(',');
        b.append(num(p.writeAmplification())).append(',');
        b.append(num(p.osWriteBytes / MB)).append(',').append(num(p.osWriteAmplification()));
        b.append(',').append(p.compactions).append(',').append(num(p.compactionMillis / 1000.0));
        b.append(',').append(num(p.liveStoreBytes / MB));
        for (int i = 0; i < PhaseSnapshot.RLSM_COUNTERS.length; i++) {
          b.append(',');
          if (p.rlsm != null) {
            String counter = PhaseSnapshot.RLSM_COUNTERS[i];
            b.append(counter.endsWith("Bytes") ? num(p.rlsm[i] / MB)
              : counter.endsWith("Millis") ? num(p.rlsm[i] / 1000.0) : Long.toString(p.rlsm[i]));
          }
        }
        b.append(',').append(p.rlsm == null ? "" : Long.toString(p.rlsmPartitions));
        b.append(',').append(num(p.loadAverage)).append('\n');
      }
    }
    return b.toString();
  }

  String json() throws IOException {
    StringWriter out = new StringWriter();
    try (JsonWriter w = new JsonWriter(out)) {
      w.setIndent(" ");
      w.beginObject();
      w.name("params").beginObject();
      for (String key : new java.util.TreeSet<>(params.stringPropertyNames())) {
        w.name(key).value(params.getProperty(key));
      }
      w.endObject();
      w.name("engines").beginArray();
      for (EngineRun run : runs) {
        w.beginObject().name("engine").value(run.engine).name("dataDirBytes")
          .value(run.dataDirBytes).name("phases").beginArray();
        for (EngineRun.Phase p : run.phases) {
          writePhase(w, p);
        }
        w.endArray().endObject();
      }
      w.endArray();
      w.endObject();
    }
    return out.toString() + "\n";
  }

  private static void writePhase(JsonWriter w, EngineRun.Phase p) throws IOException {
    w.beginObject().name("phase").value(p.name);
    if (p.ycsb != null) {
      w.name("runtimeMs").value(p.ycsb.runtimeMs()).name("throughput").value(p.ycsb.throughput());
      w.name("operations").beginObject();
      for (Map.Entry<String, YcsbMeasurements.Operation> e : p.ycsb.operations().entrySet()) {
        YcsbMeasurements.Operation op = e.getValue();
        w.name(e.getKey()).beginObject().name("operations").value(op.operations()).name("ok")
          .value(op.ok());
        optional(w, "averageUs", op.averageUs());
        optional(w, "p50Us", op.p50Us());
        optional(w, "p95Us", op.p95Us());
        optional(w, "p99Us", op.p99Us());
        w.endObject();
      }
      w.endObject();
    }
    w.name("userBytes").value(Math.round(p.userBytes));
    if (p.committedBytes != null) {
      w.name("committedBytes").value(p.committedBytes).name("writeAmplification")
        .value(p.writeAmplification());
    }
    w.name("osWriteBytes").value(p.osWriteBytes).name("osWriteAmplification")
      .value(p.osWriteAmplification());
    w.name("compactions").value(p.compactions).name("compactionMillis").value(p.compactionMillis);
    w.name("liveStoreFileBytes").value(p.liveStoreBytes);
    if (p.rlsm != null) {
      w.name("rlsm").beginObject();
      for (int i = 0; i < p.rlsm.length; i++) {
        w.name(PhaseSnapshot.RLSM_COUNTERS[i]).value(p.rlsm[i]);
      }
      w.name("Partitions").value(p.rlsmPartitions).endObject();
    }
    w.name("loadAverage").value(p.loadAverage).endObject();
  }

  private static void optional(JsonWriter w, String name, double v) throws IOException {
    if (!Double.isNaN(v)) {
      w.name(name).value(v);
    }
  }

  /** Rows: YCSB phases; columns: engines' throughput in ops/s. */
  String throughputPlot() {
    StringBuilder b = header("phase");
    for (String phase : EngineRun.YCSB_PHASES) {
      b.append(phase);
      for (EngineRun run : runs) {
        b.append(' ').append(num(run.phase(phase).ycsb.throughput()));
      }
      b.append('\n');
    }
    return b.toString();
  }

  /** Rows: phase/operation pairs of the baseline's output; columns: engines' p99 in ms. */
  String latencyPlot() {
    StringBuilder b = header("operation");
    for (EngineRun.Phase p : runs.get(0).phases) {
      if (p.ycsb == null) {
        continue;
      }
      for (String op : p.ycsb.operations().keySet()) {
        b.append(p.name).append('-').append(op);
        for (EngineRun run : runs) {
          YcsbMeasurements.Operation o = run.phase(p.name).ycsb.operations().get(op);
          b.append(' ').append(o == null ? "NaN" : num(o.p99Us() / 1000));
        }
        b.append('\n');
      }
    }
    return b.toString();
  }

  /** Rows: engines; columns: store write amplification, OS write amplification (whole run). */
  String writeAmpPlot() {
    StringBuilder b = new StringBuilder("engine store os\n");
    for (EngineRun run : runs) {
      EngineRun.Phase f = run.phase(EngineRun.FINAL);
      b.append(run.engine).append(' ').append(num(f.writeAmplification())).append(' ')
        .append(num(f.osWriteAmplification())).append('\n');
    }
    return b.toString();
  }

  private StringBuilder header(String first) {
    StringBuilder b = new StringBuilder(first);
    for (EngineRun run : runs) {
      b.append(' ').append(run.engine);
    }
    return b.append('\n');
  }

  /** The summary table, ratios to the default engine, and RLSM's targets. */
  void printSummary(PrintStream out) {
    EngineRun base = baseline();
    out.println();
    out.printf("YCSB side by side: %s records, %s operations per workload (%s for E), "
      + "%s threads; ratios to the %s engine in parentheses%n%n", params.getProperty("records"),
      params.getProperty("operations"), params.getProperty("scan.operations"),
      params.getProperty("threads"), base == null ? "first" : base.engine);
    StringBuilder head = new StringBuilder("| engine |");
    StringBuilder rule = new StringBuilder("|---|");
    for (String phase : EngineRun.YCSB_PHASES) {
      head.append(' ').append(phase.length() == 1 ? phase.toUpperCase(Locale.ROOT) : phase)
        .append(" ops/s |");
      rule.append("---|");
    }
    head.append(" write amp | OS write amp | compactions | compaction s | live MB | disk MB |");
    rule.append("---|---|---|---|---|---|");
    out.println(head);
    out.println(rule);
    for (EngineRun run : runs) {
      StringBuilder row = new StringBuilder("| ").append(run.engine).append(" |");
      for (String phase : EngineRun.YCSB_PHASES) {
        double v = run.phase(phase).ycsb.throughput();
        double b = base == null ? Double.NaN : base.phase(phase).ycsb.throughput();
        row.append(' ').append(withRatio(v, b, "%.0f")).append(" |");
      }
      EngineRun.Phase f = run.phase(EngineRun.FINAL);
      EngineRun.Phase bf = base == null ? null : base.phase(EngineRun.FINAL);
      row.append(' ').append(withRatio(f.writeAmplification(),
        bf == null ? Double.NaN : bf.writeAmplification(), "%.2f")).append(" |");
      row.append(' ').append(withRatio(f.osWriteAmplification(),
        bf == null ? Double.NaN : bf.osWriteAmplification(), "%.2f")).append(" |");
      row.append(' ').append(f.compactions).append(" | ")
        .append(num(f.compactionMillis / 1000.0)).append(" | ")
        .append(String.format(Locale.ROOT, "%.0f", f.liveStoreBytes / MB)).append(" | ")
        .append(String.format(Locale.ROOT, "%.0f", run.dataDirBytes / MB)).append(" |");
      out.println(row);
    }
    printTargets(out, base);
  }

  private void printTargets(PrintStream out, EngineRun base) {
    if (base == null) {
      return;
    }
    for (EngineRun run : runs) {
      if (!run.engine.startsWith("rlsm")) {
        continue;
      }
      out.printf("%nTargets, %s vs %s:%n", run.engine, base.engine);
      target(out, "write amplification <= 1/3", run.phase(EngineRun.FINAL).writeAmplification()
        / base.phase(EngineRun.FINAL).writeAmplification(), 1.0 / 3, false);
      target(out, "load throughput >= 1.3x", ratio(run, base, "load"), 1.3, true);
      target(out, "workload C >= 1.1x", ratio(run, base, "c"), 1.1, true);
      target(out, "workload E >= 0.95x", ratio(run, base, "e"), 0.95, true);
    }
  }

  private static double ratio(EngineRun run, EngineRun base, String phase) {
    return run.phase(phase).ycsb.throughput() / base.phase(phase).ycsb.throughput();
  }

  private static void target(PrintStream out, String what, double ratio, double bound,
    boolean atLeast) {
    String verdict = Double.isNaN(ratio) ? "not measured"
      : (atLeast ? ratio >= bound : ratio <= bound) ? "met" : "NOT met";
    out.printf(Locale.ROOT, "  %-28s %6.2fx  %s%n", what, ratio, verdict);
  }

  private EngineRun baseline() {
    for (EngineRun run : runs) {
      if (run.engine.equals(BASELINE)) {
        return run;
      }
    }
    return null;
  }

  private static String withRatio(double v, double base, String format) {
    if (Double.isNaN(v)) {
      return "n/a";
    }
    String s = String.format(Locale.ROOT, format, v);
    return Double.isNaN(base) || base == 0 ? s
      : s + String.format(Locale.ROOT, " (%.2f)", v / base);
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
  }

  private static int intParam(Path file, Properties p, String key) throws ReportFormatException {
    try {
      return Integer.parseInt(p.getProperty(key, "").trim());
    } catch (NumberFormatException e) {
      throw new ReportFormatException(file, 0, key + " is not a whole number");
    }
  }

  private static void write(Path file, String text) throws IOException {
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
      PrintWriter p = new PrintWriter(w)) {
      p.print(text);
    }
  }
}
