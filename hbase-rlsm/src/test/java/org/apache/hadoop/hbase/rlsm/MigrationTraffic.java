package org.apache.hadoop.hbase.rlsm;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Traffic for online migration tests (docs/install.md): a table under test and its default-engine
 * twin get the same initial load ({@link #loadRound}: versions and every delete type, explicit
 * timestamps) and then the same stream of writes from a writer thread, while a reader thread
 * compares Gets of settled rows on both. Phases are driven by latches ({@link #awaitPhase}), never
 * by time. Family {@code f}, qualifiers {@code q} and {@code q2}.
 */
public final class MigrationTraffic {
  public static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final byte[] Q2 = Bytes.toBytes("q2");
  /** Rows of the initial load. */
  public static final int ROWS = 200;
  /** Writer operations per phase; the reader must finish a quarter as many rounds. */
  private static final int PHASE_OPS = 40;

  private final TrafficThreads threads;

  private static byte[] writerRow(int n) {
    return Bytes.toBytes(String.format("w%06d", n));
  }

  /**
   * Round {@code k} of the initial load: a new version of every row (a family keeping 3 versions
   * keeps 3 of 4), and deletes of each kind, all with explicit timestamps so that both tables hold
   * the same cells.
   */
  public static void loadRound(Table t, int k) throws IOException {
    List<Put> puts = new ArrayList<>();
    List<Delete> deletes = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      Put p = new Put(row(i)).addColumn(F, Q, 100 + k, Bytes.toBytes("v" + k + "_" + i));
      if (i % 3 == 0) {
        p.addColumn(F, Q2, 100 + k, Bytes.toBytes("w" + k + "_" + i));
      }
      puts.add(p);
      if (k == 1 && i % 17 == 0) {
        deletes.add(new Delete(row(i), 100));
      }
      if (k == 2 && i % 7 == 0) {
        deletes.add(new Delete(row(i)).addColumn(F, Q, 101));
      }
      if (k == 3 && i % 11 == 0) {
        deletes.add(new Delete(row(i)).addColumns(F, Q2, 103));
      }
      if (k == 3 && i % 13 == 0) {
        deletes.add(new Delete(row(i)).addFamily(F, 102));
      }
    }
    t.put(puts);
    t.delete(deletes);
  }

  /** Writer operation {@code n}: a new row with two versions, some with a delete. */
  private static void writerOp(Table t, int n) throws IOException {
    byte[] r = writerRow(n);
    t.put(new Put(r).addColumn(F, Q, 100, Bytes.toBytes("a" + n))
      .addColumn(F, Q, 101, Bytes.toBytes("b" + n)).addColumn(F, Q2, 100, Bytes.toBytes("c" + n)));
    if (n % 5 == 0) {
      t.delete(new Delete(r).addColumn(F, Q, 101));
    }
    if (n % 7 == 0) {
      t.delete(new Delete(r).addColumns(F, Q2, 100));
    }
  }

  /** A writer and a reader against {@code src} and {@code twin}, started by {@link #start}. */
  public MigrationTraffic(HBaseTestingUtility util, TableName src, TableName twin) {
    AtomicInteger finished = new AtomicInteger();
    threads = new TrafficThreads("twin", (stopped, written) -> {
      try (Table s = util.getConnection().getTable(src);
        Table d = util.getConnection().getTable(twin)) {
        for (int n = 0; !stopped.getAsBoolean(); n++) {
          writerOp(s, n);
          writerOp(d, n);
          finished.incrementAndGet();
          written.step();
        }
      }
    }, (stopped, compared) -> {
      // Compares only rows that no one writes any more: the initial rows, and writer rows whose
      // operation has reached both tables. Each round looks at a tenth of the initial rows and
      // the ten newest finished writer rows.
      try (Table s = util.getConnection().getTable(src);
        Table d = util.getConnection().getTable(twin)) {
        for (int round = 0; !stopped.getAsBoolean(); round++) {
          List<byte[]> rows = new ArrayList<>();
          for (int i = round % 10; i < ROWS; i += 10) {
            rows.add(row(i));
          }
          int done = finished.get();
          for (int n = Math.max(0, done - 10); n < done; n++) {
            rows.add(writerRow(n));
          }
          for (byte[] r : rows) {
            Get g = new Get(r).readAllVersions();
            RlsmTwinTables.assertSameCells("get " + Bytes.toStringBinary(r),
              describe(d.get(g).rawCells()), describe(s.get(g).rawCells()));
          }
          compared.step();
        }
      }
    });
  }

  public void start() {
    threads.start();
  }

  /** Waits until both threads made a phase's worth of progress from now. */
  public void awaitPhase() throws InterruptedException {
    threads.await(PHASE_OPS, PHASE_OPS / 4);
  }

  public void stopAndCheck() throws InterruptedException {
    threads.stopAndCheck();
  }

  private static List<String> describe(Cell[] cells) {
    List<String> out = new ArrayList<>();
    for (Cell c : cells) {
      out.add(RlsmTwinTables.describe(c));
    }
    return out;
  }

  /** Asserts that user and raw scans of every version read the same cells from both tables. */
  public static void assertSameContent(HBaseTestingUtility util, String when, TableName src,
    TableName twin) throws IOException {
    try (Table s = util.getConnection().getTable(src);
      Table d = util.getConnection().getTable(twin)) {
      Scan user = new Scan().readAllVersions();
      RlsmTwinTables.assertSameCells(when + ": user scan", RlsmTwinTables.cells(d, user),
        RlsmTwinTables.cells(s, user));
      Scan raw = new Scan().setRaw(true).readAllVersions();
      RlsmTwinTables.assertSameCells(when + ": raw scan", RlsmTwinTables.cells(d, raw),
        RlsmTwinTables.cells(s, raw));
    }
  }

  /** The one region of {@code tn}. */
  public static HRegion region(HBaseTestingUtility util, TableName tn) {
    List<HRegion> regions = util.getHBaseCluster().getRegions(tn);
    assertEquals(1, regions.size());
    return regions.get(0);
  }

  /** Aborts the server holding {@code tn}'s region and waits until it is open elsewhere. */
  public static void abortHolder(HBaseTestingUtility util, TableName tn) throws Exception {
    MiniHBaseCluster cluster = util.getHBaseCluster();
    HRegion region = region(util, tn);
    int rsIndex = cluster.getServerWith(region.getRegionInfo().getRegionName());
    ServerName victim = cluster.getRegionServer(rsIndex).getServerName();
    cluster.abortRegionServer(rsIndex);
    cluster.waitOnRegionServer(rsIndex);
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> {
      List<HRegion> rs = cluster.getRegions(tn);
      return !rs.isEmpty() && rs.get(0).isAvailable()
        && !victim.equals(cluster.getServerHoldingRegion(tn, rs.get(0).getRegionInfo()
          .getRegionName()));
    });
    util.waitTableAvailable(tn.getName(), RlsmTestCluster.HANG_GUARD_MS);
  }
}
