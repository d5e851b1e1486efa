package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

public class TestRlsmSmoke {
  private static HBaseTestingUtility util;

  @BeforeClass
  public static void setUp() throws Exception {
    util = RlsmTestCluster.create();
    util.startMiniCluster(1);
  }

  @AfterClass
  public static void tearDown() throws Exception {
    util.shutdownMiniCluster();
  }

  @Test
  public void putFlushGetScan() throws Exception {
    TableName tn = TableName.valueOf("smoke");
    byte[] f = Bytes.toBytes("f");
    util.getAdmin().createTable(RlsmTables.table(tn, f).build());
    try (Table t = util.getConnection().getTable(tn)) {
      for (int i = 0; i < 1000; i++) {
        t.put(new Put(Bytes.toBytes(String.format("row%05d", i))).addColumn(f,
          Bytes.toBytes("q"), Bytes.toBytes("v" + i)));
      }
      util.getAdmin().flush(tn);
      List<Path> files = RlsmTestCluster.storeFiles(util, tn, "f");
      assertEquals(1, files.size());
      assertTrue(RlsmTestCluster.isRlsm(util, files.get(0)));
      Result r = t.get(new Get(Bytes.toBytes("row00042")));
      assertArrayEquals(Bytes.toBytes("v42"), r.getValue(f, Bytes.toBytes("q")));
      int n = 0;
      byte[] prev = null;
      try (ResultScanner rs = t.getScanner(new Scan())) {
        for (Result x : rs) {
          if (prev != null) {
            assertTrue(Bytes.compareTo(prev, x.getRow()) < 0);
          }
          prev = x.getRow();
          n++;
        }
      }
      assertEquals(1000, n);
      n = 0;
      try (ResultScanner rs = t.getScanner(new Scan().setReversed(true))) {
        for (Result x : rs) {
          if (n == 0) {
            assertArrayEquals(Bytes.toBytes("row00999"), x.getRow());
          }
          n++;
        }
      }
      assertEquals(1000, n);
    }
  }
}
