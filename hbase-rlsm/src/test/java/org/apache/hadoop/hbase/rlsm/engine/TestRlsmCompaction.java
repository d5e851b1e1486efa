package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreStats;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Range-append compaction end to end: many flushes with small split and merge sizes so that
 * appends, links, splits, clean-ups and merges all happen, then every row reads its latest value
 * and deleted rows stay deleted, across major compaction and reopen.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmCompaction {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmCompaction.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1);
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row%08d", i));
  }

  private static TableName create(String name, String splitMode) throws Exception {
    TableName tn = TableName.valueOf(name);
    ColumnFamilyDescriptorBuilder cf = RlsmTables.familyBuilder(F)
      .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(400 * 1024))
      .setConfiguration(RlsmCompactionConfig.SPLIT_MODE_KEY, splitMode)
      .setConfiguration(RlsmCompactionConfig.MAX_SEGMENTS_KEY, "6");
    util.getAdmin().createTable(RlsmTables.configure(TableDescriptorBuilder.newBuilder(tn))
      .setColumnFamily(cf.build()).build());
    return tn;
  }

  private static HStore store(TableName tn) {
    HRegion r = util.getHBaseCluster().getRegions(tn).get(0);
    return r.getStore(F);
  }

  private static RlsmStoreStats stats(TableName tn) {
    return ((RlsmStoreEngine) store(tn).getStoreEngine()).getStats();
  }

  /** Runs the workload; returns the store's counters as they were before the final reopen. */
  private RlsmStoreStats runWorkload(TableName tn, int rows, int rounds) throws Exception {
    Random rnd = new Random(42);
    String[] latest = new String[rows];
    boolean[] deleted = new boolean[rows];
    try (Table t = util.getConnection().getTable(tn)) {
      for (int round = 0; round < rounds; round++) {
        List<Put> puts = new java.util.ArrayList<>();
        for (int k = 0; k < rows / 4; k++) {
          int i = rnd.nextInt(rows);
          String v = "v" + round + "-" + k + "-" + "x".repeat(rnd.nextInt(80));
          puts.add(new Put(row(i)).addColumn(F, Q, Bytes.toBytes(v)));
          latest[i] = v;
          deleted[i] = false;
        }
        t.put(puts);
        for (int k = 0; k < 20; k++) {
          int i = rnd.nextInt(rows);
          t.delete(new Delete(row(i)));
          latest[i] = null;
          deleted[i] = true;
        }
        util.getAdmin().flush(tn);
        RlsmTestCluster.compactUntilSettled(util, tn, F);
        if (round % 10 == 9) {
          verify(t, latest, deleted);
        }
      }
      util.getAdmin().majorCompact(tn);
      util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> stats(tn).getMajorBytes() > 0
        && util.getAdmin().getCompactionState(tn) == CompactionState.NONE);
      verify(t, latest, deleted);
      RlsmStoreStats before = stats(tn);
      util.getAdmin().disableTable(tn);
      util.getAdmin().enableTable(tn);
      verify(t, latest, deleted);
      return before;
    }
  }

  private static void verify(Table t, String[] latest, boolean[] deleted) throws Exception {
    int live = 0;
    for (int i = 0; i < latest.length; i++) {
      Result r = t.get(new Get(row(i)));
      if (latest[i] == null) {
        assertTrue("row " + i + " must be absent (deleted=" + deleted[i] + ")", r.isEmpty());
      } else {
        live++;
        assertArrayEquals("row " + i, Bytes.toBytes(latest[i]), r.getValue(F, Q));
      }
    }
    int scanned = 0;
    byte[] prev = null;
    try (ResultScanner rs = t.getScanner(new Scan())) {
      for (Result r : rs) {
        if (prev != null) {
          assertTrue(Bytes.compareTo(prev, r.getRow()) < 0);
        }
        prev = r.getRow();
        scanned++;
      }
    }
    assertEquals(live, scanned);
    int reversed = 0;
    try (ResultScanner rs = t.getScanner(new Scan().setReversed(true))) {
      for (Result r : rs) {
        reversed++;
      }
    }
    assertEquals(live, reversed);
  }

  @Test
  public void indexSplitMode() throws Exception {
    TableName tn = create("compact_index", "index");
    RlsmStoreStats s = runWorkload(tn, 4000, Integer.getInteger("rlsm.compaction.rounds", 30));
    System.out.println("index mode: " + s);
    assertTrue(s.getAppendBytes() > 0);
    assertTrue(s.getLinkedFiles() > 0);
    assertEquals("index splits write no data", 0, s.getSplitBytes());
    assertTrue(s.getPartitions() > 1);
  }

  @Test
  public void rewriteSplitMode() throws Exception {
    TableName tn = create("compact_rewrite", "rewrite");
    RlsmStoreStats s = runWorkload(tn, 4000, Integer.getInteger("rlsm.compaction.rounds", 30));
    System.out.println("rewrite mode: " + s);
    assertTrue(s.getSplitBytes() > 0);
    assertTrue(s.getPartitions() > 1);
  }
}
