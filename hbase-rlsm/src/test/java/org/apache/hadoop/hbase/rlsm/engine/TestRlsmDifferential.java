package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmTestStores;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.memstore.HashMemStoreConfig;
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
 * Applies one seeded random operation log to an RLSM table and to a default-engine table in the
 * same cluster and demands identical results for every read. Timestamps are explicit (a logical
 * clock in the past) except for increments, whose server-assigned timestamps are the only field
 * not compared. Seed and length: {@code -Drlsm.diff.seed}, {@code -Drlsm.diff.ops}.
 *
 * <p>Compactions run on both tables, majors at the same points of the log. Two HBase behaviours
 * depend on compaction timing rather than on the operations, so the test keeps them out of the
 * comparison: versions beyond maxVersions (which a version delete can uncover until a compaction
 * drops them: families keep 1000 versions, reads ask for fewer) and puts older than a delete
 * marker (masked until a major compaction purges the marker: the default table runs no minor
 * compactions that could become major, and RLSM rewrites keep markers,
 * {@code hbase.rlsm.compaction.rewrite.drop.deletes=false}).
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmDifferential {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmDifferential.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] CNT = Bytes.toBytes("cnt");
  private static final int ROWS = 400;
  private static final int QUALIFIERS = 6;
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER =
    new RlsmMiniClusterRule(1, RlsmTestCluster::completeRlsmDescriptors);
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("r%04d", i));
  }

  private static byte[] qual(int i) {
    return Bytes.toBytes("q" + i);
  }

  private static TableName createTable(String name, boolean rlsm) throws Exception {
    TableName tn = TableName.valueOf(name);
    ColumnFamilyDescriptorBuilder cf =
      ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(1000);
    TableDescriptorBuilder tb = TableDescriptorBuilder.newBuilder(tn);
    if (rlsm) {
      // Only the engine key, as an operator would: the master completes the rest
      // (RlsmMasterObserver); the other keys make compactions frequent on little data.
      cf.setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY, RlsmConfig.ENGINE_CLASS_NAME)
        .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(96 * 1024))
        .setConfiguration(RlsmCompactionConfig.MAX_SEGMENTS_KEY, "4")
        .setConfiguration(RlsmCompactionConfig.REWRITE_DROP_DELETES_KEY, "false");
    } else {
      cf.setConfiguration("hbase.hstore.compactionThreshold", "1000")
        .setConfiguration(HConstants.MAJOR_COMPACTION_PERIOD, "0");
    }
    util.getAdmin().createTable(tb.setColumnFamily(cf.build()).build());
    if (rlsm) {
      assertEquals(RlsmTables.complete(util.getAdmin().getDescriptor(tn)),
        util.getAdmin().getDescriptor(tn));
      assertEquals(HashMemStoreConfig.MEMSTORE_CLASS_NAME, RlsmTestStores.memStoreClass(
        util.getHBaseCluster().getRegions(tn).get(0).getStore(F)).getName());
    }
    return tn;
  }

  /** Runs RLSM compactions until its planner has no work; returns how many ran. */
  private static int settle(TableName tn) throws Exception {
    int n = 0;
    HStore store = util.getHBaseCluster().getRegions(tn).get(0).getStore(F);
    while (n < 20 && store.getStoreEngine().needsCompaction(List.of())) {
      util.compact(tn, false);
      n++;
    }
    return n;
  }

  /** A cell as compared: everything but the timestamp of increment cells. */
  private static String describe(Cell c) {
    boolean counter = CellUtil.matchingQualifier(c, CNT);
    return Bytes.toStringBinary(CellUtil.cloneRow(c)) + "/"
      + Bytes.toString(CellUtil.cloneFamily(c)) + ":" + Bytes.toString(CellUtil.cloneQualifier(c)) + "/"
      + (counter ? "-" : Long.toString(c.getTimestamp())) + "/" + c.getType() + "="
      + (counter ? Long.toString(Bytes.toLong(CellUtil.cloneValue(c)))
        : Bytes.toStringBinary(CellUtil.cloneValue(c)));
  }

  private static List<String> describe(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      out.add(describe(c));
    }
    return out;
  }

  private static List<String> scanAll(Table t, Scan s) throws Exception {
    List<String> out = new ArrayList<>();
    try (ResultScanner rs = t.getScanner(s)) {
      for (Result r : rs) {
        out.addAll(describe(r));
        out.add("|");
      }
    }
    return out;
  }

  private static final class Tables {
    final Table rlsm;
    final Table dflt;
    long reads;
    long cellsCompared;

    Tables(Table rlsm, Table dflt) {
      this.rlsm = rlsm;
      this.dflt = dflt;
    }

    void get(int op, Get g) throws Exception {
      List<String> want = describe(dflt.get(g));
      List<String> got = describe(rlsm.get(g));
      if (!want.equals(got)) {
        // Raw views (delete markers and every version) tell a resurrection from a lost cell.
        Scan raw = new Scan().withStartRow(g.getRow()).withStopRow(g.getRow(), true).setRaw(true)
          .readAllVersions();
        fail("op " + op + ": get " + g + "\n default: " + want + "\n rlsm:    " + got
          + "\n default raw: " + scanAll(dflt, raw) + "\n rlsm raw:    " + scanAll(rlsm, raw)
          + "\n rlsm files: " + util.getHBaseCluster().getRegions(rlsm.getName()).get(0)
            .getStore(F).getStorefiles());
      }
      check(op, "get " + g, want, got);
    }

    void scan(int op, Scan s) throws Exception {
      check(op, "scan " + s, scanAll(dflt, s), scanAll(rlsm, s));
    }

    void check(int op, String what, List<String> want, List<String> got) {
      reads++;
      cellsCompared += want.size();
      if (!want.equals(got)) {
        fail("op " + op + ": " + what + "\n default: " + want + "\n rlsm:    " + got);
      }
    }
  }

  @Test
  public void randomOperationLogMatchesDefaultEngine() throws Exception {
    long seed = Long.getLong("rlsm.diff.seed", 20261123L);
    int ops = Integer.getInteger("rlsm.diff.ops", 20_000);
    Random rnd = new Random(seed);
    TableName rt = createTable("diff_rlsm", true);
    TableName dt = createTable("diff_default", false);
    Admin admin = util.getAdmin();
    long base = System.currentTimeMillis() - 10L * ops - 1_000_000L;
    try (Table r = util.getConnection().getTable(rt); Table d = util.getConnection().getTable(dt)) {
      Tables both = new Tables(r, d);
      int flushes = 0;
      int compactions = 0;
      int majors = 0;
      for (int op = 0; op < ops; op++) {
        long ts = base + 10L * op;
        byte[] row = row(rnd.nextInt(ROWS));
        int kind = rnd.nextInt(100);
        if (kind < 40) {
          Put p = new Put(row);
          int n = 1 + rnd.nextInt(4);
          for (int i = 0; i < n; i++) {
            // Mostly increasing timestamps, sometimes an older version arrives late.
            long cellTs = rnd.nextInt(8) == 0 ? ts - 10L * rnd.nextInt(500) : ts;
            p.addColumn(F, qual(rnd.nextInt(QUALIFIERS)), cellTs,
              Bytes.toBytes("v" + op + "-" + rnd.nextInt(1000)));
          }
          r.put(p);
          d.put(p);
        } else if (kind < 50) {
          Delete del = new Delete(row);
          byte[] q = qual(rnd.nextInt(QUALIFIERS));
          switch (rnd.nextInt(6)) {
            case 0:
              del = new Delete(row, ts);
              break;
            case 1:
              del.addFamily(F, ts);
              break;
            case 2:
              del.addColumn(F, q);
              break;
            case 3:
              del.addColumns(F, q);
              break;
            case 4:
              del.addColumn(F, q, base + 10L * rnd.nextInt(op + 1));
              break;
            default:
              del.addFamilyVersion(F, base + 10L * rnd.nextInt(op + 1));
              break;
          }
          r.delete(del);
          d.delete(del);
        } else if (kind < 56) {
          long delta = rnd.nextInt(100) - 20;
          long a = Bytes.toLong(r.increment(new Increment(row).addColumn(F, CNT, delta))
            .getValue(F, CNT));
          long b = Bytes.toLong(d.increment(new Increment(row).addColumn(F, CNT, delta))
            .getValue(F, CNT));
          assertEquals("increment at op " + op, b, a);
        } else if (kind < 80) {
          Get g = new Get(row);
          switch (rnd.nextInt(5)) {
            case 0:
              g.readAllVersions();
              break;
            case 1:
              g.addColumn(F, qual(rnd.nextInt(QUALIFIERS)));
              break;
            case 2:
              long lo = base + 10L * rnd.nextInt(op + 1);
              g.setTimeRange(lo, lo + 10L * (1 + rnd.nextInt(2000))).readVersions(2);
              break;
            case 3:
              g.addFamily(F).readVersions(2);
              break;
            default:
              break;
          }
          both.get(op, g);
        } else if (kind < 88) {
          int a = rnd.nextInt(ROWS);
          int b = Math.min(ROWS, a + 1 + rnd.nextInt(40));
          Scan s = new Scan();
          if (rnd.nextBoolean()) {
            s.withStartRow(row(b - 1)).withStopRow(row(a), rnd.nextBoolean()).setReversed(true);
          } else {
            s.withStartRow(row(a)).withStopRow(row(b), rnd.nextBoolean());
          }
          switch (rnd.nextInt(4)) {
            case 0:
              s.readAllVersions();
              break;
            case 1:
              s.setFilter(new ColumnPrefixFilter(Bytes.toBytes("q" + rnd.nextInt(QUALIFIERS))));
              break;
            case 2:
              s.setFilter(new PrefixFilter(Bytes.toBytes(String.format("r%03d", a / 10))));
              break;
            default:
              s.setLimit(1 + rnd.nextInt(10));
              break;
          }
          both.scan(op, s);
        } else {
          Put p = new Put(row).addColumn(F, qual(rnd.nextInt(QUALIFIERS)), ts,
            Bytes.toBytes("w" + op));
          r.put(p);
          d.put(p);
        }
        if (op > 0 && op % 500 == 0) {
          admin.flush(rt);
          admin.flush(dt);
          flushes++;
          compactions += settle(rt);
        }
        if (op == ops / 3 || op == 2 * ops / 3) {
          util.compact(rt, true); // synchronous
          HStore dstore = util.getHBaseCluster().getRegions(dt).get(0).getStore(F);
          admin.majorCompact(dt); // a user request: major however many files there are
          util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> dstore.getStorefilesCount() <= 1
            && admin.getCompactionState(dt) == CompactionState.NONE);
          majors++;
        }
        if (op == ops / 2) {
          for (TableName tn : new TableName[] { rt, dt }) {
            admin.disableTable(tn);
            admin.enableTable(tn);
          }
        }
      }
      both.scan(ops, new Scan());
      both.scan(ops, new Scan().readAllVersions());
      both.scan(ops, new Scan().setReversed(true).readAllVersions());
      admin.flush(rt);
      admin.flush(dt);
      both.scan(ops, new Scan().readAllVersions());
      System.out.printf("differential: seed=%d ops=%d flushes=%d rlsm compactions=%d majors=%d "
        + "reads=%d cells=%d%n", seed, ops, flushes, compactions, majors, both.reads,
        both.cellsCompared);
      assertTrue("RLSM compacted during the log", compactions > flushes / 3);
    }
  }
}
