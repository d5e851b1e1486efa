package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The steps the split and merge tests share on a twin pair with one family {@link #F} (RLSM side
 * with small partitions, so that Level-1 has several): the same writes to both tables, the
 * comparisons, waiting for regions, rewriting references.
 */
final class TwinSplits {
  static final byte[] F = Bytes.toBytes("f");
  static final byte[] Q = Bytes.toBytes("q");
  static final byte[] Q2 = Bytes.toBytes("q2");

  /** Timestamps of the writes: the same cell in both tables, whenever each table gets it. */
  private static long clock = 1_000_000;

  private TwinSplits() {
  }

  /** Twins keeping 3 versions, pre-split at {@code splits} (none: one region each). */
  static RlsmTwinTables twins(HBaseTestingUtility util, String name, byte[]... splits)
    throws IOException {
    return RlsmTwinTables.createPreSplit(util, name, b -> b.setMaxVersions(3)
      .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(16 * 1024)), splits,
      F);
  }

  /** Runs the compactions the RLSM store asks for (partition splits among them). */
  static void settle(HRegion r) throws IOException {
    for (int i = 0; i < 20 && r.getStore(F).needsCompaction(); i++) {
      r.compact(false);
    }
  }

  /** Puts rows {@code [from, to)} (two columns, value tagged) and deletes every 11th row's q2. */
  static void write(RlsmTwinTables tw, int from, int to, String tag) throws IOException {
    long ts = ++clock;
    for (TableName tn : new TableName[] { tw.rlsm, tw.dflt }) {
      try (Table t = tw.util().getConnection().getTable(tn)) {
        List<Put> puts = new ArrayList<>();
        for (int i = from; i < to; i++) {
          puts.add(new Put(row(i), ts).addColumn(F, Q, Bytes.toBytes(tag + i))
            .addColumn(F, Q2, Bytes.toBytes(tag)));
        }
        t.put(puts);
        for (int i = from; i < to; i += 11) {
          t.delete(new Delete(row(i)).addColumns(F, Q2, ts));
        }
      }
    }
  }

  /**
   * Puts rows {@code [from, to)} with random values of {@code bytes} each, the same in both tables
   * (seeded by {@code from}): megabytes of store files from few rows.
   */
  static void writeRandom(RlsmTwinTables tw, int from, int to, int bytes) throws IOException {
    Random random = new Random(from);
    long ts = ++clock;
    List<Put> puts = new ArrayList<>();
    for (int i = from; i < to; i++) {
      byte[] value = new byte[bytes];
      random.nextBytes(value);
      puts.add(new Put(row(i), ts).addColumn(F, Q, value));
    }
    for (TableName tn : new TableName[] { tw.rlsm, tw.dflt }) {
      try (Table t = tw.util().getConnection().getTable(tn)) {
        t.put(puts);
      }
    }
  }

  static void flush(RlsmTwinTables tw) throws IOException {
    tw.util().flush(tw.rlsm);
    tw.util().flush(tw.dflt);
  }

  static void majorCompact(RlsmTwinTables tw) throws Exception {
    tw.majorCompactWhole();
  }

  /**
   * Every version, forwards, ranged and reversed (also over regions still holding references),
   * and with {@code raw} every raw cell, alike.
   */
  static void assertSame(RlsmTwinTables tw, boolean raw) throws IOException {
    tw.assertSameScan(new Scan().readAllVersions());
    tw.assertSameScan(new Scan().withStartRow(row(100)).withStopRow(row(700)).readAllVersions());
    tw.assertSameScan(new Scan().setReversed(true).readAllVersions());
    if (raw) {
      tw.assertSameScan(new Scan().setRaw(true).readAllVersions());
    }
  }

  static List<HRegion> regions(HBaseTestingUtility util, TableName tn) {
    return util.getHBaseCluster().getRegions(tn);
  }

  /** Waits until {@code tn} has {@code n} open regions, in hbase:meta, none in transition. */
  static void waitForRegions(HBaseTestingUtility util, TableName tn, int n) throws Exception {
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> regions(util, tn).size() == n
      && util.getAdmin().getRegions(tn).size() == n);
    util.waitUntilNoRegionsInTransition(RlsmTestCluster.HANG_GUARD_MS);
  }

  static boolean hasReferences(HBaseTestingUtility util, TableName tn) {
    return regions(util, tn).stream().anyMatch(HRegion::hasReferences);
  }

  /**
   * Rewrites references (synchronous compactions) and archives what they replaced. A region
   * opened with references queues a compaction of its own at once; while that one holds the
   * store's files a requested compaction selects nothing, so this repeats until no region holds
   * references (bounded only by the hang guard).
   */
  static void rewriteReferences(RlsmTwinTables tw) throws Exception {
    HBaseTestingUtility util = tw.util();
    for (TableName tn : new TableName[] { tw.rlsm, tw.dflt }) {
      util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> {
        util.compact(tn, true);
        for (HRegion r : regions(util, tn)) {
          for (HStore s : r.getStores()) {
            s.closeAndArchiveCompactedFiles();
          }
        }
        return !hasReferences(util, tn);
      });
    }
    // the loop ends once the references are gone, which a system compaction that keeps delete
    // markers may have done on one table while the other's ran as a major compaction
    tw.majorCompactWhole();
  }
}
