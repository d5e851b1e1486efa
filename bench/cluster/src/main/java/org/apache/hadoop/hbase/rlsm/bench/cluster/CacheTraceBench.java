package org.apache.hadoop.hbase.rlsm.bench.cluster;

import java.io.File;
import java.net.URI;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.ulfs.UlfsConfig;
import org.apache.hadoop.hbase.rlsm.ulfs.UlfsFileSystem;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Records a ulfs page-access trace of a real HBase workload for {@code ulfs-cachesim}: a mini
 * cluster whose {@code hbase.rootdir} is {@code ulfs:///hbase} (a fresh image) loads an RLSM
 * table, in key order ({@code seq}) or in random order ({@code random}), then serves Zipfian
 * gets that favour small keys (the UserFS paper's workload, docs/design.md: after a sequential load
 * the hot keys sit in the oldest data, after a random load they are spread over every file). Run by
 * {@code bench/scripts/cache-mrc.sh}.
 *
 * <p>Arguments: seq|random, rows, value bytes, gets, trace path, image path, cache policy.
 */
public final class CacheTraceBench {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  private CacheTraceBench() {
  }

  /** YCSB's Zipfian generator (Gray et al.), theta 0.99: item 0 is the most popular. */
  static final class Zipf {
    private final long n;
    private final double theta = 0.99;
    private final double alpha;
    private final double zetan;
    private final double eta;
    private final Random rnd;

    Zipf(long n, long seed) {
      this.n = n;
      this.rnd = new Random(seed);
      double z = 0;
      for (long i = 1; i <= n; i++) {
        z += 1 / Math.pow(i, theta);
      }
      zetan = z;
      double zeta2 = 1 + 1 / Math.pow(2, theta);
      alpha = 1 / (1 - theta);
      eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
    }

    long next() {
      double u = rnd.nextDouble();
      double uz = u * zetan;
      if (uz < 1) {
        return 0;
      }
      if (uz < 1 + Math.pow(0.5, theta)) {
        return 1;
      }
      return Math.min(n - 1, (long) (n * Math.pow(eta * u - eta + 1, alpha)));
    }
  }

  private static byte[] row(long i) {
    return Bytes.toBytes(String.format("user%010d", i));
  }

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    int rows = Integer.parseInt(args[1]);
    int valueBytes = Integer.parseInt(args[2]);
    int gets = Integer.parseInt(args[3]);
    String trace = new File(args[4]).getAbsolutePath();
    String image = new File(args[5]).getAbsolutePath();
    String policy = args.length > 6 ? args[6] : UlfsConfig.DEFAULT_CACHE_POLICY;
    new File(image).delete(); // a fresh file system per run: formatted at mount
    HBaseTestingUtility util = new HBaseTestingUtility();
    Configuration conf = util.getConfiguration();
    conf.set(UlfsConfig.DEVICE_KEY, image);
    conf.setLong(UlfsConfig.DEVICE_BYTES_KEY, 4L << 30);
    conf.set(UlfsConfig.BACKEND_KEY, "posix");
    conf.setLong(UlfsConfig.CACHE_BYTES_KEY, 64L << 20);
    conf.set(UlfsConfig.CACHE_POLICY_KEY, policy);
    conf.set(UlfsConfig.CACHE_TRACE_KEY, trace);
    conf.set(HConstants.HBASE_DIR, "ulfs:///hbase");
    conf.set(FileSystem.FS_DEFAULT_NAME_KEY, "ulfs:///");
    conf.setBoolean("hbase.table.sanity.checks", false);
    conf.setInt(HConstants.MASTER_INFO_PORT, -1);
    conf.setInt(HConstants.REGIONSERVER_INFO_PORT, -1);
    conf.setFloat(HConstants.HFILE_BLOCK_CACHE_SIZE_KEY, 0.05f); // reads reach the page cache
    util.startMiniZKCluster();
    MiniHBaseCluster cluster = new MiniHBaseCluster(conf, 1, 1);
    cluster.waitForActiveAndReadyMaster(120_000);
    TableName tn = TableName.valueOf("usertable");
    long t0 = System.nanoTime();
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      admin.createTable(RlsmTables.configure(TableDescriptorBuilder.newBuilder(tn)
        .setMemStoreFlushSize(4L << 20).setColumnFamily(RlsmTables.family(F))).build());
      long[] order = new long[rows];
      for (int i = 0; i < rows; i++) {
        order[i] = i;
      }
      Random rnd = new Random(42);
      if (mode.equals("random")) {
        for (int i = rows - 1; i > 0; i--) {
          int j = rnd.nextInt(i + 1);
          long t = order[i];
          order[i] = order[j];
          order[j] = t;
        }
      } else if (!mode.equals("seq")) {
        throw new IllegalArgumentException("mode must be seq or random: " + mode);
      }
      byte[] value = new byte[valueBytes];
      try (BufferedMutator m = conn.getBufferedMutator(tn)) {
        for (long k : order) {
          rnd.nextBytes(value);
          m.mutate(new Put(row(k)).addColumn(F, Q, value.clone()));
        }
      }
      admin.flush(tn);
      long loaded = System.nanoTime();
      Zipf zipf = new Zipf(rows, 7);
      int found = 0;
      try (Table t = conn.getTable(tn)) {
        for (int i = 0; i < gets; i++) {
          found += t.get(new Get(row(zipf.next()))).isEmpty() ? 0 : 1;
        }
      }
      if (found != gets) {
        throw new IllegalStateException("only " + found + " of " + gets + " gets found a row");
      }
      FileSystem fs = FileSystem.get(URI.create("ulfs:///"), conf);
      System.out.printf("%s load: %d rows x %d B in %.1f s, %d Zipfian gets in %.1f s; %s%n",
        mode, rows, valueBytes, (loaded - t0) / 1e9, gets, (System.nanoTime() - loaded) / 1e9,
        ((UlfsFileSystem) fs).getMount().cacheStats());
    } finally {
      cluster.shutdown();
      cluster.waitUntilShutDown();
      util.shutdownMiniZKCluster();
    }
  }
}
