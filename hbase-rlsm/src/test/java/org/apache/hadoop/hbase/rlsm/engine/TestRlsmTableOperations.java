package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RlsmFiles;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.HFileTestUtil;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.rules.TestName;

/**
 * HBase client operations on RLSM tables, each across the memstore and several flushed Level-0
 * RLSM files, in one shared mini cluster.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmTableOperations {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmTableOperations.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q1 = Bytes.toBytes("q1");
  private static final byte[] Q2 = Bytes.toBytes("q2");
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1);
  private static final HBaseTestingUtility util = CLUSTER.util();

  @Rule
  public TestName name = new TestName();

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row%05d", i));
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private TableName create(int maxVersions, int ttlSeconds) throws Exception {
    TableName tn = TableName.valueOf(name.getMethodName());
    TableDescriptorBuilder tb = RlsmTables.configure(TableDescriptorBuilder.newBuilder(tn));
    tb.setColumnFamily(RlsmTables.familyBuilder(F).setMaxVersions(maxVersions)
      .setTimeToLive(ttlSeconds).build());
    util.getAdmin().createTable(tb.build());
    return tn;
  }

  private TableName create() throws Exception {
    return create(1, Integer.MAX_VALUE);
  }

  private void flush(TableName tn) throws Exception {
    util.getAdmin().flush(tn);
  }

  private HStore store(TableName tn) {
    HRegion r = util.getHBaseCluster().getRegions(tn).get(0);
    return r.getStore(F);
  }

  private static int count(Table t, Scan s) throws Exception {
    int n = 0;
    try (ResultScanner rs = t.getScanner(s)) {
      while (rs.next() != null) {
        n++;
      }
    }
    return n;
  }

  private static List<byte[]> rows(Table t, Scan s) throws Exception {
    List<byte[]> out = new ArrayList<>();
    try (ResultScanner rs = t.getScanner(s)) {
      for (Result r : rs) {
        out.add(r.getRow());
      }
    }
    return out;
  }

  /** Writes rows [from, to) with value prefix {@code v}. */
  private static void load(Table t, int from, int to, String v) throws Exception {
    List<Put> puts = new ArrayList<>();
    for (int i = from; i < to; i++) {
      puts.add(new Put(row(i)).addColumn(F, Q1, b(v + i)).addColumn(F, Q2, b("x" + i)));
    }
    t.put(puts);
  }

  @Test
  public void putGetScanAcrossMemstoreAndFiles() throws Exception {
    TableName tn = create();
    try (Table t = util.getConnection().getTable(tn)) {
      load(t, 0, 300, "a");
      flush(tn);
      load(t, 200, 500, "b"); // overwrites 200..299
      flush(tn);
      load(t, 450, 600, "c"); // overwrites 450..499, stays in the memstore
      assertEquals(2, store(tn).getStorefiles().size());
      for (HStoreFile sf : store(tn).getStorefiles()) {
        assertTrue(RlsmFiles.isRlsm(sf));
      }
      for (Path p : RlsmTestCluster.storeFiles(util, tn, "f")) {
        assertTrue(p + " is not an RLSM file", RlsmTestCluster.isRlsm(util, p));
      }
      for (int i = 0; i < 600; i++) {
        String want = (i < 200 ? "a" : i < 450 ? "b" : "c") + i;
        assertArrayEquals("row " + i, b(want), t.get(new Get(row(i))).getValue(F, Q1));
      }
      assertTrue(t.get(new Get(row(600))).isEmpty());
      assertFalse(t.exists(new Get(b("nothere"))));
      assertEquals(600, count(t, new Scan()));
      List<byte[]> fwd = rows(t, new Scan().withStartRow(row(150)).withStopRow(row(460)));
      assertEquals(310, fwd.size());
      assertArrayEquals(row(150), fwd.get(0));
      assertArrayEquals(row(459), fwd.get(309));
      List<byte[]> rev = rows(t, new Scan().withStartRow(row(459)).withStopRow(row(149))
        .setReversed(true));
      assertEquals(310, rev.size());
      assertArrayEquals(row(459), rev.get(0));
      assertArrayEquals(row(150), rev.get(309));
      List<byte[]> allRev = rows(t, new Scan().setReversed(true));
      assertEquals(600, allRev.size());
      for (int i = 1; i < allRev.size(); i++) {
        assertTrue(Bytes.compareTo(allRev.get(i - 1), allRev.get(i)) > 0);
      }
      // A Get that carries one column and a batch of mixed gets.
      Result r = t.get(new Get(row(250)).addColumn(F, Q2));
      assertEquals(1, r.size());
      assertArrayEquals(b("x250"), r.getValue(F, Q2));
      Result[] many = t.get(List.of(new Get(row(1)), new Get(row(499)), new Get(row(9999))));
      assertArrayEquals(b("a1"), many[0].getValue(F, Q1));
      assertArrayEquals(b("c499"), many[1].getValue(F, Q1));
      assertTrue(many[2].isEmpty());
    }
  }

  @Test
  public void deletesOfEveryKind() throws Exception {
    TableName tn = create(5, Integer.MAX_VALUE);
    try (Table t = util.getConnection().getTable(tn)) {
      for (int v = 1; v <= 3; v++) {
        for (int i = 0; i < 50; i++) {
          t.put(new Put(row(i)).addColumn(F, Q1, v * 10L, b("v" + v))
            .addColumn(F, Q2, v * 10L, b("w" + v)));
        }
        flush(tn);
      }
      t.delete(new Delete(row(1))); // whole row
      t.delete(new Delete(row(2)).addFamily(F)); // family
      t.delete(new Delete(row(3)).addColumn(F, Q1)); // latest version of a column
      t.delete(new Delete(row(4)).addColumns(F, Q1)); // all versions of a column
      t.delete(new Delete(row(5)).addColumn(F, Q1, 20L)); // one version
      t.delete(new Delete(row(6)).addFamilyVersion(F, 30L)); // one version of the family
      t.delete(new Delete(row(7), 20L)); // row up to a timestamp
      for (int round = 0; round < 2; round++) {
        assertTrue(t.get(new Get(row(1))).isEmpty());
        assertTrue(t.get(new Get(row(2))).isEmpty());
        Result r3 = t.get(new Get(row(3)).readAllVersions());
        assertEquals(2, r3.getColumnCells(F, Q1).size());
        assertArrayEquals(b("v2"), r3.getValue(F, Q1));
        Result r4 = t.get(new Get(row(4)).readAllVersions());
        assertTrue(r4.getColumnCells(F, Q1).isEmpty());
        assertEquals(3, r4.getColumnCells(F, Q2).size());
        Result r5 = t.get(new Get(row(5)).readAllVersions());
        List<Cell> c5 = r5.getColumnCells(F, Q1);
        assertEquals(2, c5.size());
        assertEquals(30L, c5.get(0).getTimestamp());
        assertEquals(10L, c5.get(1).getTimestamp());
        Result r6 = t.get(new Get(row(6)).readAllVersions());
        assertEquals(2, r6.getColumnCells(F, Q1).size());
        assertArrayEquals(b("v2"), r6.getValue(F, Q1));
        Result r7 = t.get(new Get(row(7)).readAllVersions());
        assertEquals(1, r7.getColumnCells(F, Q1).size());
        assertArrayEquals(b("v3"), r7.getValue(F, Q1));
        assertEquals(48, count(t, new Scan()));
        flush(tn); // second round reads the delete markers from a file
      }
      // A delete in a file masks newer writes with older timestamps only.
      t.put(new Put(row(1)).addColumn(F, Q1, 5L, b("old")));
      assertTrue(t.get(new Get(row(1))).isEmpty());
      t.put(new Put(row(1)).addColumn(F, Q1, b("new")));
      assertArrayEquals(b("new"), t.get(new Get(row(1))).getValue(F, Q1));
    }
  }

  @Test
  public void incrementAppendCheckAndMutateBatch() throws Exception {
    TableName tn = create();
    try (Table t = util.getConnection().getTable(tn)) {
      byte[] r = row(1);
      for (int i = 0; i < 10; i++) {
        t.increment(new Increment(r).addColumn(F, b("cnt"), 2));
        t.append(new Append(r).addColumn(F, b("log"), b(Integer.toString(i))));
        if (i % 3 == 0) {
          flush(tn);
        }
      }
      Result res = t.get(new Get(r));
      assertEquals(20L, Bytes.toLong(res.getValue(F, b("cnt"))));
      assertArrayEquals(b("0123456789"), res.getValue(F, b("log")));
      flush(tn);
      assertEquals(25L,
        Bytes.toLong(t.increment(new Increment(r).addColumn(F, b("cnt"), 5)).getValue(F,
          b("cnt"))));

      t.put(new Put(row(2)).addColumn(F, Q1, b("a")));
      flush(tn);
      CheckAndMutateResult ok = t.checkAndMutate(CheckAndMutate.newBuilder(row(2))
        .ifEquals(F, Q1, b("a")).build(new Put(row(2)).addColumn(F, Q1, b("b"))));
      assertTrue(ok.isSuccess());
      CheckAndMutateResult no = t.checkAndMutate(CheckAndMutate.newBuilder(row(2))
        .ifEquals(F, Q1, b("a")).build(new Put(row(2)).addColumn(F, Q1, b("c"))));
      assertFalse(no.isSuccess());
      CheckAndMutateResult absent = t.checkAndMutate(CheckAndMutate.newBuilder(row(3))
        .ifNotExists(F, Q1).build(new Put(row(3)).addColumn(F, Q1, b("z"))));
      assertTrue(absent.isSuccess());
      flush(tn);
      CheckAndMutateResult del = t.checkAndMutate(CheckAndMutate.newBuilder(row(2))
        .ifMatches(F, Q1, CompareOperator.EQUAL, b("b")).build(new Delete(row(2))));
      assertTrue(del.isSuccess());
      assertTrue(t.get(new Get(row(2))).isEmpty());
      assertArrayEquals(b("z"), t.get(new Get(row(3))).getValue(F, Q1));

      List<Row> batch = new ArrayList<>();
      batch.add(new Put(row(10)).addColumn(F, Q1, b("p")));
      batch.add(new Increment(row(1)).addColumn(F, b("cnt"), 1));
      batch.add(new Delete(row(3)));
      batch.add(new Get(row(1)));
      Object[] results = new Object[batch.size()];
      t.batch(batch, results);
      assertEquals(26L, Bytes.toLong(((Result) results[1]).getValue(F, b("cnt"))));
      assertArrayEquals(b("p"), t.get(new Get(row(10))).getValue(F, Q1));
      assertTrue(t.get(new Get(row(3))).isEmpty());
    }
  }

  @Test
  public void versionsTtlAndTimeRanges() throws Exception {
    TableName tn = create(3, 3600);
    long now = System.currentTimeMillis();
    try (Table t = util.getConnection().getTable(tn)) {
      for (int v = 1; v <= 5; v++) {
        t.put(new Put(row(1)).addColumn(F, Q1, now - 10_000 + v, b("v" + v)));
        if (v % 2 == 0) {
          flush(tn);
        }
      }
      // Older than the TTL: invisible even though still on disk.
      t.put(new Put(row(2)).addColumn(F, Q1, now - 7_200_000L, b("expired")));
      t.put(new Put(row(3)).addColumn(F, Q1, now - 7_200_000L, b("expired"))
        .addColumn(F, Q2, now, b("fresh")));
      flush(tn);
      for (int round = 0; round < 2; round++) {
        Result all = t.get(new Get(row(1)).readAllVersions());
        List<Cell> cells = all.getColumnCells(F, Q1);
        assertEquals("maxVersions=3 keeps three", 3, cells.size());
        assertArrayEquals(b("v5"), all.getValue(F, Q1));
        assertEquals(2, t.get(new Get(row(1)).readVersions(2)).getColumnCells(F, Q1).size());
        Result tr = t.get(new Get(row(1)).setTimeRange(now - 10_000 + 3, now - 10_000 + 5));
        assertArrayEquals(b("v4"), tr.getValue(F, Q1));
        Result at = t.get(new Get(row(1)).setTimestamp(now - 10_000 + 3));
        assertArrayEquals(b("v3"), at.getValue(F, Q1));
        assertTrue(t.get(new Get(row(1)).setTimeRange(0, 100)).isEmpty());
        assertTrue(t.get(new Get(row(2))).isEmpty());
        Result r3 = t.get(new Get(row(3)));
        assertNull(r3.getValue(F, Q1));
        assertArrayEquals(b("fresh"), r3.getValue(F, Q2));
        assertEquals(2, count(t, new Scan()));
        t.put(new Put(row(9)).addColumn(F, Q1, now - 7_200_000L, b("expired")));
      }
    }
  }

  @Test
  public void filters() throws Exception {
    TableName tn = create();
    try (Table t = util.getConnection().getTable(tn)) {
      for (int i = 0; i < 100; i++) {
        Put p = new Put(b((i % 2 == 0 ? "even-" : "odd-") + String.format("%03d", i)));
        p.addColumn(F, b("colA"), b(i % 10 == 0 ? "ten" : "other"));
        p.addColumn(F, b("colB"), b("b" + i));
        p.addColumn(F, b("other"), b("o" + i));
        t.put(p);
        if (i == 40 || i == 80) {
          flush(tn);
        }
      }
      assertEquals(50, count(t, new Scan().setFilter(new PrefixFilter(b("odd-")))));
      assertEquals(10, count(t, new Scan().setFilter(
        new SingleColumnValueFilter(F, b("colA"), CompareOperator.EQUAL, b("ten")))));
      Scan prefix = new Scan().setFilter(new ColumnPrefixFilter(b("col")));
      try (ResultScanner rs = t.getScanner(prefix)) {
        int n = 0;
        for (Result r : rs) {
          assertEquals(2, r.size());
          assertNull(r.getValue(F, b("other")));
          n++;
        }
        assertEquals(100, n);
      }
      assertEquals(25, count(t, new Scan().setFilter(new PrefixFilter(b("even-")))
        .withStartRow(b("even-050")).setReversed(false)));
      assertEquals(26, count(t, new Scan().setFilter(new PrefixFilter(b("even-")))
        .withStartRow(b("even-050")).setReversed(true)));
    }
  }

  @Test
  public void flushDisableEnableKeepsDataAndSequenceIds() throws Exception {
    TableName tn = create();
    Admin admin = util.getAdmin();
    try (Table t = util.getConnection().getTable(tn)) {
      load(t, 0, 200, "a");
      flush(tn);
      load(t, 100, 300, "b");
      flush(tn);
      long maxSeq = store(tn).getMaxSequenceId().getAsLong();
      assertTrue(maxSeq > 0);
      admin.disableTable(tn);
      admin.enableTable(tn);
      assertEquals(maxSeq, store(tn).getMaxSequenceId().getAsLong());
      assertEquals(2, store(tn).getStorefiles().size());
      for (int i = 0; i < 300; i++) {
        assertArrayEquals(b((i < 100 ? "a" : "b") + i), t.get(new Get(row(i))).getValue(F, Q1));
      }
      assertEquals(300, count(t, new Scan()));
    }
  }

  @Test
  public void bulkLoadedHFileLivesBesideRlsmFiles() throws Exception {
    TableName tn = create();
    FileSystem fs = util.getTestFileSystem();
    Path dir = util.getDataTestDirOnTestFS("bulk-" + name.getMethodName());
    Path famDir = new Path(dir, "f");
    HFileTestUtil.createHFile(util.getConfiguration(), fs, new Path(famDir, "hfile1"), F, b("bq"),
      row(1000), row(1099), 100);
    try (Table t = util.getConnection().getTable(tn)) {
      load(t, 0, 50, "a");
      flush(tn);
      BulkLoadHFiles.create(util.getConfiguration()).bulkLoad(tn, dir);
      int hfiles = 0;
      int rlsm = 0;
      for (HStoreFile sf : store(tn).getStorefiles()) {
        if (RlsmFiles.isRlsm(sf)) {
          rlsm++;
        } else {
          hfiles++;
        }
      }
      assertEquals(1, hfiles);
      assertEquals(1, rlsm);
      assertEquals(150, count(t, new Scan()));
      // HFileTestUtil spreads its 100 rows between the two keys; take one from the HFile.
      List<byte[]> bulkRows = rows(t, new Scan().withStartRow(row(1000)));
      assertEquals(100, bulkRows.size());
      byte[] bulkRow = bulkRows.get(50);
      assertTrue(t.exists(new Get(bulkRow)));
      t.put(new Put(bulkRow).addColumn(F, Q1, b("over")));
      flush(tn);
      Result r = t.get(new Get(bulkRow));
      assertArrayEquals(b("over"), r.getValue(F, Q1));
      assertEquals(2, r.size());
      util.getAdmin().disableTable(tn);
      util.getAdmin().enableTable(tn);
      assertEquals(150, count(t, new Scan()));
    }
  }
}
