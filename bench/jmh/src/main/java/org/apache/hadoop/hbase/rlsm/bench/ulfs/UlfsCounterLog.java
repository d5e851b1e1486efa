package org.apache.hadoop.hbase.rlsm.bench.ulfs;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The ulfs mount's counters over the measured iterations of one trial (warm-up excluded),
 * appended as one CSV row to {@code <dir>/ulfs-counters.csv}, so the report can say which share
 * of the preads the ulfs cache served and how many device writes and flushes one hsync costs.
 * Kernel targets have no such counters and write no row.
 */
final class UlfsCounterLog {
  static final String FILE = "ulfs-counters.csv";
  private static final String HEADER = "benchmark,mode,target,dataset,io_kb,ops,cache_hits,"
    + "cache_misses,dev_reads,dev_read_bytes,dev_writes,dev_write_bytes,dev_flushes,"
    + "journal_commits\n";
  // Indexes into UlfsMount.counters().
  private static final int[] COLUMNS = { 5, 6, 0, 3, 1, 4, 2, 12 };

  private final IoTarget io;
  private final String row; // benchmark,mode,target,dataset,io_kb
  private long[] start;
  private long ops;

  UlfsCounterLog(IoTarget io, BenchmarkParams p, String target, String dataset, int ioKb) {
    this.io = io;
    String bench = p.getBenchmark();
    this.row = bench.substring(bench.lastIndexOf('.') + 1) + "," + p.getMode().shortLabel() + ","
      + target + "," + dataset + "," + ioKb;
  }

  /** Called before every iteration: the first measured one starts the count. */
  void iterationStarts(IterationParams ip) {
    if (start == null && ip.getType() == IterationType.MEASUREMENT) {
      start = io.ulfsCounters();
      ops = 0;
    }
  }

  void op() {
    ops++;
  }

  /** Appends the row of this trial (ulfs targets only). */
  void trialEnds(File dir) throws IOException {
    long[] end = io.ulfsCounters();
    if (start == null || end == null) {
      return;
    }
    StringBuilder sb = new StringBuilder(row).append(',').append(ops);
    for (int c : COLUMNS) {
      sb.append(',').append(end[c] - start[c]);
    }
    File f = new File(dir, FILE);
    if (!f.exists()) {
      Files.write(f.toPath(), HEADER.getBytes(StandardCharsets.UTF_8));
    }
    Files.write(f.toPath(), sb.append('\n').toString().getBytes(StandardCharsets.UTF_8),
      StandardOpenOption.APPEND);
  }
}
