package org.apache.hadoop.hbase.rlsm.bench.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of one {@link ReadPathBench} run: every round's measurement per compression, engine
 * and metric (written as CSV), and the table of medians with the ratio RLSM / default against
 * each metric's target and a verdict.
 */
final class ReadPathReport {
  /** What is measured, its unit, and the target for RLSM / default. */
  enum Metric {
    PINNED_HEAP_MB("pinned heap MB", 1.5, false, true),
    OPEN_S("region open s", 2.0, false, true),
    GETS_UNIFORM("Gets/s uniform", 1.1, true, true),
    GETS_ZIPFIAN("Gets/s zipfian", 1.1, true, true),
    SHORT_SCANS("short scans/s", 1.0, true, true),
    FULL_SCAN_ROWS("full-scan rows/s", 0.95, true, true),
    DISK_MB("on-disk MB", 1.1, false, false);

    final String label;
    final double target;
    final boolean higherIsBetter;
    /** Whether the target applies without compression (on-disk bytes: only with GZ). */
    final boolean uncompressedTarget;

    Metric(String label, double target, boolean higherIsBetter, boolean uncompressedTarget) {
      this.label = label;
      this.target = target;
      this.higherIsBetter = higherIsBetter;
      this.uncompressedTarget = uncompressedTarget;
    }
  }

  /**
   * Below this a pinned-heap figure is inside the noise of a GC'd heap reading of the whole mini
   * cluster, and a ratio against it decides nothing.
   */
  private static final double HEAP_NOISE_MB = 2.0;

  private final Map<String, List<Double>> values = new LinkedHashMap<>();
  private final List<String> rows = new ArrayList<>();

  void add(String compression, String engine, int round, Metric m, double v) {
    values.computeIfAbsent(key(compression, engine, m), k -> new ArrayList<>()).add(v);
    rows.add(String.format(Locale.ROOT, "%s,%s,%d,%s,%.4f", compression, engine, round,
      m.name().toLowerCase(Locale.ROOT), v));
  }

  private static String key(String compression, String engine, Metric m) {
    return compression + "/" + engine + "/" + m;
  }

  double median(String compression, String engine, Metric m) {
    List<Double> l = values.get(key(compression, engine, m));
    if (l == null || l.isEmpty()) {
      return Double.NaN;
    }
    double[] a = l.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(a);
    return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
  }

  void writeCsv(Path csv) throws IOException {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8))) {
      w.println("compression,engine,round,metric,value");
      rows.forEach(w::println);
    }
  }

  /** Markdown: one row per compression and metric, medians of the rounds. */
  void printTable(PrintStream out, List<String> compressions) {
    out.printf("%n| compression | metric | RLSM | default | RLSM / default | target | verdict |%n"
      + "|---|---|---|---|---|---|---|%n");
    for (String c : compressions) {
      for (Metric m : Metric.values()) {
        double r = median(c, "rlsm", m);
        double d = median(c, "default", m);
        double ratio = r / d;
        boolean applies = m.uncompressedTarget || !c.equalsIgnoreCase("NONE");
        String target = applies ? (m.higherIsBetter ? "≥ " : "≤ ") + m.target + "x" : "-";
        // A ratio against a pinned-heap figure inside the noise (even negative) means nothing.
        boolean noise = m == Metric.PINNED_HEAP_MB && d < HEAP_NOISE_MB;
        out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s |%n", c, m.label, fmt(r),
          fmt(d), noise ? "(default in the noise)" : String.format(Locale.ROOT, "%.2fx", ratio),
          target, applies ? verdict(m, r, d, ratio) : "-");
      }
    }
  }

  private static String verdict(Metric m, double r, double d, double ratio) {
    if (Double.isNaN(ratio) || (m == Metric.PINNED_HEAP_MB && Math.max(r, d) < HEAP_NOISE_MB)) {
      return "not established";
    }
    if (m == Metric.PINNED_HEAP_MB && d < HEAP_NOISE_MB) {
      // The default's pin is inside the noise: RLSM meets the target only if it is too.
      return r <= m.target * HEAP_NOISE_MB ? "met" : "**missed**";
    }
    boolean met = m.higherIsBetter ? ratio >= m.target : ratio <= m.target;
    return met ? "met" : "**missed**";
  }

  private static String fmt(double v) {
    return v >= 100 ? String.format(Locale.ROOT, "%.0f", v)
      : String.format(Locale.ROOT, "%.2f", v);
  }
}
