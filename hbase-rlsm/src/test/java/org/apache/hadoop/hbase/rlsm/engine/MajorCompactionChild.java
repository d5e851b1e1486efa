package org.apache.hadoop.hbase.rlsm.engine;

import java.io.File;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.ChunkCreator;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.MemStoreLAB;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.wal.WALFactory;

/**
 * The child JVM of {@link TestRlsmMajorCompactionHeap}: in a heap smaller than the store, loads
 * an RLSM region as a RegionServer would (flushes, each followed by the compactions the planner
 * asks for), then runs a user major compaction and scans the result. Prints, one per line:
 * {@code heap <max heap bytes>}, {@code store <bytes before the major>},
 * {@code major-peak-heap <bytes>} (the heap pools' peak during the major compaction),
 * {@code rows <rows scanned after>}, {@code files-after <store files>}. Arguments: work
 * directory, megabytes to load.
 */
public final class MajorCompactionChild {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int VALUE_BYTES = 1000;
  private static final long FLUSH_BYTES = 8L << 20;

  private MajorCompactionChild() {
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    File work = new File(args[0]);
    long total = Long.parseLong(args[1]) << 20;
    Configuration conf = HBaseConfiguration.create();
    conf.set(HConstants.HBASE_DIR, new File(work, "root").toURI().toString());
    conf.setFloat(HConstants.HFILE_BLOCK_CACHE_SIZE_KEY, 0.1f);
    conf.set("hbase.wal.provider", "filesystem");
    conf.setBoolean(CommonFSUtils.UNSAFE_STREAM_CAPABILITY_ENFORCE, false);
    ChunkCreator.initialize(MemStoreLAB.CHUNK_SIZE_DEFAULT, false, 0, 0, 0, null,
      MemStoreLAB.INDEX_CHUNK_SIZE_PERCENTAGE_DEFAULT);
    TableDescriptor td = RlsmTables.configure(TableDescriptorBuilder.newBuilder(
      TableName.valueOf("major_heap"))).setColumnFamily(RlsmTables.familyBuilder(F)
        .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(32L << 20))
        .build())
      .build();
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    WALFactory wals = new WALFactory(conf, "major-heap");
    HRegion region = HRegion.createHRegion(info, CommonFSUtils.getRootDir(conf), conf, td,
      wals.getWAL(info), true);
    HStore store = region.getStore(F);
    Random rnd = new Random(20261124L);
    long rows = total / VALUE_BYTES;
    long sinceFlush = 0;
    for (long i = 0; i < rows; i++) {
      byte[] value = new byte[VALUE_BYTES];
      rnd.nextBytes(value); // incompressible, and no two rows alike
      // keys spread over the key space, so every append touches every partition
      long k = (i * 0x9E3779B97F4A7C15L) >>> 1;
      Put p = new Put(Bytes.toBytes(String.format("%019d", k))).addColumn(F, Q, value);
      p.setDurability(Durability.SKIP_WAL);
      region.put(p);
      sinceFlush += VALUE_BYTES;
      if (sinceFlush >= FLUSH_BYTES) {
        region.flush(true);
        sinceFlush = 0;
        for (int c = 0; c < 20 && store.getStoreEngine().needsCompaction(List.of()); c++) {
          region.compact(false);
        }
      }
    }
    region.flush(true);
    long storeBytes = 0;
    for (HStoreFile f : store.getStorefiles()) {
      storeBytes += f.getReader().length();
    }
    out.println("heap " + Runtime.getRuntime().maxMemory());
    out.println("store " + storeBytes);
    List<MemoryPoolMXBean> heapPools = new ArrayList<>();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        heapPools.add(pool);
      }
    }
    System.gc();
    heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
    region.compact(true);
    long peak = 0;
    for (MemoryPoolMXBean pool : heapPools) {
      peak += pool.getPeakUsage().getUsed();
    }
    out.println("major-peak-heap " + peak);
    long scanned = 0;
    try (RegionScanner s = region.getScanner(new Scan())) {
      List<Cell> cells = new ArrayList<>();
      boolean more;
      do {
        cells.clear();
        more = s.next(cells);
        scanned += cells.isEmpty() ? 0 : 1;
      } while (more);
    }
    out.println("rows " + scanned);
    out.println("expected-rows " + rows);
    out.println("files-after " + store.getStorefiles().size());
    region.close();
    wals.close();
  }
}
