package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmFiles;
import org.apache.hadoop.hbase.regionserver.RlsmStoreStats;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.PartitionDescriptor;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * 150,000 writes (inserts, updates and deletes over 45,000 rows; -Drlsm.scale.writes=N writes N
 * over 0.3 N rows) with small split, merge and clean-up sizes and a bound of 6 segments, so that
 * many appends, splits and folds run. After every
 * compaction the manifest's partitions are disjoint and ordered; at checkpoints a full scan
 * equals an oracle (every row its latest value, deleted rows absent), and sampled Gets agree.
 * With the fold spread (on by default) the folds inside appends leave few superseded entries,
 * so clean-ups and merges are rare here (about 33 compactions against 48 with it off);
 * {@code TestRlsmCrashSweep} drives every compaction kind on purpose.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmCompactionAtScale {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmCompactionAtScale.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1);
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("%08x", Integer.reverse(i)));
  }

  private static HStore store(TableName tn) {
    return util.getHBaseCluster().getRegions(tn).get(0).getStore(F);
  }

  /**
   * The partitions of the live manifest chain are ascending and disjoint, and the store holds
   * no other manifest; returns their count.
   */
  private static int checkPartitions(TableName tn) throws IOException {
    List<HStoreFile> manifests = new ArrayList<>();
    for (HStoreFile f : store(tn).getStorefiles()) {
      if (RlsmFiles.role(f) == FileRole.MANIFEST) {
        manifests.add(f);
      }
    }
    List<HStoreFile> chain = RlsmFiles.chain(manifests);
    assertEquals("only the live chain", chain.size(), manifests.size());
    int partitions = 0;
    byte[] prevHigh = null;
    for (PartitionDescriptor p : RlsmFiles.layout(chain).partitions) {
      assertTrue(Bytes.compareTo(p.low(), p.high()) <= 0);
      assertTrue("disjoint and ordered",
        prevHigh == null || Bytes.compareTo(prevHigh, p.low()) < 0);
      prevHigh = p.high();
      partitions++;
    }
    return partitions;
  }

  private static void verifyScan(Table t, TreeMap<String, String> oracle) throws Exception {
    List<String> got = new ArrayList<>();
    try (ResultScanner rs = t.getScanner(new Scan().setCaching(5000))) {
      for (Result r : rs) {
        got.add(Bytes.toString(r.getRow()) + "=" + Bytes.toString(r.getValue(F, Q)));
      }
    }
    List<String> want = new ArrayList<>();
    oracle.forEach((k, v) -> want.add(k + "=" + v));
    assertEquals(want.size(), got.size());
    assertEquals(want, got);
  }

  @Test
  public void manyWritesThroughManyCompactions() throws Exception {
    TableName tn = TableName.valueOf("scale");
    // 150,000 writes by default keep the class within minutes on a loaded two-core machine (the
    // long mode, -Drlsm.scale.writes=500000, took 21 minutes there); split and merge sizes shrink
    // with the data, so that as many compactions, splits and merges run either way.
    int writes = Integer.getInteger("rlsm.scale.writes", 150_000);
    int rows = writes * 3 / 10;
    long splitBytes = 1024L * 1024 * writes / 500_000;
    ColumnFamilyDescriptorBuilder cf = RlsmTables.familyBuilder(F)
      .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(splitBytes))
      .setConfiguration(RlsmCompactionConfig.MERGE_BYTES_KEY, Long.toString(splitBytes / 4))
      .setConfiguration(RlsmCompactionConfig.MAX_SEGMENTS_KEY, "6");
    util.getAdmin().createTable(RlsmTables.configure(TableDescriptorBuilder.newBuilder(tn))
      .setColumnFamily(cf.build()).build());
    int rounds = 40;
    Random rnd = new Random(99);
    // Explicit increasing timestamps: within one batch HBase gives every mutation the same
    // timestamp, and a delete then masks a later put of the same row; the oracle is last-wins.
    long ts = System.currentTimeMillis() - 10L * writes;
    TreeMap<String, String> oracle = new TreeMap<>();
    int compactions = 0;
    try (Table t = util.getConnection().getTable(tn)) {
      for (int round = 0; round < rounds; round++) {
        try (BufferedMutator m = util.getConnection().getBufferedMutator(tn)) {
          for (int w = 0; w < writes / rounds; w++) {
            int i = rnd.nextInt(rows);
            String key = Bytes.toString(row(i));
            Mutation mut;
            ts++;
            if (rnd.nextInt(20) == 0) {
              mut = new Delete(row(i), ts);
              oracle.remove(key);
            } else {
              String v = "r" + round + "w" + w;
              mut = new Put(row(i)).addColumn(F, Q, ts, Bytes.toBytes(v));
              oracle.put(key, v);
            }
            m.mutate(mut.setDurability(Durability.SKIP_WAL));
          }
        }
        util.getAdmin().flush(tn);
        for (int c = 0; c < 20 && store(tn).getStoreEngine().needsCompaction(List.of()); c++) {
          util.compact(tn, false);
          compactions++;
          checkPartitions(tn);
        }
        if (round % 10 == 9) {
          verifyScan(t, oracle);
        }
      }
      util.compact(tn, true);
      checkPartitions(tn);
      verifyScan(t, oracle);
      Random pick = new Random(5);
      for (int s = 0; s < 2000; s++) {
        int i = pick.nextInt(rows);
        String want = oracle.get(Bytes.toString(row(i)));
        Result r = t.get(new Get(row(i)));
        if (want == null) {
          assertTrue(r.isEmpty());
        } else {
          assertArrayEquals(Bytes.toBytes(want), r.getValue(F, Q));
        }
      }
      RlsmStoreStats stats = ((RlsmStoreEngine) store(tn).getStoreEngine()).getStats();
      System.out.println("scale: writes=" + writes + " compactions=" + compactions + " " + stats);
      assertTrue("a compaction at least every other flush: " + stats,
        stats.getCompactions() >= rounds / 2);
      assertTrue("folds ran: " + stats, stats.getFoldedBytes() > 0);
      assertTrue("splits happened", checkPartitions(tn) > 1);
    }
  }
}
