package org.apache.hadoop.hbase.rlsm;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A writer and a reader on {@link RlsmTwinTables} while a test moves regions, runs the balancer,
 * aborts servers or splits. The writer applies the same operations, with the same explicit
 * timestamps, to both tables: new versions of rows spread over the whole key space, and column,
 * family and row deletes. The reader compares every Get (all versions) and short scan between the
 * tables. A fair read-write lock makes each writer operation atomic for the reader (it has reached
 * both tables or neither), so every comparison is exact, whatever the cluster does meanwhile.
 *
 * <p>Only deletes that mask every older version are used: a delete of one version can uncover an
 * older one or not depending on whether a flush already dropped it, which differs between engines
 * with different flush points. Delete timestamps lie just below their operation's puts, so no put
 * and delete share a timestamp.
 */
public final class TwinTraffic {
  /** Families every twin table of this traffic has. */
  public static final byte[] F = Bytes.toBytes("f");
  public static final byte[] G = Bytes.toBytes("g");
  public static final byte[] Q = Bytes.toBytes("q");
  public static final byte[] Q2 = Bytes.toBytes("q2");
  /** Rows per writer operation and per reader round's Gets. */
  private static final int BATCH = 10;
  /** Rows a reader round's scan covers. */
  private static final int SCAN_ROWS = 40;

  private final HBaseTestingUtility util;
  private final RlsmTwinTables twins;
  private final int rows;
  private final ReadWriteLock lock = new ReentrantReadWriteLock(true);
  private final TrafficThreads threads;

  /** Traffic over rows {@code 0..rows-1} ({@link RlsmTestRows#row}); rows must be prime to 7. */
  public TwinTraffic(HBaseTestingUtility util, RlsmTwinTables twins, int rows) {
    this.util = util;
    this.twins = twins;
    this.rows = rows;
    threads = new TrafficThreads("twin", this::write, this::read);
  }

  /** Row {@code j} of operation {@code n}: consecutive operations cover the key space evenly. */
  private byte[] opRow(int n, int j) {
    return row((int) ((long) (n * BATCH + j) * 7 % rows));
  }

  /** Writer operation {@code n}, applied to one table. */
  private void apply(Table t, int n) throws IOException {
    long ts = 1000 + 2L * n;
    List<Put> puts = new ArrayList<>();
    for (int j = 0; j < BATCH; j++) {
      Put p = new Put(opRow(n, j)).addColumn(F, Q, ts, Bytes.toBytes("v" + n + "_" + j));
      if (j % 3 == 0) {
        p.addColumn(F, Q2, ts, Bytes.toBytes("w" + n + "_" + j));
      }
      if (j % 2 == 0) {
        p.addColumn(G, Q, ts, Bytes.toBytes("g" + n + "_" + j));
      }
      puts.add(p);
    }
    t.put(puts);
    List<Delete> deletes = new ArrayList<>();
    if (n % 5 == 0) {
      deletes.add(new Delete(opRow(n + 1, 3)).addColumns(F, Q2, ts - 1));
    }
    if (n % 7 == 0) {
      deletes.add(new Delete(opRow(n + 2, 4)).addFamily(G, ts - 1));
    }
    if (n % 11 == 0) {
      deletes.add(new Delete(opRow(n + 3, 5), ts - 1));
    }
    if (!deletes.isEmpty()) {
      t.delete(deletes);
    }
  }

  private void write(BooleanSupplier stopped, StepCounter written) throws Exception {
    try (Table r = util.getConnection().getTable(twins.rlsm);
      Table d = util.getConnection().getTable(twins.dflt)) {
      for (int n = 0; !stopped.getAsBoolean(); n++) {
        lock.writeLock().lock();
        try {
          apply(r, n);
          apply(d, n);
        } finally {
          lock.writeLock().unlock();
        }
        written.step();
      }
    }
  }

  private void read(BooleanSupplier stopped, StepCounter compared) throws Exception {
    try (Table r = util.getConnection().getTable(twins.rlsm);
      Table d = util.getConnection().getTable(twins.dflt)) {
      for (int round = 0; !stopped.getAsBoolean(); round++) {
        lock.readLock().lock();
        try {
          for (int j = 0; j < BATCH; j++) {
            byte[] key = row((round * BATCH + j) * 13 % rows);
            Get g = new Get(key).readAllVersions();
            RlsmTwinTables.assertSameCells("get " + Bytes.toStringBinary(key),
              RlsmTwinTables.describe(d.get(g).rawCells()),
              RlsmTwinTables.describe(r.get(g).rawCells()));
          }
          int from = round * SCAN_ROWS % rows;
          Scan s = new Scan().withStartRow(row(from)).withStopRow(row(from + SCAN_ROWS))
            .readAllVersions();
          RlsmTwinTables.assertSameCells("scan from " + from, RlsmTwinTables.cells(d, s),
            RlsmTwinTables.cells(r, s));
        } finally {
          lock.readLock().unlock();
        }
        compared.step();
      }
    }
  }

  public void start() {
    threads.start();
  }

  /**
   * Waits until the writer completed {@code ops} more operations and the reader {@code rounds}
   * more comparison rounds from now, then fails if either thread failed.
   */
  public void await(int ops, int rounds) throws InterruptedException {
    threads.await(ops, rounds);
  }

  /** Fails if the writer or the reader failed. */
  public void checkFailure() {
    threads.checkFailure();
  }

  public void stopAndCheck() throws InterruptedException {
    threads.stopAndCheck();
  }
}
