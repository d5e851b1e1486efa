package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.bench.YcsbRows;
import org.apache.hadoop.hbase.wal.WALFactory;
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
 * One memstore flush of a local region, as a RegionServer's flusher runs it: {@code
 * HRegion.flush} of a memstore holding {@code snapshotMb} MB of new YCSB-like records (10 fields
 * of 100 bytes, random row keys), written as one store file to a local file system (tmpfs when
 * {@code /dev/shm} exists). {@code engine}: {@code rlsm} (the hash memstore's rows, the flush
 * scanner and a v2 Level-0 file), {@code rlsm-skiplist} (RLSM with HBase's skip-list memstore)
 * and {@code default} (HBase's engine). The memstore is filled before each flush and outside the
 * measured time; scores are milliseconds per flush.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class RlsmFlushBenchmark {
  private static final byte[] F = YcsbRows.FAMILY;

  @Param({ "rlsm", "rlsm-skiplist", "default" })
  public String engine;

  @Param({ "32" })
  public int snapshotMb;

  private LocalRegionHome home;
  private WALFactory wals;
  private HRegion region;
  private final Random rnd = new Random(3);
  private long next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    home = new LocalRegionHome("flush-" + engine);
    Configuration conf = home.conf;
    ChunkCreator.initialize(MemStoreLAB.CHUNK_SIZE_DEFAULT, false, 1L << 30, 1.0f, 0f, null,
      MemStoreLAB.INDEX_CHUNK_SIZE_PERCENTAGE_DEFAULT);
    boolean rlsm = engine.startsWith("rlsm");
    ColumnFamilyDescriptorBuilder cf =
      rlsm ? RlsmTables.familyBuilder(F) : ColumnFamilyDescriptorBuilder.newBuilder(F);
    if (engine.equals("rlsm-skiplist")) {
      RlsmTables.useDefaultMemStore(cf);
    }
    TableName tn = TableName.valueOf("flush_" + engine.replace('-', '_'));
    TableDescriptor td = (rlsm ? RlsmTables.configure(TableDescriptorBuilder.newBuilder(tn))
      : TableDescriptorBuilder.newBuilder(tn)).setColumnFamily(cf.build()).build();
    RegionInfo info = RegionInfoBuilder.newBuilder(tn).build();
    wals = new WALFactory(conf, "jmh-flush-" + engine);
    region = HRegion.createHRegion(info, home.dir, conf, td, wals.getWAL(info));
  }

  /** Fills the memstore with new records up to {@code snapshotMb} MB of cell data. */
  @Setup(Level.Invocation)
  public void fill() throws IOException {
    while (region.getMemStoreDataSize() < (long) snapshotMb << 20) {
      List<Cell> record = YcsbRows.record(next, next + 1, rnd);
      Put p = new Put(YcsbRows.rowKey(next)).setDurability(Durability.SKIP_WAL);
      for (Cell c : record) {
        p.add(c);
      }
      region.put(p);
      next++;
    }
  }

  @Benchmark
  public long flush() throws IOException {
    region.flush(true);
    return region.getStore(F).getStorefilesSize();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    region.close();
    wals.close();
    home.delete();
  }
}
