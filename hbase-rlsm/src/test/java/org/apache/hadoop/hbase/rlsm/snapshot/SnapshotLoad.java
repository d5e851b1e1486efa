package org.apache.hadoop.hbase.rlsm.snapshot;

import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTestRows;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The load of the snapshot tests: rounds of puts (two columns, three versions kept) and row and
 * column deletes with explicit timestamps, written identically to an RLSM table and its
 * default-engine twin, flushed each round, the RLSM side compacted until its planner is idle. The
 * family's small index-split size gives the RLSM store a Level-1 of several partitions sharing
 * segments, which every snapshot test needs (a manifest and shared segments behind links).
 */
final class SnapshotLoad {
  static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q1 = Bytes.toBytes("a");
  private static final byte[] Q2 = Bytes.toBytes("b");
  static final int ROWS = 3000;

  /** Family settings of both twins (the RLSM keys are inert on the default engine). */
  static final UnaryOperator<ColumnFamilyDescriptorBuilder> FAMILY = cf -> cf.setMaxVersions(3)
    .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(64 * 1024))
    .setConfiguration(RlsmCompactionConfig.SPLIT_MODE_KEY, "index")
    .setConfiguration(RlsmCompactionConfig.MAX_SEGMENTS_KEY, "8");

  private SnapshotLoad() {
  }

  /**
   * Writes {@code rounds} rounds to both tables; timestamps start at {@code firstTs} so that later
   * loads (pass a larger one) overwrite earlier ones. Returns the next unused timestamp.
   */
  static long load(HBaseTestingUtility util, TableName rlsm, TableName dflt, long seed,
    int rounds, long firstTs) throws Exception {
    Random rnd = new Random(seed);
    long ts = firstTs;
    try (Table r = util.getConnection().getTable(rlsm);
      Table d = util.getConnection().getTable(dflt)) {
      for (int round = 0; round < rounds; round++) {
        List<Mutation> ops = new ArrayList<>();
        for (int k = 0; k < ROWS / 3; k++) {
          int i = rnd.nextInt(ROWS);
          ops.add(new Put(RlsmTestRows.row(i)).addColumn(F, Q1, ts, RlsmTestRows.value(i))
            .addColumn(F, Q2, ts, Bytes.toBytes(seed + "-" + round + "-" + k + "x".repeat(
              rnd.nextInt(60)))));
          ts++;
        }
        for (int k = 0; k < 30; k++) {
          int i = rnd.nextInt(ROWS);
          ops.add(k % 2 == 0 ? new Delete(RlsmTestRows.row(i), ts)
            : new Delete(RlsmTestRows.row(i)).addColumns(F, Q2, ts));
          ts++;
        }
        r.batch(ops, new Object[ops.size()]);
        d.batch(ops, new Object[ops.size()]);
        util.getAdmin().flush(rlsm);
        util.getAdmin().flush(dflt);
        RlsmTestCluster.compactUntilSettled(util, rlsm, F);
      }
    }
    return ts;
  }

  /** Twins loaded to a Level-1 and snapshotted, with what the RLSM side held at the snapshot. */
  static final class Snapshotted {
    final RlsmTwinTables twins;
    /** Snapshot names ({@link #snapshotName}). */
    final String rlsmSnapshot;
    final String dfltSnapshot;
    /** The raw scan of the RLSM table when the snapshot was taken. */
    final List<String> raw;
    final int partitions;
    /** The first timestamp a later load may use. */
    final long nextTs;

    private Snapshotted(RlsmTwinTables twins, List<String> raw, int partitions, long nextTs) {
      this.twins = twins;
      this.rlsmSnapshot = snapshotName(twins.rlsm);
      this.dfltSnapshot = snapshotName(twins.dflt);
      this.raw = raw;
      this.partitions = partitions;
      this.nextTs = nextTs;
    }
  }

  /** Loads {@code rounds} rounds into both twins, checks the Level-1, snapshots both. */
  static Snapshotted loadAndSnapshot(HBaseTestingUtility util, RlsmTwinTables t, long seed,
    int rounds) throws Exception {
    long ts = load(util, t.rlsm, t.dflt, seed, rounds, 1);
    assertLevel1(util, t.rlsm);
    int partitions = RlsmStoreProbe.partitions(store(util, t.rlsm));
    util.getAdmin().snapshot(snapshotName(t.rlsm), t.rlsm);
    util.getAdmin().snapshot(snapshotName(t.dflt), t.dflt);
    return new Snapshotted(t, raw(util, t.rlsm), partitions, ts);
  }

  /** The name {@link #loadAndSnapshot} gives the snapshot of {@code tn}. */
  static String snapshotName(TableName tn) {
    return tn.getNameAsString() + "_snap";
  }

  /** The RLSM store of {@code tn}'s only region. */
  static HStore store(HBaseTestingUtility util, TableName tn) {
    return util.getHBaseCluster().getRegions(tn).get(0).getStore(F);
  }

  /** Asserts that {@code tn}'s store has a Level-1 of several partitions and shared segments. */
  static void assertLevel1(HBaseTestingUtility util, TableName tn) {
    HStore s = store(util, tn);
    assertTrue(tn + ": partitions " + RlsmStoreProbe.partitions(s),
      RlsmStoreProbe.partitions(s) > 1);
    assertTrue(tn + ": no shared segment", RlsmStoreProbe.sharedSegments(s) > 0);
  }

  /** A raw scan with every version: cells, delete markers and their timestamps. */
  static List<String> raw(HBaseTestingUtility util, TableName tn) throws IOException {
    return cells(util, tn, new Scan().setRaw(true).readAllVersions());
  }

  /** What a client reads with every kept version. */
  static List<String> user(HBaseTestingUtility util, TableName tn) throws IOException {
    return cells(util, tn, new Scan().readAllVersions());
  }

  private static List<String> cells(HBaseTestingUtility util, TableName tn, Scan scan)
    throws IOException {
    try (Table t = util.getConnection().getTable(tn)) {
      return RlsmTwinTables.cells(t, scan);
    }
  }

  /** Asserts that an RLSM table and a default-engine table read the same with every version. */
  static void assertSameUser(HBaseTestingUtility util, TableName rlsm, TableName dflt)
    throws IOException {
    RlsmTwinTables.assertSameCells(rlsm + " vs " + dflt, user(util, dflt), user(util, rlsm));
  }

  /** Disables and enables {@code tn}: its regions reopen from their files. */
  static void reopen(HBaseTestingUtility util, TableName tn) throws IOException {
    util.getAdmin().disableTable(tn);
    util.getAdmin().enableTable(tn);
  }
}
