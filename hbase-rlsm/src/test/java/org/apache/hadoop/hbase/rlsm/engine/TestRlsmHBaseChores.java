package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.FileNotFoundException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.hfile.HFilePrettyPrinter;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.master.cleaner.TimeToLiveHFileCleaner;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RlsmFiles;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.HFileArchiveUtil;
import org.apache.hadoop.io.MD5Hash;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * HBase's own chores and tools leave RLSM stores intact (docs/install.md, "HBase's own tools"):
 * the RegionServer's discharger and the master's HFile cleaner (with a 1 ms archive TTL) and
 * catalog janitor run after every flush and compaction, and at every step of a region split and
 * of the merge of its daughters; HBase's HFile pretty printer reads every RLSM file (format v2,
 * so an HFile) without changing it. After each step every live store file exists (for a
 * reference, also the parent's file it names) and every row reads back; the regions reopen at
 * the end (a region open checks that the files its manifests list exist).
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmHBaseChores {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmHBaseChores.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final int ROWS_PER_FLUSH = 200;
  /** Rows {@link #load} writes; the split row lies in the middle. */
  private static final int ROWS = 9 * ROWS_PER_FLUSH;
  private static final int SPLIT_ROW = ROWS / 2;
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

  private static List<HRegion> regions(TableName tn) {
    return util.getHBaseCluster().getRegions(tn);
  }

  /**
   * Every live store file of every region exists, and so does the file behind it: the parent's
   * file a daughter's (or merged region's) reference names, which the janitor and the cleaner
   * may remove only once no reference to it is left.
   */
  private static void assertLiveFilesExist(String step, TableName tn) throws Exception {
    FileSystem fs = util.getTestFileSystem();
    for (HRegion r : regions(tn)) {
      for (HStoreFile f : r.getStore(F).getStorefiles()) {
        assertTrue(step + ": live store file gone: " + f.getPath(), fs.exists(f.getPath()));
        try {
          f.getFileInfo().getReferencedFileStatus(fs);
        } catch (FileNotFoundException e) {
          throw new AssertionError(step + ": the file behind live store file " + f.getPath()
            + " is gone; " + layout(tn), e);
        }
      }
    }
  }

  /** Regions of {@code tn} with their rows, partitions and store files, for failure messages. */
  private static String layout(TableName tn) {
    StringBuilder sb = new StringBuilder("layout of ").append(tn).append(':');
    for (HRegion r : regions(tn)) {
      RegionInfo ri = r.getRegionInfo();
      sb.append("\n  region ").append(ri.getEncodedName()).append(" [")
        .append(Bytes.toStringBinary(ri.getStartKey())).append(", ")
        .append(Bytes.toStringBinary(ri.getEndKey())).append(") partition lows ");
      for (byte[] low : RlsmStoreProbe.partitionLows(r.getStore(F))) {
        sb.append(Bytes.toStringBinary(low)).append(' ');
      }
      for (HStoreFile f : r.getStore(F).getStorefiles()) {
        sb.append("\n    ").append(f.getPath().getName()).append(' ').append(RlsmFiles.role(f));
      }
    }
    return sb.toString();
  }

  /**
   * {@code scan} returns exactly {@code want} (row to value, in scan order); a difference names
   * the missing and unexpected rows and the region layout.
   */
  private static void assertScan(String step, TableName tn, Table t, Scan scan,
    Map<String, String> want) throws Exception {
    List<String> got = new ArrayList<>();
    Map<String, String> gotRows = new HashMap<>();
    try (ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        String row = Bytes.toString(r.getRow());
        got.add(row + "=" + Bytes.toString(r.getValue(F, F)));
        gotRows.put(row, Bytes.toString(r.getValue(F, F)));
      }
    }
    List<String> expected = new ArrayList<>();
    want.forEach((k, v) -> expected.add(k + "=" + v));
    if (!expected.equals(got)) {
      List<String> missing = new ArrayList<>(want.keySet());
      missing.removeAll(gotRows.keySet());
      List<String> unexpected = new ArrayList<>(gotRows.keySet());
      unexpected.removeAll(want.keySet());
      int first = 0;
      while (first < Math.min(expected.size(), got.size())
        && expected.get(first).equals(got.get(first))) {
        first++;
      }
      throw new AssertionError(step + ": " + scan + " returned " + got.size() + " rows, "
        + expected.size() + " expected; first difference at " + first + ": "
        + (first < expected.size() ? expected.get(first) : "end") + " expected, "
        + (first < got.size() ? got.get(first) : "end") + " returned; " + missing.size()
        + " missing " + span(missing) + ", " + unexpected.size() + " unexpected "
        + span(unexpected) + "; " + layout(tn));
    }
  }

  private static String span(List<String> rows) {
    return rows.isEmpty() ? "" : "(" + rows.get(0) + " .. " + rows.get(rows.size() - 1) + ")";
  }

  /** Every row reads back by a forward scan, a reversed scan and a scan across the split row. */
  private static void assertRowsReadBack(String step, TableName tn, Table t,
    NavigableMap<String, String> rows) throws Exception {
    assertScan(step, tn, t, new Scan(), rows);
    assertScan(step, tn, t, new Scan().setReversed(true), rows.descendingMap());
    byte[] from = row(SPLIT_ROW / 3);
    byte[] to = row(SPLIT_ROW * 5 / 3);
    assertScan(step, tn, t, new Scan().withStartRow(from).withStopRow(to),
      rows.subMap(Bytes.toString(from), true, Bytes.toString(to), false));
  }

  /** Runs the chores, then checks the files and the rows. */
  private static void afterChores(String step, TableName tn, Table t,
    NavigableMap<String, String> rows) throws Exception {
    runChores();
    assertLiveFilesExist(step, tn);
    assertRowsReadBack(step, tn, t, rows);
  }

  /**
   * Disables and enables the table (a region open checks that every file its manifests list
   * exists), then checks the files and the rows again.
   */
  private static void reopen(String step, TableName tn, Table t,
    NavigableMap<String, String> rows) throws Exception {
    util.getAdmin().disableTable(tn);
    util.getAdmin().enableTable(tn);
    assertLiveFilesExist(step + ", reopened", tn);
    assertRowsReadBack(step + ", reopened", tn, t, rows);
  }

  /** Puts rows {@code [from, to)} with values tagged {@code tag}, and records them. */
  private static void write(Table t, NavigableMap<String, String> rows, int from, int to,
    String tag) throws Exception {
    List<Put> puts = new ArrayList<>();
    for (int i = from; i < to; i++) {
      String value = tag + i;
      puts.add(new Put(row(i)).addColumn(F, F, Bytes.toBytes(value)));
      rows.put(Bytes.toString(row(i)), value);
    }
    t.put(puts);
  }

  /**
   * Three rounds of three flushes, the chores after each; RLSM compactions after the first two
   * rounds and a major compaction after the third (so Level-1 holds partitions and a manifest),
   * the chores after each.
   */
  private static void load(TableName tn, Table t, NavigableMap<String, String> rows)
    throws Exception {
    for (int round = 0; round < 3; round++) {
      for (int flush = 0; flush < 3; flush++) {
        int from = (round * 3 + flush) * ROWS_PER_FLUSH;
        write(t, rows, from, from + ROWS_PER_FLUSH, "v");
        util.flush(tn);
        runChores();
        assertLiveFilesExist("flush " + round + "." + flush, tn);
      }
      util.compact(tn, round == 2);
      runChores();
      assertLiveFilesExist("compaction " + round, tn);
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
    NavigableMap<String, String> rows = new TreeMap<>();
    try (Table t = util.getConnection().getTable(tn)) {
      load(tn, t, rows);
      HRegion region = regions(tn).get(0);
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

      reopen("end", tn, t, rows);
      assertGets(t, rows);
    }
  }

  private static void assertGets(Table t, NavigableMap<String, String> rows) throws Exception {
    for (Map.Entry<String, String> e : rows.entrySet()) {
      assertArrayEquals(e.getKey(), Bytes.toBytes(e.getValue()),
        t.get(new Get(Bytes.toBytes(e.getKey()))).getValue(F, F));
    }
  }

  private static void waitForRegions(TableName tn, int n) throws Exception {
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS,
      () -> regions(tn).size() == n && util.getAdmin().getRegions(tn).size() == n);
    util.waitUntilNoRegionsInTransition(RlsmTestCluster.HANG_GUARD_MS);
  }

  private static boolean hasReferences(TableName tn) {
    return regions(tn).stream().anyMatch(HRegion::hasReferences);
  }

  private static boolean regionDirExists(TableName tn, String encoded) throws Exception {
    Path table = CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(util.getConfiguration()), tn);
    return util.getTestFileSystem().exists(new Path(table, encoded));
  }

  /**
   * Major-compacts (compactions are switched off on the server, so nothing else holds the store's
   * files) and runs the chores, whose discharger archives the compacted references, until no
   * region holds one.
   */
  private static void rewriteReferences(TableName tn) throws Exception {
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> {
      util.compact(tn, true);
      runChores();
      return !hasReferences(tn);
    });
  }

  /** Runs the chores until the janitor archived the regions {@code gone} (asynchronously). */
  private static void archiveByJanitor(TableName tn, List<String> gone) throws Exception {
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> {
      runChores();
      for (String encoded : gone) {
        if (regionDirExists(tn, encoded)) {
          return false;
        }
      }
      return true;
    });
  }

  /**
   * The table's archive directory holds no file: what the discharger and the janitor archived,
   * the cleaner deleted (so the chores did act on the files a step retired).
   */
  private static void assertArchiveEmpty(String step, TableName tn) throws Exception {
    Path archive = HFileArchiveUtil
      .getTableArchivePath(CommonFSUtils.getRootDir(util.getConfiguration()), tn);
    List<Path> left = new ArrayList<>();
    for (Path p : RlsmTwinTables.allFiles(util, tn)) {
      if (p.toUri().getPath().startsWith(archive.toUri().getPath())) {
        left.add(p);
      }
    }
    assertEquals(step + ": archived files the cleaner left", List.of(), left);
  }

  @Test
  public void choresLeaveRlsmFilesIntactAcrossSplitAndMerge() throws Exception {
    TableName tn = TableName.valueOf("chores_split");
    Admin admin = util.getAdmin();
    // small partitions, so that Level-1 has several on each side of the split row
    admin.createTable(RlsmTables.configure(TableDescriptorBuilder.newBuilder(tn))
      .setColumnFamily(RlsmTables.familyBuilder(F)
        .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(16 * 1024)).build())
      .build());
    NavigableMap<String, String> rows = new TreeMap<>();
    try (Table t = util.getConnection().getTable(tn)) {
      load(tn, t, rows);
      assertTrue(layout(tn), RlsmStoreProbe.partitions(regions(tn).get(0).getStore(F)) >= 2);
      write(t, rows, SPLIT_ROW - 300, SPLIT_ROW + 300, "l0"); // a Level-0 file across the split
      util.flush(tn);
      String parent = regions(tn).get(0).getRegionInfo().getEncodedName();
      // daughters and the merged region keep their references until the test rewrites them
      admin.compactionSwitch(false, List.of());
      try {
        admin.split(tn, row(SPLIT_ROW));
        waitForRegions(tn, 2);
        assertTrue("daughters reference the parent's files", hasReferences(tn));
        afterChores("split", tn, t, rows);
        assertTrue("the janitor left the parent", regionDirExists(tn, parent));

        write(t, rows, SPLIT_ROW - 100, SPLIT_ROW + 100, "d"); // both daughters take writes
        for (int i = SPLIT_ROW - 150; i < SPLIT_ROW + 150; i += 7) {
          t.delete(new Delete(row(i)));
          rows.remove(Bytes.toString(row(i)));
        }
        util.flush(tn);
        assertTrue(hasReferences(tn));
        afterChores("daughters holding references", tn, t, rows);
        reopen("daughters holding references", tn, t, rows);
        assertTrue(hasReferences(tn));
        assertTrue("the janitor left the parent", regionDirExists(tn, parent));

        rewriteReferences(tn);
        afterChores("daughters' references rewritten", tn, t, rows);
        archiveByJanitor(tn, List.of(parent));
        afterChores("parent archived", tn, t, rows);
        assertArchiveEmpty("parent archived", tn);

        List<RegionInfo> daughters = admin.getRegions(tn);
        admin.mergeRegionsAsync(new byte[][] { daughters.get(0).getRegionName(),
          daughters.get(1).getRegionName() }, false).get();
        waitForRegions(tn, 1);
        assertTrue("the merged region references both daughters' files", hasReferences(tn));
        afterChores("merge", tn, t, rows);
        write(t, rows, SPLIT_ROW - 50, SPLIT_ROW + 50, "m"); // across the daughters' boundary
        util.flush(tn);
        afterChores("merged region holding references", tn, t, rows);
        reopen("merged region holding references", tn, t, rows);
        assertTrue(hasReferences(tn));
        for (RegionInfo d : daughters) {
          assertTrue("the janitor left daughter " + d, regionDirExists(tn, d.getEncodedName()));
        }

        rewriteReferences(tn);
        afterChores("merged region's references rewritten", tn, t, rows);
        archiveByJanitor(tn, List.of(daughters.get(0).getEncodedName(),
          daughters.get(1).getEncodedName()));
        afterChores("daughters archived", tn, t, rows);
        assertArchiveEmpty("daughters archived", tn);
      } finally {
        admin.compactionSwitch(true, List.of());
      }
      reopen("end", tn, t, rows);
      assertFalse(hasReferences(tn));
      assertGets(t, rows);
    }
  }
}
