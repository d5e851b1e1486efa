package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Query;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreStats;
import org.apache.hadoop.hbase.regionserver.RlsmTestStores;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.rlsm.memstore.HashMemStoreConfig;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.visibility.Authorizations;
import org.apache.hadoop.hbase.security.visibility.CellVisibility;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Applies one seeded random operation log to an RLSM table and to a default-engine table in the
 * same cluster and demands identical results for every read. Timestamps are explicit (a logical
 * clock in the past) except for increments, whose server-assigned timestamps are the only field
 * not compared. Seed and length: {@code -Drlsm.diff.seed}, {@code -Drlsm.diff.ops}. After each
 * major compaction of both tables, raw scans (delete markers, every version) are compared too.
 *
 * <p>Compactions run on both tables, majors at the same points of the log. Two HBase behaviours
 * depend on compaction timing rather than on the operations, so the test keeps them out of the
 * comparison: versions beyond maxVersions (which a version delete can uncover until a compaction
 * drops them: families keep 1000 versions, reads ask for fewer) and puts older than a delete
 * marker (masked until a major compaction purges the marker: the default table runs no minor
 * compactions that could become major, and RLSM rewrites keep markers,
 * {@code hbase.rlsm.compaction.rewrite.drop.deletes=false}).
 */
final class DifferentialRun {
  /** Labels a tagged run puts on cells, and the expressions it writes. */
  static final String SECRET = "secret";
  static final String PUBLIC = "public";
  private static final String[] EXPRESSIONS =
    { SECRET, PUBLIC, SECRET + "|" + PUBLIC, SECRET + "&" + PUBLIC };
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] CNT = Bytes.toBytes("cnt");
  /**
   * {@code -Drlsm.diff.long=true}: the long mode, on {@value #LONG_ROWS} rows with small
   * partitions, so that the RLSM table grows past {@value #LONG_MIN_PARTITIONS} partitions through
   * many splits and clean-ups (150,000 operations unless {@code -Drlsm.diff.ops} says otherwise;
   * the run checks the partition count it reached and that both kinds ran).
   */
  static final boolean LONG = Boolean.getBoolean("rlsm.diff.long");
  private static final int LONG_ROWS = 10_000;
  private static final int LONG_MIN_PARTITIONS = 50;
  private static final int ROWS = LONG ? LONG_ROWS : 400;
  /** Digits of a row number: row keys sort in number order. */
  private static final int DIGITS = LONG ? 5 : 4;
  private static final long SPLIT_BYTES = (LONG ? 64 : 96) * 1024;
  private static final int QUALIFIERS = 6;
  private final HBaseTestingUtility util;
  private final String name;
  private final UnaryOperator<ColumnFamilyDescriptorBuilder> settings;
  private final boolean tags;
  /** The most partitions the RLSM table had after a settled flush. */
  private int maxPartitions;
  /** The last timestamp of the log's logical clock; later ones were assigned by the server. */
  private long logicalClockEnd = Long.MAX_VALUE;

  /**
   * {@code settings} applies the same family settings to both tables; {@code tags} adds cell ACLs
   * and visibility expressions to puts and {@code Authorizations} to reads (the cluster must run
   * the AccessController and VisibilityController, with labels {@link #SECRET} and
   * {@link #PUBLIC} and both granted to the current user). The cluster's master runs
   * {@code RlsmMasterObserver}, which completes the RLSM table's descriptor from its engine key.
   */
  DifferentialRun(HBaseTestingUtility util, String name,
    UnaryOperator<ColumnFamilyDescriptorBuilder> settings, boolean tags) {
    this.util = util;
    this.name = name;
    this.settings = settings;
    this.tags = tags;
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("r%0" + DIGITS + "d", i));
  }

  private static byte[] qual(int i) {
    return Bytes.toBytes("q" + i);
  }

  private TableName createTable(String name, boolean rlsm) throws Exception {
    TableName tn = TableName.valueOf(name);
    ColumnFamilyDescriptorBuilder cf =
      settings.apply(ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(1000));
    TableDescriptorBuilder tb = TableDescriptorBuilder.newBuilder(tn);
    if (rlsm) {
      // Only the engine key, as an operator would: the master completes the rest
      // (RlsmMasterObserver); the other keys make compactions frequent on little data.
      cf.setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY, RlsmConfig.ENGINE_CLASS_NAME)
        .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(SPLIT_BYTES))
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
  private int settle(TableName tn) throws Exception {
    int n = 0;
    HStore store = util.getHBaseCluster().getRegions(tn).get(0).getStore(F);
    while (n < 20 && store.getStoreEngine().needsCompaction(List.of())) {
      util.compact(tn, false);
      n++;
    }
    maxPartitions = Math.max(maxPartitions, stats(tn).getPartitions());
    return n;
  }

  private RlsmStoreStats stats(TableName tn) {
    return ((RlsmStoreEngine) util.getHBaseCluster().getRegions(tn).get(0).getStore(F)
      .getStoreEngine()).getStats();
  }

  /**
   * A cell as compared: everything but server-assigned timestamps, which differ between the two
   * tables: those of increment cells, and those of delete markers the server stamped with its
   * clock (a column delete without a timestamp that found no version), which are after the log's
   * logical clock.
   */
  private String describe(Cell c) {
    boolean counter = CellUtil.matchingQualifier(c, CNT);
    boolean serverTime = counter || c.getTimestamp() > logicalClockEnd;
    return Bytes.toStringBinary(CellUtil.cloneRow(c)) + "/"
      + Bytes.toString(CellUtil.cloneFamily(c)) + ":" + Bytes.toString(CellUtil.cloneQualifier(c)) + "/"
      + (serverTime ? "-" : Long.toString(c.getTimestamp())) + "/" + c.getType() + "="
      + (counter ? Long.toString(Bytes.toLong(CellUtil.cloneValue(c)))
        : Bytes.toStringBinary(CellUtil.cloneValue(c)));
  }

  private List<String> describe(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      out.add(describe(c));
    }
    return out;
  }

  private List<String> scanAll(Table t, Scan s) throws Exception {
    List<String> out = new ArrayList<>();
    try (ResultScanner rs = t.getScanner(s)) {
      for (Result r : rs) {
        out.addAll(describe(r));
        out.add("|");
      }
    }
    return out;
  }

  private final class Tables {
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
        int i = 0;
        while (i < Math.min(want.size(), got.size()) && want.get(i).equals(got.get(i))) {
          i++;
        }
        // The cells around the first difference; whole results of large scans drown it.
        int from = Math.max(0, i - 5);
        fail("op " + op + ": " + what + "\n first difference at cell " + i + " of " + want.size()
          + " (default) / " + got.size() + " (rlsm)\n default: "
          + want.subList(from, Math.min(want.size(), i + 6)) + "\n rlsm:    "
          + got.subList(from, Math.min(got.size(), i + 6)));
      }
    }
  }

  /** Puts a random visibility expression and cell ACL on {@code p} in a tagged run. */
  private <T extends Mutation> T tag(T p, Random rnd) {
    if (tags && rnd.nextInt(3) > 0) {
      p.setCellVisibility(new CellVisibility(EXPRESSIONS[rnd.nextInt(EXPRESSIONS.length)]));
    }
    if (tags && rnd.nextInt(4) == 0) {
      p.setACL("alice", new Permission(Permission.Action.READ));
    }
    return p;
  }

  /** Random {@code Authorizations} on a read of a tagged run (none: the user's own labels). */
  private <T extends Query> T authorize(T q, Random rnd) {
    if (tags) {
      switch (rnd.nextInt(4)) {
        case 0:
          q.setAuthorizations(new Authorizations(SECRET));
          break;
        case 1:
          q.setAuthorizations(new Authorizations(PUBLIC));
          break;
        case 2:
          q.setAuthorizations(new Authorizations(SECRET, PUBLIC));
          break;
        default:
          break;
      }
    }
    return q;
  }

  /** Major compactions of both tables, waited for. */
  private void majorCompact(TableName rt, TableName dt) throws Exception {
    util.compact(rt, true); // synchronous
    Admin admin = util.getAdmin();
    HStore dstore = util.getHBaseCluster().getRegions(dt).get(0).getStore(F);
    // A user request: major however many files there are (a region's own compact(true) selects
    // at most hbase.hstore.compaction.max files, and then only a minor compaction).
    admin.majorCompact(dt);
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> dstore.getStorefilesCount() <= 1
      && admin.getCompactionState(dt) == CompactionState.NONE);
  }

  /** Raw scans (delete markers and every version) of the whole table, once per label set. */
  private void rawScans(Tables both, int op) throws Exception {
    both.scan(op, new Scan().setRaw(true).readAllVersions());
    if (tags) {
      both.scan(op, new Scan().setRaw(true).readAllVersions()
        .setAuthorizations(new Authorizations(PUBLIC)));
    }
  }

  /**
   * Runs the log: {@code -Drlsm.diff.seed} and {@code -Drlsm.diff.ops} override the seed and
   * length given.
   */
  void run(long defaultSeed, int defaultOps) throws Exception {
    long seed = Long.getLong("rlsm.diff.seed", defaultSeed);
    int ops = Integer.getInteger("rlsm.diff.ops", LONG ? 150_000 : defaultOps);
    Random rnd = new Random(seed);
    TableName rt = createTable(name + "_rlsm", true);
    TableName dt = createTable(name + "_default", false);
    Admin admin = util.getAdmin();
    long base = System.currentTimeMillis() - 10L * ops - 1_000_000L;
    logicalClockEnd = base + 10L * ops;
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
          tag(p, rnd);
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
          both.get(op, authorize(g, rnd));
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
              s.setFilter(new PrefixFilter(
                Bytes.toBytes(String.format("r%0" + (DIGITS - 1) + "d", a / 10))));
              break;
            default:
              s.setLimit(1 + rnd.nextInt(10));
              break;
          }
          both.scan(op, authorize(s, rnd));
        } else {
          Put p = tag(new Put(row).addColumn(F, qual(rnd.nextInt(QUALIFIERS)), ts,
            Bytes.toBytes("w" + op)), rnd);
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
          majorCompact(rt, dt);
          majors++;
          // After a major compaction of both, the stored cells themselves must agree.
          rawScans(both, op);
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
      majorCompact(rt, dt);
      rawScans(both, ops);
      RlsmStoreStats st = stats(rt);
      System.out.printf("differential " + name + ": seed=%d ops=%d flushes=%d rlsm compactions=%d majors=%d "
        + "reads=%d cells=%d partitions=%d (at most %d) clean-up bytes=%d merge bytes=%d%n", seed,
        ops, flushes, compactions, majors, both.reads, both.cellsCompared, st.getPartitions(),
        maxPartitions, st.getCleanupBytes(), st.getMergeBytes());
      assertTrue("RLSM compacted during the log", compactions > flushes / 3);
      if (LONG) {
        assertTrue("long mode: at least " + LONG_MIN_PARTITIONS + " partitions, had "
          + maxPartitions, maxPartitions >= LONG_MIN_PARTITIONS);
        assertTrue("long mode: clean-ups ran", st.getCleanupBytes() > 0);
      }
    }
  }
}
