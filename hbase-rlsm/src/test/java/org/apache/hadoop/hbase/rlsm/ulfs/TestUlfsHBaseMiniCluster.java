package org.apache.hadoop.hbase.rlsm.ulfs;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.value;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * HBase on ulfs: a mini cluster (no HDFS) whose {@code hbase.rootdir} is {@code ulfs:///hbase},
 * so the master region, WALs and store files all live on the ulfs image. A default-engine table
 * takes puts, is flushed, takes more puts (memstore and WAL only); then its region server is
 * aborted and every row must read back on a new one (the unflushed ones by WAL splitting and
 * replay from ulfs); then the whole HBase cluster is restarted and every row must read back from
 * the store files on ulfs. An RLSM table (the engine of this module) is flushed several times and
 * reopened.
 */
public class TestUlfsHBaseMiniCluster {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int ROWS = 2000;
  private static HBaseTestingUtility util;
  private static Configuration conf;

  @BeforeClass
  public static void setUp() throws Exception {
    util = new HBaseTestingUtility();
    conf = util.getConfiguration();
    RlsmTestCluster.keepAbortsInProcess(conf);
    Configuration ulfs = UlfsContract.ulfsConf(new Configuration(false));
    ulfs.forEach(e -> conf.set(e.getKey(), e.getValue()));
    conf.set(HConstants.HBASE_DIR, "ulfs:///hbase");
    conf.set(FileSystem.FS_DEFAULT_NAME_KEY, "ulfs:///");
    conf.setBoolean("hbase.table.sanity.checks", false);
    // no web UIs: MiniHBaseCluster is built directly, without HBaseTestingUtility's port setup
    conf.setInt(HConstants.MASTER_INFO_PORT, -1);
    conf.setInt(HConstants.REGIONSERVER_INFO_PORT, -1);
    conf.setInt("hbase.client.retries.number", 30); // covers the region server recovery
    conf.setLong("hbase.client.pause", 200);
    util.startMiniZKCluster();
    FileSystem fs = FileSystem.get(URI.create("ulfs:///"), conf);
    fs.delete(new Path("/hbase"), true); // leftovers of an earlier run on the same image
  }

  @AfterClass
  public static void tearDown() throws Exception {
    util.shutdownMiniZKCluster();
  }

  private static MiniHBaseCluster startHBase() throws Exception {
    MiniHBaseCluster cluster = new MiniHBaseCluster(conf, 1, 1);
    cluster.waitForActiveAndReadyMaster(RlsmTestCluster.HANG_GUARD_MS);
    return cluster;
  }

  private static void stopHBase(MiniHBaseCluster cluster) throws Exception {
    cluster.shutdown();
    cluster.waitUntilShutDown();
  }

  /** Scans the table, checking every row's value; returns the number of rows. */
  private static int countVerified(Table t) throws Exception {
    int n = 0;
    try (ResultScanner rs = t.getScanner(new Scan())) {
      for (Result r : rs) {
        assertArrayEquals(row(n), r.getRow());
        assertArrayEquals(value(n), r.getValue(F, Q));
        n++;
      }
    }
    return n;
  }

  @Test
  public void testDefaultEngineTableSurvivesRestart() throws Exception {
    TableName tn = TableName.valueOf("ulfs_default");
    MiniHBaseCluster cluster = startHBase();
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(tn)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
      try (Table t = conn.getTable(tn)) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < ROWS / 2; i++) {
          puts.add(new Put(row(i)).addColumn(F, Q, value(i)));
        }
        t.put(puts);
        admin.flush(tn);
        puts.clear();
        for (int i = ROWS / 2; i < ROWS; i++) { // stay in the memstore and the WAL
          puts.add(new Put(row(i)).addColumn(F, Q, value(i)));
        }
        t.put(puts);
        assertArrayEquals(value(7), t.get(new Get(row(7))).getValue(F, Q));
        assertArrayEquals(value(ROWS - 1), t.get(new Get(row(ROWS - 1))).getValue(F, Q));
      }
      // Abort the region server: its memstore is lost, so the unflushed half must come back by
      // splitting and replaying its WAL from ulfs on a new region server.
      cluster.abortRegionServer(0);
      cluster.waitOnRegionServer(0);
      cluster.startRegionServer();
      try (Table t = conn.getTable(tn)) {
        assertEquals(ROWS, countVerified(t));
      }
    } finally {
      stopHBase(cluster);
    }

    // the flushed rows are in store files on the ulfs image
    assertTrue("no store file on ulfs", storeFiles("ulfs_default") >= 1);

    cluster = startHBase();
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Table t = conn.getTable(tn)) {
      assertEquals(ROWS, countVerified(t));
    } finally {
      stopHBase(cluster);
    }
  }

  /** Store files (non-empty regular files) under the family directories "f" of a table. */
  private static int storeFiles(String table) throws Exception {
    FileSystem fs = FileSystem.get(URI.create("ulfs:///"), conf);
    int n = 0;
    RemoteIterator<LocatedFileStatus> it =
      fs.listFiles(new Path("/hbase/data/default/" + table), true);
    while (it.hasNext()) {
      FileStatus st = it.next();
      if (st.getPath().getParent().getName().equals("f") && st.getLen() > 0) {
        n++;
      }
    }
    return n;
  }

  @Test
  public void testRlsmTableFlushesAndReopens() throws Exception {
    TableName tn = TableName.valueOf("ulfs_rlsm");
    MiniHBaseCluster cluster = startHBase();
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      admin.createTable(RlsmTables.table(tn, F).build());
      try (Table t = conn.getTable(tn)) {
        for (int batch = 0; batch < 4; batch++) { // several flushes: several RLSM files
          List<Put> puts = new ArrayList<>();
          for (int i = batch; i < ROWS; i += 4) {
            puts.add(new Put(row(i)).addColumn(F, Q, value(i)));
          }
          t.put(puts);
          admin.flush(tn);
        }
        assertEquals(ROWS, countVerified(t));
      }
    } finally {
      stopHBase(cluster);
    }
    assertTrue("no RLSM file on ulfs", storeFiles("ulfs_rlsm") >= 1);
    cluster = startHBase();
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Table t = conn.getTable(tn)) {
      assertEquals(ROWS, countVerified(t));
      for (int i = 0; i < ROWS; i += 97) {
        assertArrayEquals(value(i), t.get(new Get(row(i))).getValue(F, Q));
      }
    } finally {
      stopHBase(cluster);
    }
  }
}
