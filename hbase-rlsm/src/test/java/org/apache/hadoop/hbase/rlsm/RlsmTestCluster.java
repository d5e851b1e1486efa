package org.apache.hadoop.hbase.rlsm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.coprocessor.CoprocessorHost;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreStats;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.file.V2Files;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.RlsmFileFormat;

/** Shared mini-cluster settings and helpers for the engine's integration tests. */
public final class RlsmTestCluster {
  /**
   * How long a test waits for something the cluster does by itself (a compaction, a region
   * reassignment, a child process) before it calls it hung. A hang guard only, never a speed
   * requirement: generous enough for a loaded two-core machine.
   */
  public static final long HANG_GUARD_MINUTES = 10;
  public static final int HANG_GUARD_MS = (int) HANG_GUARD_MINUTES * 60_000;

  private RlsmTestCluster() {
  }

  /** A testing utility with settings that let small tests flush often and run fast. */
  public static HBaseTestingUtility create() {
    HBaseTestingUtility util = new HBaseTestingUtility();
    Configuration conf = util.getConfiguration();
    conf.setBoolean("hbase.table.sanity.checks", false);
    conf.setInt("hbase.regionserver.handler.count", 10);
    // About two minutes of retries at this pause (HBase's backoff table): a region that moves
    // or reopens on a loaded machine must not exhaust a client's retries.
    conf.setInt("hbase.client.retries.number", 20);
    conf.setLong("hbase.client.pause", 50);
    // HBase waits 30 s for the mini cluster's master to become active, which a loaded machine
    // can take longer than; the hang guard instead
    conf.setInt("hbase.master.start.timeout.localHBaseCluster", HANG_GUARD_MS);
    // HBase 2.6.1's table flush procedure can lose a region's report that its flush could not
    // run (a memstore flush was in progress) and then wait for ever ("procedure event for N is
    // null"; seen on both engines' tables in TestRlsmAutoSplitAcrossServers); with it off the
    // client uses HBase's earlier table flush, which waits for a flush in progress
    // (docs/operations.md, "Known HBase issues")
    conf.setBoolean("hbase.flush.procedure.enabled", false);
    keepAbortsInProcess(conf);
    return util;
  }

  /**
   * Enables the master observer that completes RLSM family descriptors at create and alter, as
   * docs/install.md tells operators to.
   */
  public static void completeRlsmDescriptors(Configuration conf) {
    conf.set(CoprocessorHost.MASTER_COPROCESSOR_CONF_KEY, RlsmMasterObserver.class.getName());
  }

  /** RegionServers aborted by a test must not halt the JVM later (see AbortTimeoutLog). */
  public static void keepAbortsInProcess(Configuration conf) {
    conf.set("hbase.regionserver.abort.timeout.task", AbortTimeoutLog.class.getName());
  }

  /** Waits for a latch that the other side releases in every outcome; a hang guard only. */
  public static void awaitLatch(CountDownLatch latch) throws InterruptedException {
    if (!latch.await(HANG_GUARD_MINUTES, TimeUnit.MINUTES)) {
      throw new AssertionError("a latch was not released within " + HANG_GUARD_MINUTES + " min");
    }
  }

  /** The store files of every region of {@code table} in {@code family}. */
  public static List<Path> storeFiles(HBaseTestingUtility util, TableName table, String family)
    throws IOException {
    List<Path> out = new ArrayList<>();
    FileSystem fs = util.getTestFileSystem();
    for (HRegion r : util.getHBaseCluster().getRegions(table)) {
      Path dir = r.getRegionFileSystem().getStoreDir(family);
      if (!fs.exists(dir)) {
        continue;
      }
      for (FileStatus st : fs.listStatus(dir)) {
        if (st.isFile()) {
          out.add(st.getPath());
        }
      }
    }
    return out;
  }

  /**
   * Requests compactions of {@code tn}'s first region (a flush through Admin does not) until the
   * planner has no work for {@code family}; each request is awaited by the store's compaction
   * count, a hang guard bounds the wait.
   */
  public static void compactUntilSettled(HBaseTestingUtility util, TableName tn, byte[] family)
    throws Exception {
    Supplier<HStore> store = () -> util.getHBaseCluster().getRegions(tn).get(0).getStore(family);
    Supplier<RlsmStoreStats> stats =
      () -> ((RlsmStoreEngine) store.get().getStoreEngine()).getStats();
    for (int i = 0; i < 50 && store.get().getStoreEngine().needsCompaction(List.of()); i++) {
      long before = stats.get().getCompactions();
      util.getAdmin().compact(tn);
      util.waitFor(HANG_GUARD_MS, () -> stats.get().getCompactions() > before
        && util.getAdmin().getCompactionState(tn) == CompactionState.NONE);
    }
  }

  /** Whether RLSM wrote {@code p} (format v1, or v2 with an RLSM role in its file-info). */
  public static boolean isRlsm(HBaseTestingUtility util, Path p) throws IOException {
    return role(util.getTestFileSystem(), util.getConfiguration(), p) != null;
  }

  /** The RLSM role of a store file of either format; null for an HFile RLSM did not write. */
  public static FileRole role(FileSystem fs, Configuration conf, Path p) throws IOException {
    if (RlsmFileFormat.isRlsmFile(fs, p)) {
      try (RlsmFileReader r = RlsmFileReader.open(fs, p)) {
        return r.trailer().role();
      }
    }
    return V2Files.role(fs, p, conf);
  }
}
