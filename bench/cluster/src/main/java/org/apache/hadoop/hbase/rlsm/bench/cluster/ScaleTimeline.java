package org.apache.hadoop.hbase.rlsm.bench.cluster;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreStats;

/**
 * Samples one table's single store every {@code period} while a scale run loads, settles and
 * major-compacts it: store files (all, and those HBase counts toward blocking flushes: every
 * file for HBase's engines, Level-0 for RLSM), RLSM's partitions, segments and deepest
 * partition, the memstore, the RegionServer's time with updates blocked at the global memstore
 * limit and the region's requests refused as too busy (its memstore over the blocking size),
 * and the heap in use. It also sweeps the store's {@link ArchiveMeter}, which therefore has this
 * sampler's thread as its one caller until {@link #close} returns. Each sample is one CSV row and
 * one progress line on stderr.
 */
final class ScaleTimeline implements AutoCloseable {
  static final String HEADER = "engine,phase,t_s,user_mb,store_files,blocking_files,partitions,"
    + "segments,deepest,memstore_mb,blocked_ms,too_busy,heap_mb";

  private final String engine;
  private final HRegionServer server;
  private final HRegion region;
  private final HStore store;
  private final ArchiveMeter archive;
  private final AtomicLong userBytes;
  private final long periodMillis;
  private final long start = System.nanoTime();
  private final long blockedMs0;
  private final long tooBusy0;
  private final List<String> rows = new ArrayList<>();
  private final CountDownLatch stop = new CountDownLatch(1);
  private final Thread thread;
  private volatile String phase = "load";
  private int maxFiles;
  private int maxBlockingFiles;
  private int maxDeepest;
  private IOException failure;

  ScaleTimeline(String engine, HRegionServer server, HRegion region, HStore store,
    ArchiveMeter archive, AtomicLong userBytes, long periodMillis) {
    this.engine = engine;
    this.server = server;
    this.region = region;
    this.store = store;
    this.archive = archive;
    this.userBytes = userBytes;
    this.periodMillis = periodMillis;
    this.blockedMs0 = blockedMs();
    this.tooBusy0 = region.getBlockedRequestsCount();
    this.thread = new Thread(this::run, "scale-timeline-" + engine);
    thread.setDaemon(true);
    thread.start();
  }

  void phase(String p) {
    phase = p;
  }

  private long blockedMs() {
    return server.getMemStoreFlusher().getUpdatesBlockedMsHighWater().sum();
  }

  private void run() {
    try {
      do {
        sample();
      } while (!stop.await(periodMillis, TimeUnit.MILLISECONDS));
      sample();
    } catch (IOException e) {
      failure = e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void sample() throws IOException {
    archive.sweep();
    int files = store.getStorefiles().size();
    int blocking = store.getStorefilesCount();
    int partitions = 0;
    int segments = 0;
    int deepest = 0;
    if (store.getStoreEngine() instanceof RlsmStoreEngine) {
      RlsmStoreStats s = ((RlsmStoreEngine) store.getStoreEngine()).getStats();
      partitions = s.getPartitions();
      segments = s.getSegments();
      deepest = s.getDeepestPartition();
    }
    maxFiles = Math.max(maxFiles, files);
    maxBlockingFiles = Math.max(maxBlockingFiles, blocking);
    maxDeepest = Math.max(maxDeepest, deepest);
    double t = (System.nanoTime() - start) / 1e9;
    double userMb = WriteAmplificationBench.mb(userBytes.get());
    long blocked = blockedMillis();
    long tooBusy = tooBusy();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    rows.add(String.format(Locale.ROOT, "%s,%s,%.0f,%.1f,%d,%d,%d,%d,%d,%.1f,%d,%d,%.0f", engine,
      phase, t, userMb, files, blocking, partitions, segments, deepest,
      WriteAmplificationBench.mb(region.getMemStoreDataSize()), blocked, tooBusy,
      WriteAmplificationBench.mb(heap)));
    System.err.printf(Locale.ROOT, "%s %s %.0f s: %.0f MB user, %d files (%d blocking), "
      + "%d partitions, deepest %d, blocked %d ms, %d too busy%n", engine, phase, t, userMb,
      files, blocking, partitions, deepest, blocked, tooBusy);
  }

  /** Takes a last sample and stops; rethrows a failure of the archive sweep. */
  @Override
  public void close() throws IOException, InterruptedException {
    stop.countDown();
    thread.join();
    if (failure != null) {
      throw failure;
    }
  }

  List<String> rows() {
    return rows;
  }

  int maxFiles() {
    return maxFiles;
  }

  int maxBlockingFiles() {
    return maxBlockingFiles;
  }

  int maxDeepest() {
    return maxDeepest;
  }

  long blockedMillis() {
    return blockedMs() - blockedMs0;
  }

  long tooBusy() {
    return region.getBlockedRequestsCount() - tooBusy0;
  }
}
