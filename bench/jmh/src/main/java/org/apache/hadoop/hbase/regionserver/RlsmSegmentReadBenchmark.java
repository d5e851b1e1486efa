package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.bench.YcsbRows;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.util.Bytes;
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
 * Lookups in one Level-1 segment of format v2 against the HFile the default engine writes from
 * the same rows, both produced by a real region (flush, then major compaction) with the same
 * family settings (ROW Bloom, 64 KB blocks, no compression) and read through one on-heap LRU
 * BlockCache, warmed, as a RegionServer reads them:
 * <ul>
 * <li>{@code getHit} / {@code getMiss}: a Get's file step, HBase's Bloom check then, when it
 * passes, a new pread scanner seeked to the row (a present row; a row that is not there);</li>
 * <li>{@code indexSeek}: one reused scanner seeking to a present row (block index lookup plus a
 * cached data block);</li>
 * <li>{@code blockReadCached} / {@code blockReadUncached}: the block reader, a random data block
 * from the cache, or read and checksum-verified from the file (OS page cache) with no cache.</li>
 * </ul>
 * {@code writer} picks the file: {@code rlsm} (RlsmStoreEngine's segment) or {@code default}.
 * Scores are nanoseconds per operation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class RlsmSegmentReadBenchmark {
  private static final byte[] F = YcsbRows.FAMILY;

  @Param({ "rlsm", "default" })
  public String writer;

  @Param({ "200000" })
  public int rows;

  private LocalRegionHome home;
  private BlockCache cache;
  private HStoreFile cached;
  private HStoreFile uncached;
  private HFileScanner seeker;
  private Scan[] hits;
  private Scan[] misses;
  private long[] blockOffsets;
  private long[] blockSizes;
  private int i;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    home = new LocalRegionHome("segment-" + writer);
    Configuration conf = home.conf;
    Path file = writeFile(conf);
    cache = BlockCacheFactory.createBlockCache(conf);
    cached = open(conf, file, new CacheConfig(conf, cache));
    uncached = open(conf, file, CacheConfig.DISABLED);
    Random rnd = new Random(11);
    hits = new Scan[4096];
    misses = new Scan[4096];
    for (int k = 0; k < hits.length; k++) {
      hits[k] = new Scan(new Get(YcsbRows.rowKey(rnd.nextInt(rows))));
      misses[k] = new Scan(new Get(YcsbRows.rowKey(rows + (long) rnd.nextInt(rows))));
    }
    // the data blocks, walked block by block up to the load-on-open section
    HFile.Reader r = uncached.getReader().getHFileReader();
    List<long[]> blocks = new ArrayList<>();
    for (long off = 0; off < r.getTrailer().getLoadOnOpenDataOffset();) {
      HFileBlock block = r.readBlock(off, -1, false, true, false, false, null, null);
      if (block.getBlockType() == BlockType.DATA) {
        blocks.add(new long[] { off, block.getOnDiskSizeWithHeader() });
      }
      off += block.getOnDiskSizeWithHeader();
      block.release();
    }
    blockOffsets = new long[blocks.size()];
    blockSizes = new long[blocks.size()];
    for (int b = 0; b < blocks.size(); b++) {
      blockOffsets[b] = blocks.get(b)[0];
      blockSizes[b] = blocks.get(b)[1];
    }
    seeker = cached.getReader().getScanner(true, true, false);
    // warm the cache: every data, index and Bloom block a lookup may touch
    StoreFileScanner all = cached.getPreadScanner(true, Long.MAX_VALUE, 0, false);
    all.seek(PrivateCellUtil.createFirstOnRow(HConstants.EMPTY_START_ROW));
    while (all.next() != null) {
      // reading every cell caches every data block
    }
    all.close();
    for (int k = 0; k < hits.length; k++) {
      getHit();
      getMiss();
    }
  }

  /** Loads the rows into a region of the chosen engine and returns the file it compacted to. */
  private Path writeFile(Configuration conf) throws IOException {
    ChunkCreator.initialize(MemStoreLAB.CHUNK_SIZE_DEFAULT, false, 256L << 20, 1.0f, 0f, null,
      MemStoreLAB.INDEX_CHUNK_SIZE_PERCENTAGE_DEFAULT);
    boolean rlsm = writer.equals("rlsm");
    ColumnFamilyDescriptorBuilder cf = rlsm ? RlsmTables.familyBuilder(F)
      : ColumnFamilyDescriptorBuilder.newBuilder(F);
    cf.setBloomFilterType(BloomType.ROW).setBlocksize(64 * 1024);
    TableName tn = TableName.valueOf("segment_" + writer);
    TableDescriptor td = (rlsm ? RlsmTables.configure(TableDescriptorBuilder.newBuilder(tn))
      : TableDescriptorBuilder.newBuilder(tn)).setColumnFamily(cf.build()).build();
    RegionInfo info = RegionInfoBuilder.newBuilder(tn).build();
    WALFactory wals = new WALFactory(conf, "jmh-" + writer);
    HRegion region = HRegion.createHRegion(info, home.dir, conf, td, wals.getWAL(info));
    Random rnd = new Random(7);
    for (int r = 0; r < rows; r++) {
      Put p = new Put(YcsbRows.rowKey(r)).setDurability(Durability.SKIP_WAL);
      for (int f = 0; f < 2; f++) {
        byte[] v = new byte[YcsbRows.VALUE_LENGTH];
        rnd.nextBytes(v);
        p.addColumn(F, YcsbRows.field(f), v);
      }
      region.put(p);
      if (r % (rows / 4) == rows / 4 - 1) {
        region.flush(true);
      }
    }
    region.flush(true);
    region.compact(true);
    List<Path> data = new ArrayList<>();
    for (HStoreFile sf : region.getStore(F).getStorefiles()) {
      if (!rlsm || RlsmFiles.role(sf) == FileRole.SEGMENT) {
        data.add(sf.getPath());
      }
    }
    region.close();
    wals.close();
    if (data.size() != 1) {
      throw new IllegalStateException("expected one data file, found " + data);
    }
    return data.get(0);
  }

  private HStoreFile open(Configuration conf, Path file, CacheConfig cacheConf)
    throws IOException {
    HStoreFile sf = new HStoreFile(home.fs, file, conf, cacheConf, BloomType.ROW, true);
    sf.initReader();
    return sf;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    seeker.close();
    cached.closeStoreFile(false);
    uncached.closeStoreFile(false);
    cache.shutdown();
    home.delete();
  }

  private int next(int n) {
    i = (i + 1) % n;
    return i;
  }

  private Cell get(Scan scan) throws IOException {
    StoreFileReader r = cached.getReader();
    if (!r.passesBloomFilter(scan, new TreeSet<>(Bytes.BYTES_COMPARATOR))) {
      return null;
    }
    StoreFileScanner s = cached.getPreadScanner(true, Long.MAX_VALUE, 0, false);
    try {
      s.seek(PrivateCellUtil.createFirstOnRow(scan.getStartRow()));
      Cell c = s.peek();
      return c != null && Bytes.equals(c.getRowArray(), c.getRowOffset(), c.getRowLength(),
        scan.getStartRow(), 0, scan.getStartRow().length) ? c : null;
    } finally {
      s.close();
    }
  }

  @Benchmark
  public Cell getHit() throws IOException {
    return get(hits[next(hits.length)]);
  }

  @Benchmark
  public Cell getMiss() throws IOException {
    return get(misses[next(misses.length)]);
  }

  @Benchmark
  public int indexSeek() throws IOException {
    return seeker.seekTo(PrivateCellUtil.createFirstOnRow(hits[next(hits.length)].getStartRow()));
  }

  private int readBlock(HStoreFile f, boolean cacheBlock) throws IOException {
    int b = next(blockOffsets.length);
    HFileBlock block = f.getReader().getHFileReader().readBlock(blockOffsets[b], blockSizes[b],
      cacheBlock, true, false, true, BlockType.DATA, null);
    try {
      return block.getUncompressedSizeWithoutHeader();
    } finally {
      block.release();
    }
  }

  @Benchmark
  public int blockReadCached() throws IOException {
    return readBlock(cached, true);
  }

  @Benchmark
  public int blockReadUncached() throws IOException {
    return readBlock(uncached, false);
  }
}
