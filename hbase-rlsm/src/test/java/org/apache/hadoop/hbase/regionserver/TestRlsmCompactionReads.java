package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code rlsmCompactionReadBytes} counts what compactions read from the file system: over a load
 * whose index splits leave segments shared by two partitions (so that folds and clean-ups read a
 * range of a file), no compaction counts more than the file system served in it (the bytes of
 * its inputs' whole files would: their other partitions' ranges, trailers and root indexes,
 * which the reader holds since open), and together they count most of it (the local region has
 * no other reader; HBase opening the new files reads the rest). A major compaction then reads
 * about its inputs' data, once.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmCompactionReads {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmCompactionReads.class);

  private static final Logger LOG = LoggerFactory.getLogger(TestRlsmCompactionReads.class);
  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();
  private static final byte[] F = RlsmLayouts.F;

  @AfterClass
  public static void cleanUp() throws IOException {
    UTIL.cleanupTestDir();
  }

  private static RlsmStoreStats stats(HRegion r) {
    return ((RlsmStoreEngine) r.getStore(F).getStoreEngine()).getStats();
  }

  /** Bytes every thread has read through every file system of this JVM. */
  @SuppressWarnings("deprecation")
  private static long fileSystemReads() {
    long n = 0;
    for (FileSystem.Statistics s : FileSystem.getAllStatistics()) {
      n += s.getBytesRead();
    }
    return n;
  }

  @Test
  public void compactionsCountWhatTheFileSystemServed() throws IOException {
    String table = "compaction_reads";
    TableDescriptor td = RlsmLayouts.smallPartitions(table);
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    HRegion r = HBaseTestingUtility.createRegionAndWAL(info, UTIL.getDataTestDir(table),
      UTIL.getConfiguration(), td);
    long[] served = { 0 };
    long[] counted = { 0 };
    int[] compactions = { 0 };
    RlsmLayouts.load(r, 4, region -> {
      for (int i = 0; i < 50 && region.getStore(F).getStoreEngine().needsCompaction(List.of());
        i++) {
        long fs = fileSystemReads();
        long c = stats(region).getCompactionReadBytes();
        region.compact(false);
        long fsRead = fileSystemReads() - fs;
        long read = stats(region).getCompactionReadBytes() - c;
        assertTrue("compaction counted " + read + " bytes, the file system served " + fsRead,
          read <= fsRead);
        served[0] += fsRead;
        counted[0] += read;
        compactions[0]++;
      }
    });
    LOG.info("{} compactions counted {} of the {} bytes the file system served", compactions[0],
      counted[0], served[0]);
    assertTrue("compactions ran", compactions[0] > 5);
    // the rest: HBase opening each new file at commit (trailer and load-on-open section)
    assertTrue("counted " + counted[0] + " of " + served[0], counted[0] >= served[0] * 3 / 4);
    assertTrue("an index split left segments shared by two partitions", RlsmLayouts.sharesSegments(
      ((RlsmStoreFileManager) r.getStore(F).getStoreEngine().getStoreFileManager()).state()));

    long lengths = 0;
    for (HStoreFile f : r.getStore(F).getStorefiles()) {
      lengths += f.getReader().length();
    }
    long c = stats(r).getCompactionReadBytes();
    r.compact(true);
    long read = stats(r).getCompactionReadBytes() - c;
    LOG.info("major compaction read {} bytes of a {}-byte store", read, lengths);
    assertTrue("major compaction read " + read + " of " + lengths,
      read <= lengths && read >= lengths / 2);
    HBaseTestingUtility.closeRegionAndWAL(r);
  }

  /**
   * With a BlockCache, as on a RegionServer, compactions read no block of the file system twice:
   * over the whole load they read at most what the store ever wrote (flushes and compactions),
   * although range-append planning reads each Level-0 victim once per gap between partitions
   * before the compaction's scan reads it whole (RlsmStoreRows caches those blocks for the scan).
   */
  @Test
  public void compactionsReadEachBlockOnceWithABlockCache() throws IOException {
    String table = "compaction_reads_cached";
    TableDescriptor td = RlsmLayouts.smallPartitions(table);
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    BlockCache cache = BlockCacheFactory.createBlockCache(UTIL.getConfiguration());
    HRegion r = HBaseTestingUtility.createRegionAndWAL(info, UTIL.getDataTestDir(table),
      UTIL.getConfiguration(), td, cache);
    RlsmLayouts.load(r, 6);
    RlsmStoreStats s = stats(r);
    long written = s.getFlushBytes() + s.getAppendBytes() + s.getSplitBytes() + s.getMergeBytes()
      + s.getCleanupBytes() + s.getManifestBytes();
    LOG.info("{} compactions ({} partitions) read {} bytes of the {} the store wrote",
      s.getCompactions(), s.getPartitions(), s.getCompactionReadBytes(), written);
    assertTrue("partitions to place rows between", s.getPartitions() > 4);
    assertTrue("compactions read " + s.getCompactionReadBytes() + " bytes, the store wrote "
      + written, s.getCompactionReadBytes() <= written);
    HBaseTestingUtility.closeRegionAndWAL(r);
    cache.shutdown();
  }
}
