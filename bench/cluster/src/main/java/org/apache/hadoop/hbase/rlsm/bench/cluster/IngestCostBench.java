package org.apache.hadoop.hbase.rlsm.bench.cluster;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;

/**
 * What ingest costs the RegionServer per engine, counted on the thread that does the work rather
 * than timed on a shared machine: the scale benchmark's tables
 * ({@link WriteAmplificationBench#descriptor}) and rows (random keys, 10 fields of 100 bytes, no
 * WAL) in local regions, no mini cluster. Each round fills every engine's memstore to the flush
 * size with puts ({@code HRegion.put}; the rows are made before the timed calls), flushes it
 * ({@code HRegion.flush}) and then runs compactions until the store needs none
 * ({@code HRegion.compact}), all on the calling thread, so the thread's CPU time and bytes
 * allocated are the puts', the flush's and the compactions' alone. A local region has no
 * handlers, flusher or compaction threads and no RPC; the regions share an on-heap BlockCache as a
 * RegionServer's share one. Rounds take the engines in turn, starting
 * with another each round, so JIT warm-up and the machine's load fall on every engine alike.
 *
 * <p>What it answers: where the CPU of a write-heavy load goes per MB of memstore data, so the
 * scale benchmark's load throughput on 2 shared cores can be read (docs/benchmarks.md, "Ingest
 * cost"). Run by {@code bench/scripts/ingest-cost.sh}.
 *
 * <p>Arguments: flush size in MB (16), rounds (16), engines as the scale benchmark names them
 * (default,rlsm-index). Writes {@code docs/bench-data/ingest-cost-<MB>mb-<rounds>r.csv}, one line
 * per engine and round (CPU in ms, allocation in MB, per MB of memstore data of that round).
 */
public final class IngestCostBench {
  /** Puts made before each timed batch, so that only {@code HRegion.put} is measured. */
  private static final int BATCH = 1000;
  private static final com.sun.management.ThreadMXBean THREADS =
    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final byte[] F = org.apache.hadoop.hbase.util.Bytes.toBytes("f");

  private IngestCostBench() {
  }

  /** CPU nanoseconds and bytes allocated of the calling thread so far. */
  private static long[] now() {
    long tid = Thread.currentThread().getId();
    return new long[] { THREADS.getThreadCpuTime(tid), THREADS.getThreadAllocatedBytes(tid) };
  }

  /** Phases, the index of each in {@link Totals}: puts, the flush, the compactions after it. */
  private static final int PUT = 0;
  private static final int FLUSH = 1;
  private static final int COMPACTION = 2;

  /** CPU ns and bytes allocated per phase, and the memstore bytes flushed: a round's or totals. */
  private static final class Totals {
    final long[] cpu = new long[3];
    final long[] alloc = new long[3];
    long memstore;

    void add(int phase, long[] from, long[] to) {
      cpu[phase] += to[0] - from[0];
      alloc[phase] += to[1] - from[1];
    }

    void add(Totals round) {
      for (int ph = 0; ph < cpu.length; ph++) {
        cpu[ph] += round.cpu[ph];
        alloc[ph] += round.alloc[ph];
      }
      memstore += round.memstore;
    }

    double cpuMsPerMb(int phase) {
      return cpu[phase] / 1e6 / (memstore / 1048576.0);
    }

    double allocMbPerMb(int phase) {
      return alloc[phase] / (double) memstore;
    }
  }

  public static void main(String[] args) throws Exception {
    int flushMb = args.length > 0 ? Integer.parseInt(args[0]) : 16;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 16;
    List<String> engines =
      Arrays.asList((args.length > 2 ? args[2] : "default,rlsm-index").split(","));
    HBaseTestingUtility util = new HBaseTestingUtility();
    Configuration conf = util.getConfiguration();
    long flushBytes = (long) flushMb << 20;
    // a RegionServer's on-heap BlockCache (HBase's default share of the heap): index and Bloom
    // blocks are cached as a server caches them; compactions read data blocks without caching
    BlockCache cache = BlockCacheFactory.createBlockCache(conf);
    List<HRegion> regions = new ArrayList<>();
    List<Totals> totals = new ArrayList<>();
    for (String engine : engines) {
      TableDescriptor td = WriteAmplificationBench.descriptor(
        TableName.valueOf("ingest_" + engine.replace('-', '_')), engine, 4 * flushBytes);
      regions.add(HBaseTestingUtility.createRegionAndWAL(
        RegionInfoBuilder.newBuilder(td.getTableName()).build(), util.getDataTestDir(engine),
        conf, td, cache));
      totals.add(new Totals());
    }
    Random rnd = new Random(11);
    byte[] value = new byte[100];
    String csv = "docs/bench-data/ingest-cost-" + flushMb + "mb-" + rounds + "r.csv";
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Paths.get(csv),
      StandardCharsets.UTF_8))) {
      out.println("round,engine,memstore_mb,put_cpu_ms_per_mb,flush_cpu_ms_per_mb,"
        + "compaction_cpu_ms_per_mb,put_alloc_mb_per_mb,flush_alloc_mb_per_mb,"
        + "compaction_alloc_mb_per_mb,compactions,store_files");
      for (int round = 0; round < rounds; round++) {
        for (int k = 0; k < engines.size(); k++) {
          int e = (k + round) % engines.size();
          HRegion r = regions.get(e);
          Totals t = new Totals();
          List<Put> batch = new ArrayList<>(BATCH);
          while (r.getMemStoreDataSize() < flushBytes) {
            batch.clear();
            for (int i = 0; i < BATCH; i++) {
              batch.add(WriteAmplificationBench.record(rnd, value));
            }
            long[] t0 = now();
            for (Put p : batch) {
              r.put(p);
            }
            t.add(PUT, t0, now());
          }
          t.memstore = r.getMemStoreDataSize();
          long[] t0 = now();
          r.flush(true);
          t.add(FLUSH, t0, now());
          HStore store = r.getStore(F);
          int compactions = 0;
          t0 = now();
          for (; compactions < 100 && store.needsCompaction(); compactions++) {
            r.compact(false);
          }
          t.add(COMPACTION, t0, now());
          totals.get(e).add(t);
          out.printf(Locale.ROOT, "%d,%s,%.1f,%.2f,%.2f,%.2f,%.3f,%.3f,%.3f,%d,%d%n", round + 1,
            engines.get(e), t.memstore / 1048576.0, t.cpuMsPerMb(PUT), t.cpuMsPerMb(FLUSH),
            t.cpuMsPerMb(COMPACTION), t.allocMbPerMb(PUT), t.allocMbPerMb(FLUSH),
            t.allocMbPerMb(COMPACTION), compactions, store.getStorefilesCount());
          out.flush();
          System.err.printf(Locale.ROOT, "ingest cost: round %d/%d %s: CPU ms/MB put %.1f, "
            + "flush %.1f, compaction %.1f (%d compactions)%n", round + 1, rounds,
            engines.get(e), t.cpuMsPerMb(PUT), t.cpuMsPerMb(FLUSH), t.cpuMsPerMb(COMPACTION),
            compactions);
        }
      }
    }
    System.out.printf(Locale.ROOT,
      "ingest cost: %d rounds of %d MB flushes per engine, totals per MB of memstore data (%s)%n",
      rounds, flushMb, csv);
    System.out.println("| engine | put CPU ms/MB | flush CPU ms/MB | compaction CPU ms/MB "
      + "| total CPU ms/MB | total vs " + engines.get(0) + " | allocated MB/MB (put, flush, "
      + "compaction) | compactions wrote B per flushed B |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    double base = total(totals.get(0));
    for (int e = 0; e < engines.size(); e++) {
      Totals t = totals.get(e);
      System.out.printf(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f, %.2f, %.2f "
        + "| %.2f |%n", engines.get(e), t.cpuMsPerMb(PUT), t.cpuMsPerMb(FLUSH),
        t.cpuMsPerMb(COMPACTION), total(t), total(t) / base, t.allocMbPerMb(PUT),
        t.allocMbPerMb(FLUSH), t.allocMbPerMb(COMPACTION),
        ReadCostBench.compactedPerFlushed(regions.get(e).getStore(F)));
    }
    for (HRegion r : regions) {
      HBaseTestingUtility.closeRegionAndWAL(r);
    }
    util.cleanupTestDir();
  }

  private static double total(Totals t) {
    return t.cpuMsPerMb(PUT) + t.cpuMsPerMb(FLUSH) + t.cpuMsPerMb(COMPACTION);
  }
}
