package org.apache.hadoop.hbase.rlsm.bench.cluster;

import static org.apache.hadoop.hbase.rlsm.bench.cluster.WriteAmplificationBench.mb;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.HFileArchiveUtil;
import org.apache.hadoop.hbase.util.JVMClusterUtil;

/**
 * Write amplification, load throughput and regions per RegionServer of RLSM and the default
 * engine on tables spread over several regions and RegionServers, side by side in one mini
 * cluster on HDFS (3 datanodes, 3 RegionServers). The load is {@link WriteAmplificationBench}'s:
 * random row keys, 10 columns of 100 bytes, no WAL. Write amplification = bytes of every store
 * file of the table's family ever committed, in every region (live, compacted but not yet archived,
 * and archived: the archive cleaner is held off, so a split parent's files and references count
 * too) / user bytes. File lengths are logical bytes; HDFS replication multiplies both engines
 * alike. Run by {@code bench/scripts/multi-region.sh}.
 *
 * <p>Arguments: megabytes of user data per table (default 64), flush size in MB (4), the
 * number of pre-split regions (6), output CSV path, and a comma-separated list of runs among
 * {@code default-presplit, rlsm-presplit, default-autosplit, rlsm-autosplit} (auto-split tables
 * start with one region and split at the given maximum file size in MB, the sixth argument,
 * default 16, under HBase's {@code ConstantSizeRegionSplitPolicy}, during the load and after it
 * until no region wants a split). The balancer runs once before regions are counted per server.
 */
public final class MultiRegionWriteBench {
  private static final byte[] F = Bytes.toBytes("f");
  private static final int SERVERS = 3;
  /** Rounds of {@link #growBySplits}: far more than a run's table can split. */
  private static final int MAX_SPLIT_ROUNDS = 20;
  /** Hang guard of one round's splits. */
  private static final long SPLIT_WAIT_MS = 20 * 60_000;

  private static final class Result {
    String run;
    long userBytes;
    long committedBytes;
    long liveBytes;
    double loadSeconds;
    double settleSeconds;
    int regions;
    String regionsPerServer;
  }

  public static void main(String[] args) throws Exception {
    long megabytes = args.length > 0 ? Long.parseLong(args[0]) : 64;
    long flushMb = args.length > 1 ? Long.parseLong(args[1]) : 4;
    int presplit = args.length > 2 ? Integer.parseInt(args[2]) : 6;
    String csv = args.length > 3 ? args[3] : "multi-region.csv";
    String[] runs = (args.length > 4 ? args[4] : "default-presplit,rlsm-presplit").split(",");
    long maxFileMb = args.length > 5 ? Long.parseLong(args[5]) : 16;
    HBaseTestingUtility util = new HBaseTestingUtility();
    Configuration conf = util.getConfiguration();
    conf.setBoolean("hbase.table.sanity.checks", false);
    conf.setLong("hbase.master.hfilecleaner.ttl", 7L * 24 * 3600 * 1000);
    conf.setInt("hbase.hstore.blockingStoreFiles", 1000);
    util.startMiniCluster(SERVERS);
    List<Result> results = new ArrayList<>();
    try {
      for (String run : runs) {
        results.add(run(util, run, megabytes << 20, flushMb << 20, presplit, maxFileMb << 20));
      }
    } finally {
      util.shutdownMiniCluster();
    }
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Paths.get(csv),
      StandardCharsets.UTF_8))) {
      w.println("run,user_mb,committed_mb,live_mb,write_amp,load_s,load_mb_s,settle_s,regions,"
        + "regions_per_server");
      for (Result r : results) {
        w.printf(Locale.ROOT, "%s,%.1f,%.1f,%.1f,%.2f,%.1f,%.2f,%.1f,%d,\"%s\"%n", r.run,
          mb(r.userBytes), mb(r.committedBytes), mb(r.liveBytes),
          (double) r.committedBytes / r.userBytes, r.loadSeconds, mb(r.userBytes) / r.loadSeconds,
          r.settleSeconds, r.regions, r.regionsPerServer);
      }
    }
    System.out.printf("%n| run | user MB | committed MB | live MB | write amp | load MB/s |"
      + " settle s | regions | regions per server |%n|---|---|---|---|---|---|---|---|---|%n");
    for (Result r : results) {
      System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.0f | %.2f | %.2f | %.0f | %d | %s |%n",
        r.run, mb(r.userBytes), mb(r.committedBytes), mb(r.liveBytes),
        (double) r.committedBytes / r.userBytes, mb(r.userBytes) / r.loadSeconds, r.settleSeconds,
        r.regions, r.regionsPerServer);
    }
  }

  /** Split keys of {@code regions} equal ranges of the load's row keys. */
  private static byte[][] splitKeys(int regions) {
    byte[][] keys = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      keys[i - 1] = WriteAmplificationBench.rowKey(Long.MAX_VALUE / regions * i);
    }
    return keys;
  }

  private static Result run(HBaseTestingUtility util, String run, long userTarget,
    long flushSize, int presplit, long maxFileSize) throws Exception {
    String[] parts = run.split("-");
    boolean rlsm = parts[0].equals("rlsm");
    boolean autosplit = parts[1].equals("autosplit");
    TableName tn = TableName.valueOf("mr_" + run.replace('-', '_'));
    ColumnFamilyDescriptorBuilder cf = ColumnFamilyDescriptorBuilder.newBuilder(F);
    TableDescriptorBuilder tb = TableDescriptorBuilder.newBuilder(tn)
      .setMemStoreFlushSize(flushSize);
    if (rlsm) {
      RlsmTables.configure(cf);
      RlsmTables.configure(tb);
    }
    if (autosplit) {
      String policy = ConstantSizeRegionSplitPolicy.class.getName();
      // An RLSM table keeps RLSM's split policy, which asks the chosen one when to split.
      if (rlsm) {
        RlsmTables.splitPolicy(tb, policy);
      } else {
        tb.setRegionSplitPolicyClassName(policy);
      }
      tb.setMaxFileSize(maxFileSize);
    }
    tb.setColumnFamily(cf.build());
    if (autosplit) {
      util.getAdmin().createTable(tb.build());
    } else {
      util.getAdmin().createTable(tb.build(), splitKeys(presplit));
    }
    Result r = new Result();
    r.run = run;
    long start = System.nanoTime();
    r.userBytes = WriteAmplificationBench.load(util, tn, run, userTarget);
    util.getAdmin().flush(tn);
    r.loadSeconds = (System.nanoTime() - start) / 1e9;
    long settleStart = System.nanoTime();
    WriteAmplificationBench.settle(util, tn);
    util.waitUntilNoRegionsInTransition();
    if (autosplit) {
      growBySplits(util, tn);
    }
    r.settleSeconds = (System.nanoTime() - settleStart) / 1e9;
    // as HBase's balancer chore would, spread the regions (a move writes no store file)
    util.getAdmin().balance();
    util.waitUntilNoRegionsInTransition();
    FileSystem fs = util.getTestFileSystem();
    Path root = CommonFSUtils.getRootDir(util.getConfiguration());
    r.committedBytes = familyBytes(fs, CommonFSUtils.getTableDir(root, tn))
      + familyBytes(fs, HFileArchiveUtil.getTableArchivePath(root, tn));
    for (HRegion region : util.getHBaseCluster().getRegions(tn)) {
      HStore store = region.getStore(F);
      r.liveBytes += store.getStorefilesSize();
    }
    Map<String, Integer> perServer = new TreeMap<>();
    for (RegionInfo ri : util.getAdmin().getRegions(tn)) {
      ServerName sn = util.getHBaseCluster().getMaster().getAssignmentManager().getRegionStates()
        .getRegionServerOfRegion(ri);
      perServer.merge(String.valueOf(sn == null ? "unassigned" : sn.getPort()), 1,
        Integer::sum);
      r.regions++;
    }
    r.regionsPerServer = perServer.values().toString();
    System.err.printf("%s done: %.1f MB user, %.1f MB committed, %d regions%n", run,
      mb(r.userBytes), mb(r.committedBytes), r.regions);
    return r;
  }

  /**
   * Splits every region of {@code tn} that its split policy wants split, the way HBase does after
   * a flush or a compaction ({@code CompactSplit.requestSplit}: the policy decides and names the
   * split point), then settles the daughters (their references compacted away) and asks again,
   * until no region wants a split. A load without WAL outruns HBase's own triggers: a daughter
   * that holds references cannot split, and the load ends before its references are rewritten,
   * so without this a table split once during the load and never again.
   */
  private static void growBySplits(HBaseTestingUtility util, TableName tn) throws Exception {
    for (int round = 1; round <= MAX_SPLIT_ROUNDS; round++) {
      int before = util.getAdmin().getRegions(tn).size();
      int requested = 0;
      for (JVMClusterUtil.RegionServerThread t : util.getHBaseCluster()
        .getLiveRegionServerThreads()) {
        HRegionServer rs = t.getRegionServer();
        for (HRegion region : rs.getRegions(tn)) {
          // as HBase's CompactedHFilesDischarger chore does (every 2 minutes): a daughter counts
          // its compacted references until they are archived, and cannot split meanwhile
          for (HStore store : region.getStores()) {
            store.closeAndArchiveCompactedFiles();
          }
          if (rs.getCompactSplitThread().requestSplit(region)) {
            requested++;
          }
        }
      }
      if (requested == 0) {
        return;
      }
      int want = before + requested;
      System.err.printf("%s: split round %d: %d regions, %d splits requested%n", tn, round,
        before, requested);
      util.waitFor(SPLIT_WAIT_MS, 1000, () -> util.getAdmin().getRegions(tn).size() >= want);
      util.waitUntilNoRegionsInTransition();
      WriteAmplificationBench.settle(util, tn);
    }
  }

  /** Bytes of the regular files in every {@code f} family directory under {@code dir}. */
  private static long familyBytes(FileSystem fs, Path dir) throws IOException {
    if (!fs.exists(dir)) {
      return 0;
    }
    long total = 0;
    for (FileStatus st : fs.listStatus(dir)) {
      if (!st.isDirectory()) {
        continue;
      }
      if (st.getPath().getName().equals(Bytes.toString(F))) {
        total += WriteAmplificationBench.size(fs, st.getPath());
      } else {
        total += familyBytes(fs, st.getPath());
      }
    }
    return total;
  }
}
