package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.rlsm.RlsmTestRows;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * A lower daughter that still reads its parent's Level-0 files and shared Level-1 segments
 * through HBase references (half files under range-restricted views) scans alike forwards and
 * reversed, from its end and from its end key as the client's reversed scan over the next
 * region hands it on.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmDaughterReversed {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmDaughterReversed.class);

  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();
  private static final byte[] F = RlsmLayouts.F;
  private static final byte[] Q = RlsmLayouts.Q;

  @AfterClass
  public static void cleanUp() throws IOException {
    UTIL.cleanupTestDir();
  }

  private static List<String> rows(HRegion r, Scan scan) throws IOException {
    List<String> out = new ArrayList<>();
    try (RegionScanner s = r.getScanner(scan)) {
      List<Cell> cells = new ArrayList<>();
      boolean more;
      do {
        cells.clear();
        more = s.next(cells);
        if (!cells.isEmpty()) {
          out.add(Bytes.toString(CellUtil.cloneRow(cells.get(0))));
        }
      } while (more);
    }
    return out;
  }

  private static void assertReadsAlike(HRegion d, List<String> expected, byte[] end)
    throws IOException {
    assertEquals(expected, rows(d, new Scan()));
    List<String> rev = new ArrayList<>(expected);
    Collections.reverse(rev);
    assertEquals("reversed from the end", rev, rows(d, new Scan().setReversed(true)));
    assertEquals("reversed from the end key", rev,
      rows(d, new Scan().withStartRow(end, false).setReversed(true)));
    assertEquals("reversed from the end key, inclusive", rev,
      rows(d, new Scan().withStartRow(end, true).setReversed(true)));
  }

  @Test
  public void reversedScansOverReferences() throws IOException {
    TableDescriptor td = RlsmLayouts.smallPartitions("daughter_reversed");
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    Path root = UTIL.getDataTestDir("daughter_reversed");
    Configuration conf = UTIL.getConfiguration();
    HRegion r = HBaseTestingUtility.createRegionAndWAL(info, root, conf, td);
    RlsmLayouts.load(r, 4);
    for (int i = 100; i < 560; i += 9) {
      r.put(new Put(RlsmTestRows.row(i)).addColumn(F, Q, Bytes.toBytes("newest")));
    }
    r.flush(true);
    byte[] splitRow = RlsmTestRows.row(700);
    List<String> expected = rows(r, new Scan().withStopRow(splitRow));
    HRegionFileSystem parentFs = r.getRegionFileSystem();
    Path storeDir = parentFs.getStoreDir("f");
    FileSystem fs = parentFs.getFileSystem();
    HBaseTestingUtility.closeRegionAndWAL(r);

    RegionInfo lower = RegionInfoBuilder.newBuilder(info.getTable()).setStartKey(info.getStartKey())
      .setEndKey(splitRow).setRegionId(info.getRegionId() + 1).build();
    Path table = parentFs.getTableDir();
    HRegionFileSystem.createRegionOnFileSystem(conf, fs, table, lower);
    HRegionFileSystem pfs = HRegionFileSystem.openRegionFromFileSystem(conf, fs, table, info, true);
    RegionSplitPolicy policy = ReflectionUtils.newInstance(RlsmRegionSplitPolicy.class, conf);
    for (FileStatus st : fs.listStatus(storeDir)) {
      if (st.isFile()) {
        HStoreFile f = new HStoreFile(new StoreFileInfo(conf, fs, st.getPath(), true),
          BloomType.ROW, CacheConfig.DISABLED);
        pfs.splitStoreFile(lower, "f", f, splitRow, false, policy);
      }
    }
    HRegion d = HBaseTestingUtility.createRegionAndWAL(lower, root, conf, td);
    try {
      assertTrue(d.hasReferences());
      HStore store = d.getStore(F);
      assertTrue("Level-1 partitions over references", RlsmStoreProbe.partitions(store) >= 2);
      assertTrue("a segment shared by partitions", RlsmStoreProbe.sharedSegments(store) > 0);
      assertReadsAlike(d, expected, splitRow);
      // the daughter's own Level-0 file next to its references
      for (int i = 690; i < 700; i++) {
        d.put(new Put(RlsmTestRows.row(i)).addColumn(F, Q, Bytes.toBytes("daughter")));
      }
      d.flush(true);
      assertTrue(d.hasReferences());
      assertReadsAlike(d, expected, splitRow);
    } finally {
      HBaseTestingUtility.closeRegionAndWAL(d);
    }
  }
}
