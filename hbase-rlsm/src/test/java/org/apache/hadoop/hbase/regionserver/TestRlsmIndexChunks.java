package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.hfile.HFileBlockIndex;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestRows;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * RLSM stores write multi-level block indexes ({@code hbase.rlsm.index.block.max.size}): a flush
 * file and a compaction output of a few hundred data blocks pin a root index of a few entries,
 * where HBase's 128 KiB chunks would pin one entry per block, and every row still reads back;
 * a family that sets HBase's {@code hfile.index.block.max.size} itself keeps its value.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmIndexChunks {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmIndexChunks.class);

  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int ROWS = 4000;

  @AfterClass
  public static void cleanUp() throws IOException {
    UTIL.cleanupTestDir();
  }

  /** A region of one RLSM family of 1 KiB data blocks, {@code chunk} set on it unless null. */
  private static HRegion region(String table, String chunk) throws IOException {
    ColumnFamilyDescriptorBuilder cf = RlsmTables.familyBuilder(F).setBlocksize(1024);
    if (chunk != null) {
      cf.setConfiguration(HFileBlockIndex.MAX_CHUNK_SIZE_KEY, chunk);
    }
    TableDescriptor td = RlsmTables
      .configure(TableDescriptorBuilder.newBuilder(TableName.valueOf(table)))
      .setColumnFamily(cf.build()).build();
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    return HBaseTestingUtility.createRegionAndWAL(info, UTIL.getDataTestDir(table),
      UTIL.getConfiguration(), td);
  }

  private static void load(HRegion r) throws IOException {
    for (int i = 0; i < ROWS; i++) {
      r.put(new Put(RlsmTestRows.row(i)).addColumn(F, Q, RlsmTestRows.value(i)));
    }
    r.flush(true);
  }

  /**
   * The fewest data index levels of a store file holding cells (a manifest holds none), and
   * the root index bytes all store files pin.
   */
  private static long[] levelsAndRoot(HRegion r) {
    HStore store = r.getStore(F);
    long minLevels = Long.MAX_VALUE;
    for (HStoreFile f : store.getStorefiles()) {
      if (f.getReader().getEntries() == 0) {
        continue;
      }
      minLevels = Math.min(minLevels,
        f.getReader().getHFileReader().getTrailer().getNumDataIndexLevels());
    }
    return new long[] { minLevels, store.getStorefilesRootLevelIndexSize() };
  }

  private static void assertRowsReadBack(HRegion r) throws IOException {
    for (int i = 0; i < ROWS; i += 7) {
      assertArrayEquals("row " + i, RlsmTestRows.value(i),
        r.get(new Get(RlsmTestRows.row(i))).getValue(F, Q));
    }
  }

  @Test
  public void rlsmStoresPinOnlyTheRootOfMultiLevelIndexes() throws IOException {
    HRegion r = region("index_chunks", null);
    load(r);
    long[] flushed = levelsAndRoot(r);
    assertTrue("index levels of the flush file: " + flushed[0], flushed[0] >= 2);
    assertTrue("root index bytes of the flush file: " + flushed[1], flushed[1] < 4096);
    assertRowsReadBack(r);
    r.compact(true);
    long[] compacted = levelsAndRoot(r);
    assertTrue("index levels after the major compaction: " + compacted[0], compacted[0] >= 2);
    assertTrue("root index bytes after the major compaction: " + compacted[1],
      compacted[1] < 4096);
    assertRowsReadBack(r);
    HBaseTestingUtility.closeRegionAndWAL(r);
  }

  @Test
  public void aFamilysOwnIndexChunkSizeIsKept() throws IOException {
    HRegion r = region("index_chunks_family", Integer.toString(128 * 1024));
    load(r);
    long[] flushed = levelsAndRoot(r);
    assertEquals("index levels with the family's 128 KiB chunks", 1, flushed[0]);
    assertTrue("root index bytes: " + flushed[1], flushed[1] > 4096);
    assertRowsReadBack(r);
    HBaseTestingUtility.closeRegionAndWAL(r);
  }
}
