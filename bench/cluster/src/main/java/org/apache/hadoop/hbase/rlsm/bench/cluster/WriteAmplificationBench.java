package org.apache.hadoop.hbase.rlsm.bench.cluster;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MemoryCompactionPolicy;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreStats;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.regionserver.StripeStoreEngine;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.HFileArchiveUtil;

/**
 * Write amplification of the default, stripe and RLSM engines (both split modes) on the same
 * YCSB-like load, in one mini cluster on this machine: random row keys, 10 columns of 100 bytes,
 * the same flush size and compaction settings for all. Write amplification = bytes of every store
 * file the family ever committed (live plus archived, counted as archived) / user
 * bytes (row + qualifier + value of every cell written). Run by {@code bench/scripts/write-amp.sh}.
 *
 * <p>Arguments: megabytes of user data (default 160), flush size in MB (4), output CSV path,
 * and optionally a comma-separated engine list among {@code default, default-imc (the default
 * engine with IN_MEMORY_COMPACTION => ADAPTIVE), stripe, rlsm-index, rlsm-rewrite,
 * rlsm-index-skiplist (RLSM with HBase's skip-list memstore instead of the hash memstore),
 * rlsm-index-wholefold (RLSM whose segment bound folds whole partitions, as before its size
 * tiers: a tier ratio no segment stays under), rlsm-index-seg<N> (RLSM with a bound of N
 * segments per partition), rlsm-index-readsplit (RLSM whose splits read every row of the
 * partition for its median, as before row quantiles), rlsm-index-splitwait (RLSM whose
 * splits wait for a compaction of their own instead of running in range-appends, the default
 * since), rlsm-index-splitappend (RLSM dividing oversized partitions in range-appends),
 * rlsm-index-finish0 (RLSM closing a compaction's segments one after the other on the compaction
 * thread, as before its segment finisher), rlsm-index-nospread (RLSM folding partitions only
 * at the segment bound, as before its fold spread, so that they reach it in one append),
 * rlsm-index-nooverdue (RLSM whose splits all wait behind range-appends, as before overdue
 * splits), rlsm-index-overdue<F> (RLSM with an overdue split factor of F)}
 * (default: default, stripe, rlsm-index, rlsm-rewrite), and
 * {@code true} to run a user major compaction after settling (its time, bytes and heap; its
 * bytes are not part of the write amplification). Run at several sizes by
 * {@code bench/scripts/scale.sh}, which also keeps the timeline {@link ScaleTimeline} samples
 * (next to the CSV, {@code -timeline.csv}). Archived files are counted and deleted as they
 * arrive ({@link ArchiveMeter}) and each engine's table is dropped after its run, so a run
 * needs the disk of one engine's live store at a time.
 */
public final class WriteAmplificationBench {
  private static final byte[] F = Bytes.toBytes("f");

  private static final class Result {
    String engine;
    long userBytes;
    long committedBytes;
    long liveBytes;
    double loadSeconds;
    double settleSeconds;
    String rlsmCounters = "";
    int maxFiles;
    int maxBlockingFiles;
    int maxDeepest;
    long blockedMillis;
    long tooBusy;
    LoadProgress load;
    /** The user major compaction after settling, when run (-1 otherwise). */
    double majorSeconds = -1;
    long majorBytes;
    long heapBaseline;
    long heapPeakAfterGc;
    long heapPoolPeaks;
  }

  /**
   * A load's progress, read by the {@link ScaleTimeline} while it runs: user bytes written, and
   * the client's stalls, the longest call that handed a put to the buffered mutator (it blocks
   * while the buffer is full and the RegionServer refuses or delays writes: HBase's flush stalls
   * as a client meets them) and the calls that took a second or more.
   */
  static final class LoadProgress {
    final AtomicLong userBytes = new AtomicLong();
    long maxStallNanos;
    long stallsOverSecond;

    void call(long nanos) {
      maxStallNanos = Math.max(maxStallNanos, nanos);
      if (nanos >= 1_000_000_000L) {
        stallsOverSecond++;
      }
    }
  }

  public static void main(String[] args) throws Exception {
    long megabytes = args.length > 0 ? Long.parseLong(args[0]) : 160;
    long flushMb = args.length > 1 ? Long.parseLong(args[1]) : 4;
    String csv = args.length > 2 ? args[2] : "write-amp.csv";
    String[] engines = (args.length > 3 ? args[3] : "default,stripe,rlsm-index,rlsm-rewrite")
      .split(",");
    boolean major = args.length > 4 && Boolean.parseBoolean(args[4]);
    HBaseTestingUtility util = new HBaseTestingUtility();
    Configuration conf = util.getConfiguration();
    conf.setBoolean("hbase.table.sanity.checks", false);
    conf.setLong("hbase.master.hfilecleaner.ttl", 7L * 24 * 3600 * 1000);
    conf.setInt("hbase.hstore.blockingStoreFiles", 1000);
    // a loaded machine can take longer than HBase's 30 s to make the mini cluster's master active
    conf.setInt("hbase.master.start.timeout.localHBaseCluster", 600_000);
    util.startMiniCluster(1);
    List<Result> results = new ArrayList<>();
    List<String> timeline = new ArrayList<>();
    try {
      for (String engine : engines) {
        results.add(run(util, engine, megabytes << 20, flushMb << 20, major, timeline));
      }
    } finally {
      util.shutdownMiniCluster();
    }
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Paths.get(csv),
      StandardCharsets.UTF_8))) {
      w.println("engine,user_mb,committed_mb,live_mb,write_amp,load_s,load_mb_s,settle_s,"
        + "max_files,max_blocking_files,max_deepest,blocked_ms,too_busy,max_client_stall_s,"
        + "client_stalls_1s,major_s,major_mb,heap_base_mb,heap_peak_gc_mb,heap_pool_peak_mb,rlsm");
      for (Result r : results) {
        w.printf(Locale.ROOT, "%s,%.1f,%.1f,%.1f,%.2f,%.1f,%.2f,%.1f,%d,%d,%d,%d,%d,%.2f,%d,%.1f,"
          + "%.1f,%.0f,%.0f,%.0f,\"%s\"%n", r.engine, mb(r.userBytes), mb(r.committedBytes),
          mb(r.liveBytes), (double) r.committedBytes / r.userBytes, r.loadSeconds,
          mb(r.userBytes) / r.loadSeconds, r.settleSeconds, r.maxFiles, r.maxBlockingFiles,
          r.maxDeepest, r.blockedMillis, r.tooBusy, r.load.maxStallNanos / 1e9,
          r.load.stallsOverSecond, r.majorSeconds, mb(r.majorBytes), mb(r.heapBaseline),
          mb(r.heapPeakAfterGc), mb(r.heapPoolPeaks), r.rlsmCounters);
      }
    }
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Paths.get(
      csv.replaceFirst("(\\.csv)?$", "-timeline.csv")), StandardCharsets.UTF_8))) {
      w.println(ScaleTimeline.HEADER);
      timeline.forEach(w::println);
    }
    double base = 0;
    System.out.printf("%n| engine | user MB | committed MB | live MB | write amp | vs first |"
      + " load MB/s | settle s |%n|---|---|---|---|---|---|---|---|%n");
    for (Result r : results) {
      double wa = (double) r.committedBytes / r.userBytes;
      if (base == 0) {
        base = wa; // ratios are against the first engine of the run
      }
      System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f | %.0f |%n",
        r.engine, mb(r.userBytes), mb(r.committedBytes), mb(r.liveBytes), wa, wa / base,
        mb(r.userBytes) / r.loadSeconds, r.settleSeconds);
    }
    for (Result r : results) {
      if (!r.rlsmCounters.isEmpty()) {
        System.out.println(r.engine + " counters: " + r.rlsmCounters);
      }
    }
  }

  static double mb(long b) {
    return b / 1048576.0;
  }

  private static Result run(HBaseTestingUtility util, String engine, long userTarget,
    long flushSize, boolean major, List<String> timeline) throws Exception {
    TableName tn = TableName.valueOf("wa_" + engine.replace('-', '_'));
    util.getAdmin().createTable(descriptor(tn, engine, flushSize));
    Result r = new Result();
    r.engine = engine;
    r.load = new LoadProgress();
    HRegion region = util.getHBaseCluster().getRegions(tn).get(0);
    HStore store = region.getStore(F);
    FileSystem fs = util.getTestFileSystem();
    Path storeDir = region.getRegionFileSystem().getStoreDir("f");
    ArchiveMeter archive = new ArchiveMeter(fs, HFileArchiveUtil.getStoreArchivePath(
      util.getConfiguration(), region.getRegionInfo(), CommonFSUtils.getTableDir(
        CommonFSUtils.getRootDir(util.getConfiguration()), tn), F));
    HRegionServer server = util.getHBaseCluster().getRegionServer(0);
    try (ScaleTimeline samples = new ScaleTimeline(engine, server, region, store, archive,
      r.load.userBytes, 10_000)) {
      long start = System.nanoTime();
      r.userBytes = load(util, tn, engine, userTarget, r.load);
      flushAll(util, tn);
      r.loadSeconds = (System.nanoTime() - start) / 1e9;
      samples.phase("settle");
      long settleStart = System.nanoTime();
      settle(util, tn);
      r.settleSeconds = (System.nanoTime() - settleStart) / 1e9;
      r.blockedMillis = samples.blockedMillis();
      r.tooBusy = samples.tooBusy();
      r.liveBytes = store.getStorefilesSize();
      if (major) {
        samples.phase("major");
        majorCompact(util, tn, region, r, () -> size(fs, storeDir) + archive.sweep());
      }
      samples.close();
      timeline.addAll(samples.rows());
      r.maxFiles = samples.maxFiles();
      r.maxBlockingFiles = samples.maxBlockingFiles();
      r.maxDeepest = samples.maxDeepest();
    }
    // The sampler has stopped: this thread is the archive meter's one caller from here on.
    // Every committed file is in the store directory (live, or compacted but not yet archived)
    // or was archived and counted by the meter: archiving moves, so nothing is counted twice.
    r.committedBytes = size(fs, storeDir) + archive.sweep() - r.majorBytes;
    if (store.getStoreEngine() instanceof RlsmStoreEngine) {
      RlsmStoreStats s = ((RlsmStoreEngine) store.getStoreEngine()).getStats();
      r.rlsmCounters = s.toString();
    }
    System.err.printf("%s done: %.1f MB user, %.1f MB committed%n", engine, mb(r.userBytes),
      mb(r.committedBytes));
    // Frees the disk for the next engine: dropping a table archives its files.
    util.deleteTable(tn);
    fs.delete(HFileArchiveUtil.getTableArchivePath(util.getConfiguration(), tn), true);
    return r;
  }

  /** Compactions the region has completed (HBase's region metric numCompactionsCompleted). */
  private static long compactionsDone(HRegion region) {
    return region.getMetrics().getRegionWrapper().getNumCompactionsCompleted();
  }

  /** What a store has committed so far (its directory plus its metered archive). */
  private interface Committed {
    long get() throws IOException;
  }

  /**
   * A user major compaction of the settled table: its time, the bytes it committed (excluded
   * from the load's write amplification) and the heap the JVM held during it ({@link HeapPeak}).
   * Waits for the region to finish one more compaction than before the request, then settles.
   */
  private static void majorCompact(HBaseTestingUtility util, TableName tn, HRegion region,
    Result r, Committed committed) throws Exception {
    long before = committed.get();
    long finished = compactionsDone(region);
    HeapPeak heap = new HeapPeak();
    heap.arm();
    long start = System.nanoTime();
    util.getAdmin().majorCompact(tn);
    // a benchmark's poll (the compaction takes minutes at scale), bounded in case the engine
    // declines the request
    for (int i = 0; i < 3600 && (compactionsDone(region) == finished
      || region.getCompactionState() != CompactionState.NONE); i++) {
      Thread.sleep(1000);
    }
    if (compactionsDone(region) == finished) {
      heap.disarm();
      System.err.printf("%s major compaction: none ran within an hour%n", r.engine);
      return;
    }
    settle(util, tn);
    r.majorSeconds = (System.nanoTime() - start) / 1e9;
    heap.disarm();
    r.heapBaseline = heap.baseline();
    r.heapPeakAfterGc = heap.peakAfterGc();
    r.heapPoolPeaks = heap.poolPeaks();
    r.majorBytes = committed.get() - before;
    System.err.printf(Locale.ROOT, "%s major compaction: %.0f s, %.0f MB written, heap %.0f MB "
      + "before, %.0f MB peak after a collection%n", r.engine, r.majorSeconds, mb(r.majorBytes),
      mb(r.heapBaseline), mb(r.heapPeakAfterGc));
  }

  /**
   * The table {@code tn} of one family {@code f} for {@code engine} (see the class comment),
   * flushing at {@code flushSize} bytes, never split or merged.
   */
  static TableDescriptor descriptor(TableName tn, String engine, long flushSize) {
    ColumnFamilyDescriptorBuilder cf = ColumnFamilyDescriptorBuilder.newBuilder(F);
    TableDescriptorBuilder tb = TableDescriptorBuilder.newBuilder(tn)
      .setMemStoreFlushSize(flushSize).setSplitEnabled(false).setMergeEnabled(false)
      .setRegionSplitPolicyClassName(DisabledRegionSplitPolicy.class.getName());
    if (engine.startsWith("rlsm")) {
      RlsmTables.configure(cf);
      // RLSM's split policy replaces the table's and delegates to the one named here; without
      // it the delegate is HBase's stepping policy, and once the store passes twice the flush
      // size every flush asks for a split (which the table refuses) instead of a compaction
      RlsmTables.splitPolicy(RlsmTables.configure(tb), DisabledRegionSplitPolicy.class.getName());
      String[] parts = engine.split("-");
      cf.setConfiguration(RlsmCompactionConfig.SPLIT_MODE_KEY, parts[1]);
      if (parts.length > 2 && parts[2].equals("skiplist")) {
        RlsmTables.useDefaultMemStore(cf);
      } else if (parts.length > 2 && parts[2].equals("wholefold")) {
        cf.setConfiguration(RlsmCompactionConfig.TIER_RATIO_KEY, "1e300");
      } else if (parts.length > 2 && parts[2].equals("readsplit")) {
        cf.setConfiguration(RlsmCompactionConfig.SPLIT_READ_ROWS_KEY, "true");
      } else if (parts.length > 2 && parts[2].equals("splitwait")) {
        cf.setConfiguration(RlsmCompactionConfig.SPLIT_IN_APPEND_KEY, "false");
      } else if (parts.length > 2 && parts[2].equals("splitappend")) {
        cf.setConfiguration(RlsmCompactionConfig.SPLIT_IN_APPEND_KEY, "true");
      } else if (parts.length > 2 && parts[2].equals("finish0")) {
        cf.setConfiguration(RlsmCompactionConfig.FINISH_THREADS_KEY, "0");
      } else if (parts.length > 2 && parts[2].equals("nospread")) {
        cf.setConfiguration(RlsmCompactionConfig.FOLD_SPREAD_KEY, "false");
      } else if (parts.length > 2 && parts[2].equals("nooverdue")) {
        cf.setConfiguration(RlsmCompactionConfig.OVERDUE_SPLIT_FACTOR_KEY, "0");
      } else if (parts.length > 2 && parts[2].startsWith("overdue")) {
        cf.setConfiguration(RlsmCompactionConfig.OVERDUE_SPLIT_FACTOR_KEY,
          parts[2].substring("overdue".length()));
      } else if (parts.length > 2 && parts[2].startsWith("seg")) {
        cf.setConfiguration(RlsmCompactionConfig.MAX_SEGMENTS_KEY, parts[2].substring(3));
      }
    } else if (engine.equals("stripe")) {
      cf.setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY, StripeStoreEngine.class.getName());
    } else if (engine.equals("default-imc")) {
      // HBase's own answer to write amplification: in-memory compaction before the flush
      cf.setInMemoryCompaction(MemoryCompactionPolicy.ADAPTIVE);
    }
    return tb.setColumnFamily(cf.build()).build();
  }

  /**
   * Writes the load to {@code tn} until {@code userTarget} user bytes (row + qualifier + value of
   * every cell) went out, reporting progress on stderr under {@code label}; returns the user
   * bytes written.
   */
  static long load(HBaseTestingUtility util, TableName tn, String label, long userTarget)
    throws IOException {
    return load(util, tn, label, userTarget, new LoadProgress());
  }

  /** {@link #load(HBaseTestingUtility, TableName, String, long)}, reporting to {@code progress}. */
  static long load(HBaseTestingUtility util, TableName tn, String label, long userTarget,
    LoadProgress progress) throws IOException {
    long userBytes = 0;
    Random rnd = new Random(7);
    byte[] value = new byte[100];
    long lastReport = System.nanoTime();
    try (BufferedMutator m = util.getConnection().getBufferedMutator(tn)) {
      long i = 0;
      while (userBytes < userTarget) {
        Put p = record(rnd, value);
        userBytes += userBytes(p);
        long callStart = System.nanoTime();
        m.mutate(p);
        progress.call(System.nanoTime() - callStart);
        progress.userBytes.set(userBytes);
        if (++i % 20_000 == 0 && System.nanoTime() - lastReport > 10_000_000_000L) {
          lastReport = System.nanoTime();
          System.err.printf("%s: %.0f / %.0f MB%n", label, mb(userBytes), mb(userTarget));
        }
      }
    }
    return userBytes;
  }

  /**
   * One row of the load: a random key, 10 fields of 100 random bytes, without WAL; {@code value}
   * is scratch space of 100 bytes.
   */
  static Put record(Random rnd, byte[] value) {
    Put p = new Put(rowKey(rnd.nextLong() & Long.MAX_VALUE)).setDurability(Durability.SKIP_WAL);
    for (int c = 0; c < 10; c++) {
      rnd.nextBytes(value);
      p.addColumn(F, Bytes.toBytes("field" + c), value.clone());
    }
    return p;
  }

  /** The user bytes of a put: row + qualifier + value of every cell. */
  static long userBytes(Put p) {
    long n = 0;
    for (List<Cell> cells : p.getFamilyCellMap().values()) {
      for (Cell c : cells) {
        n += c.getRowLength() + c.getQualifierLength() + c.getValueLength();
      }
    }
    return n;
  }

  /** The load's row key for a non-negative {@code n}: keys sort in number order. */
  static byte[] rowKey(long n) {
    return Bytes.toBytes(String.format("user%019d", n));
  }

  /**
   * Flushes every region of {@code tn} until its memstore is empty, with the regions' own flush:
   * HBase 2.6's flush procedure (Admin.flush) retries with growing pauses while a memstore flush
   * runs, minutes on a loaded machine, and a region's flush returns without flushing while
   * another one runs (which holds only the memstore's snapshot from its start), so it is asked
   * again once that one ended. Nothing writes to the table meanwhile, so this ends.
   */
  static void flushAll(HBaseTestingUtility util, TableName tn) throws IOException {
    for (HRegion region : util.getHBaseCluster().getRegions(tn)) {
      while (region.getMemStoreDataSize() > 0) {
        region.waitForFlushes();
        region.flush(true);
      }
    }
  }

  /**
   * Requests compactions until {@link #settled} (a bounded poll: a benchmark's settling, not a
   * test's synchronisation).
   */
  static void settle(HBaseTestingUtility util, TableName tn) throws Exception {
    for (int i = 0; i < 500 && !settled(util, tn); i++) {
      if (idle(util, tn)) {
        util.getAdmin().compact(tn);
      }
      Thread.sleep(1000);
    }
  }

  /**
   * Whether no region of {@code tn} has compaction work in its store's layout and none has a
   * compaction selected or running. The work is asked of the store engine with no file counted
   * as compacting: {@code Store.needsCompaction()} answers false while a compaction is selected,
   * and waits for a selection in progress (HBase selects under the store's compacting-files
   * lock, and RLSM's planner reads the row keys of every Level-0 victim there, tens of seconds
   * on a loaded machine); read after the compaction state, it made such a selection look like a
   * settled store. A layout keeps its work until the compaction commits, and HBase commits
   * before it ends the request, so the two reads leave no gap.
   */
  static boolean settled(HBaseTestingUtility util, TableName tn) {
    for (HRegion region : util.getHBaseCluster().getRegions(tn)) {
      if (region.getCompactionState() != CompactionState.NONE
        || region.getStore(F).getStoreEngine().needsCompaction(List.of())) {
        return false;
      }
    }
    return true;
  }

  private static boolean idle(HBaseTestingUtility util, TableName tn) {
    for (HRegion region : util.getHBaseCluster().getRegions(tn)) {
      if (region.getCompactionState() != CompactionState.NONE) {
        return false;
      }
    }
    return true;
  }

  /** Bytes of the regular files directly in {@code dir}. */
  static long size(FileSystem fs, Path dir) throws IOException {
    long total = 0;
    if (!fs.exists(dir)) {
      return 0;
    }
    for (FileStatus st : fs.listStatus(dir)) {
      if (st.isFile()) {
        total += st.getLen();
      }
    }
    return total;
  }
}
