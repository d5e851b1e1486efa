package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * A RegionServer dies with edits that were acknowledged but not flushed: HBase splits its WAL,
 * the region reopens elsewhere from its RLSM files, replays exactly the edits newer than the
 * files' max sequence id and flushes them into a new RLSM file.
 */
public class TestRlsmRecovery {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  @ClassRule
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(2);
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row%05d", i));
  }

  @Test
  public void abortWithUnflushedEditsRecoversEverything() throws Exception {
    TableName tn = TableName.valueOf("recovery");
    util.getAdmin().createTable(RlsmTables.table(tn, F).build());
    util.waitTableAvailable(tn.getName(), RlsmTestCluster.HANG_GUARD_MS);
    try (Table t = util.getConnection().getTable(tn)) {
      for (int i = 0; i < 500; i++) {
        t.put(new Put(row(i)).addColumn(F, Q, Bytes.toBytes("a" + i)));
      }
      util.getAdmin().flush(tn);
      for (int i = 250; i < 1000; i++) {
        t.put(new Put(row(i)).addColumn(F, Q, Bytes.toBytes("b" + i)));
      }
      MiniHBaseCluster cluster = util.getHBaseCluster();
      HRegion region = cluster.getRegions(tn).get(0);
      long flushedSeqId = region.getStore(F).getMaxSequenceId().getAsLong();
      int rsIndex = cluster.getServerWith(region.getRegionInfo().getRegionName());
      HRegionServer victim = cluster.getRegionServer(rsIndex);
      cluster.abortRegionServer(rsIndex);
      cluster.waitOnRegionServer(rsIndex);
      util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> {
        List<HRegion> rs = cluster.getRegions(tn);
        return !rs.isEmpty() && rs.get(0).isAvailable()
          && !cluster.getServerHoldingRegion(tn, rs.get(0).getRegionInfo().getRegionName())
            .equals(victim.getServerName());
      });
      util.waitTableAvailable(tn.getName(), RlsmTestCluster.HANG_GUARD_MS);
      HRegion reopened = cluster.getRegions(tn).get(0);
      assertTrue("replayed edits were flushed past the old file",
        reopened.getStore(F).getMaxSequenceId().getAsLong() > flushedSeqId);
      for (Path p : RlsmTestCluster.storeFiles(util, tn, "f")) {
        assertTrue(p + " is not an RLSM file", RlsmTestCluster.isRlsm(util, p));
      }
      for (int i = 0; i < 1000; i++) {
        String want = (i < 250 ? "a" : "b") + i;
        assertArrayEquals("row " + i, Bytes.toBytes(want),
          t.get(new Get(row(i))).getValue(F, Q));
      }
      List<byte[]> rows = new ArrayList<>();
      try (ResultScanner rs = t.getScanner(new Scan())) {
        rs.forEach(r -> rows.add(r.getRow()));
      }
      assertEquals(1000, rows.size());
    }
  }
}
