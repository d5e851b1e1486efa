package org.apache.hadoop.hbase.regionserver;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.InnerStoreCellComparator;
import org.apache.hadoop.hbase.rlsm.bench.YcsbRows;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileWriter;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.memstore.HashCellTable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Writing one memstore snapshot of YCSB-like rows (64 MB of cell data by default) as a Level-0
 * RLSM file. {@code hashOrder}: rows of the hash memstore's snapshot handed to the writer whole,
 * in the table's order, as {@code RlsmStoreFlusher} does for the hash memstore.
 * {@code sortedOrder}: cells of a DefaultMemStore snapshot in skip-list order through
 * {@code RlsmFileWriter.append}, as the flush does for HBase's memstore. Both write the same
 * hash-ordered file to a local file system (tmpfs when {@code /dev/shm} exists). The per-cell
 * version/TTL matcher that both real flush paths run is not included. Scores are milliseconds per
 * flush.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class RlsmHashFlushBenchmark {
  @Param({ "64" })
  public int snapshotMb;

  private FileSystem fs;
  private Path dir;
  private MemStore hashStore;
  private MemStore defaultStore;
  private HashCellTable hashTable;
  private MemStoreSnapshot sortedSnapshot;
  private int n;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Configuration conf = HBaseConfiguration.create();
    ChunkCreator.initialize(MemStoreLAB.CHUNK_SIZE_DEFAULT, false, 512L << 20, 1.0f, 0f, null,
      MemStoreLAB.INDEX_CHUNK_SIZE_PERCENTAGE_DEFAULT);
    hashStore = new RlsmHashMemStore(conf, InnerStoreCellComparator.INNER_STORE_COMPARATOR, null);
    defaultStore = new DefaultMemStore(conf, InnerStoreCellComparator.INNER_STORE_COMPARATOR, null);
    MemStoreSizing sizing = new NonThreadSafeMemStoreSizing();
    java.util.Random rnd = new java.util.Random(3);
    for (long i = 0; sizing.getDataSize() < (long) snapshotMb << 20; i++) {
      List<Cell> r = YcsbRows.record(i, i + 1, rnd);
      hashStore.add(r, sizing);
      defaultStore.add(r, null);
    }
    KeyValueScanner s = hashStore.snapshot().getScanners().get(0);
    hashTable = ((RlsmHashScanner) s).getTable();
    s.close();
    sortedSnapshot = defaultStore.snapshot();
    fs = FileSystem.getLocal(conf).getRaw();
    File shm = new File("/dev/shm");
    dir = new Path((shm.isDirectory() ? shm : new File(System.getProperty("java.io.tmpdir")))
      .getAbsolutePath(), "rlsm-jmh-flush-" + ProcessHandle.current().pid());
    fs.mkdirs(dir);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    fs.delete(dir, true);
  }

  private RlsmFileWriter writer() {
    return new RlsmFileWriter(fs, new Path(dir, "f" + (n++)), YcsbRows.FAMILY, FileRole.FLUSH,
      0.01);
  }

  private long finish(RlsmFileWriter w) throws IOException {
    long len = w.finish(1);
    fs.delete(w.getPath(), false);
    return len;
  }

  @Benchmark
  public long hashOrder() throws IOException {
    RlsmFileWriter w = writer();
    for (int i = 0, rows = hashTable.rowCount(); i < rows; i++) {
      Cell[] cells = hashTable.rowAt(i).toArray();
      w.appendRow(cells, 0, cells.length);
    }
    return finish(w);
  }

  @Benchmark
  public long sortedOrder() throws IOException {
    RlsmFileWriter w = writer();
    KeyValueScanner s = sortedSnapshot.getScanners().get(0);
    for (Cell c = s.next(); c != null; c = s.next()) {
      w.append(c);
    }
    s.close();
    return finish(w);
  }
}
