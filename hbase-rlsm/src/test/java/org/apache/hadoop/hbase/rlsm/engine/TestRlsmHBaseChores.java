package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.io.hfile.HFilePrettyPrinter;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.master.cleaner.TimeToLiveHFileCleaner;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.HFileArchiveUtil;
import org.apache.hadoop.io.MD5Hash;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * HBase's own chores and tools leave RLSM stores intact (docs/install.md, "HBase's own tools"):
 * the RegionServer's discharger and the master's HFile cleaner (with a 1 ms archive TTL) and
 * catalog janitor run across flushes, an RLSM compaction and a major compaction; HBase's HFile
 * pretty printer reads every (format v2, so HFile) RLSM file without changing it. Afterwards every live store file
 * exists, the region reopens (it checks that the manifest's files exist) and every row reads
 * back.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmHBaseChores {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmHBaseChores.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final int ROWS_PER_FLUSH = 200;
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1,
    conf -> conf.setLong(TimeToLiveHFileCleaner.TTL_CONF_KEY, 1));
  private static final HBaseTestingUtility util = CLUSTER.util();

  /** Runs every chore that archives or deletes store files, synchronously. */
  private static void runChores() throws Exception {
    HRegionServer rs = util.getHBaseCluster().getRegionServer(0);
    // In this thread, so the files it archives are there for the cleaner below.
    rs.getCompactedHFilesDischarger().setUseExecutor(false);
    rs.getCompactedHFilesDischarger().choreForTesting();
    HMaster master = util.getHBaseCluster().getMaster();
    master.getHFileCleaner().triggerCleanerNow().get(); // false when it left something
    master.getCatalogJanitor().choreForTesting();
  }

  private static void assertLiveFilesExist(TableName tn) throws Exception {
    FileSystem fs = util.getTestFileSystem();
    for (HStoreFile f : util.getHBaseCluster().getRegions(tn).get(0).getStore(F).getStorefiles()) {
      assertTrue("live store file gone: " + f.getPath(), fs.exists(f.getPath()));
    }
  }

  private static String digest(FileSystem fs, Path p) throws Exception {
    try (InputStream in = fs.open(p)) {
      return MD5Hash.digest(in).toString();
    }
  }

  @Test
  public void choresAndPrettyPrinterLeaveRlsmFilesIntact() throws Exception {
    TableName tn = TableName.valueOf("chores_t");
    util.getAdmin().createTable(RlsmTables.table(tn, F).build());
    int rows = 0;
    try (Table t = util.getConnection().getTable(tn)) {
      for (int round = 0; round < 3; round++) {
        for (int flush = 0; flush < 3; flush++) {
          for (int i = 0; i < ROWS_PER_FLUSH; i++, rows++) {
            t.put(new Put(row(rows)).addColumn(F, F, row(rows)));
          }
          util.flush(tn);
          runChores();
          assertLiveFilesExist(tn);
        }
        util.compact(tn, round == 2); // RLSM compactions, then a major compaction
        runChores();
        assertLiveFilesExist(tn);
      }
      HRegion region = util.getHBaseCluster().getRegions(tn).get(0);
      Path archive = HFileArchiveUtil.getStoreArchivePath(util.getConfiguration(),
        region.getRegionInfo(), F);
      FileSystem fs = util.getTestFileSystem();
      // The chores did run: compactions replaced files, and the cleaner emptied the archive.
      assertTrue(!fs.exists(archive) || fs.listStatus(archive).length == 0);

      Map<Path, String> digests = new HashMap<>();
      List<Path> rlsmFiles = new ArrayList<>();
      for (HStoreFile f : region.getStore(F).getStorefiles()) {
        rlsmFiles.add(f.getPath());
        digests.put(f.getPath(), digest(fs, f.getPath()));
      }
      assertTrue(rlsmFiles.size() > 0);
      for (Path p : rlsmFiles) {
        assertTrue(RlsmTestCluster.isRlsm(util, p));
        // Format v2 files are HFiles: HBase's pretty printer reads their metadata and checks
        // the order of every cell (-k), and leaves them as they are.
        int rc = new HFilePrettyPrinter(util.getConfiguration())
          .run(new String[] { "-f", p.toString(), "-m", "-k", "-v" });
        assertEquals("pretty printer failed on RLSM file " + p, 0, rc);
        assertEquals(digests.get(p), digest(fs, p));
      }

      util.getAdmin().disableTable(tn);
      util.getAdmin().enableTable(tn);
      for (int i = 0; i < rows; i++) {
        assertArrayEquals(row(i), t.get(new Get(row(i))).getValue(F, F));
      }
    }
  }
}
