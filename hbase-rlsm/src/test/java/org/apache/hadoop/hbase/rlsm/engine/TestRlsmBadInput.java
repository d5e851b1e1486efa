package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.ExtendedCellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.RawCell;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.TagUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RetriesExhaustedException;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RowTooBigException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.codec.KeyValueCodecWithTags;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.rules.TestName;

/**
 * Bad input on RLSM and default-engine tables side by side: HBase's own limits (row length, family
 * names, client and server cell size limits, negative timestamps, empty puts, tag length, maximum
 * row size on reads) must give the same outcome on both engines — the same exception type and
 * message, or the same stored cells — with the data in the memstore, in flushed files and after a
 * major compaction. Values exactly at each limit must be stored and read back intact.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmBadInput {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmBadInput.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  /** Stages of a cell's life at which reads are compared. */
  private static final String[] STAGES = { "memstore", "flushed", "major-compacted" };
  private static final Pattern REGION_NAME =
    Pattern.compile("T,[^,]*,\\d+\\.[0-9a-f]{32}\\.");

  private static final Pattern TABLE_DESCRIPTOR = Pattern.compile("'T', \\{.*");

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1);
  private static final HBaseTestingUtility util = CLUSTER.util();

  @Rule
  public TestName name = new TestName();

  /** One client operation; returns a description of what it read or wrote. */
  private interface Op {
    String run(Table t) throws Exception;
  }

  /** What an operation did on one table: a result description or the exception it raised. */
  private static final class Outcome {
    final String result;
    final Throwable error;

    Outcome(String result, Throwable error) {
      this.result = result;
      this.error = error;
    }

    /** Type and first line of the message, with table and region names made engine-neutral. */
    String describe(TableName tn) {
      if (error == null) {
        return "ok: " + neutral(result, tn);
      }
      // First lines only: remote messages carry the server's stack trace, whose frames differ
      // between the engines' scanner classes.
      String msg = String.valueOf(error.getMessage()).split("\n", 3)[0];
      return error.getClass().getName() + ": " + neutral(msg, tn);
    }

    private static String neutral(String s, TableName tn) {
      String named = REGION_NAME.matcher(s.replace(tn.getNameAsString(), "T")).replaceAll("REGION");
      // Messages that print the table descriptor differ by the engine's own settings.
      return TABLE_DESCRIPTOR.matcher(named).replaceAll("'T', <descriptor>");
    }
  }

  /** The RLSM table and the default-engine table of one test, with the same table values. */
  private final class Pair {
    final TableName rlsm;
    final TableName dflt;

    Pair(Map<String, String> tableValues) throws Exception {
      this("", tableValues);
    }

    Pair(String suffix, Map<String, String> tableValues) throws Exception {
      rlsm = TableName.valueOf(name.getMethodName() + suffix + "_rlsm");
      dflt = TableName.valueOf(name.getMethodName() + suffix + "_default");
      TableDescriptorBuilder r = RlsmTables.configure(TableDescriptorBuilder.newBuilder(rlsm))
        .setColumnFamily(RlsmTables.familyBuilder(F).build());
      TableDescriptorBuilder d = TableDescriptorBuilder.newBuilder(dflt)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F));
      tableValues.forEach((k, v) -> {
        r.setValue(k, v);
        d.setValue(k, v);
      });
      util.getAdmin().createTable(r.build());
      util.getAdmin().createTable(d.build());
    }

    /** Runs {@code op} on both tables, asserts the outcomes are equal and returns the default's. */
    Outcome same(Connection conn, Op op) throws Exception {
      Outcome onDefault = run(conn, dflt, op);
      Outcome onRlsm = run(conn, rlsm, op);
      assertEquals("RLSM and the default engine differ", onDefault.describe(dflt),
        onRlsm.describe(rlsm));
      return onDefault;
    }

    Outcome same(Op op) throws Exception {
      return same(util.getConnection(), op);
    }

    /** Runs {@code read} in each stage: memstore, after a flush, after a major compaction. */
    void sameInEveryStage(Connection conn, Op read, String expected) throws Exception {
      for (String stage : STAGES) {
        enter(stage);
        Outcome o = same(conn, read);
        assertEquals("stage " + stage + (o.error == null ? "" : ", " + o.error.getMessage()),
          expected, o.describe(dflt));
      }
      assertTrue("the RLSM table must hold RLSM files", rlsmFiles() > 0);
    }

    /** Moves both tables' data to {@code stage}: flushed files, then one major-compacted set. */
    void enter(String stage) throws Exception {
      if (stage.equals("flushed")) {
        util.getAdmin().flush(rlsm);
        util.getAdmin().flush(dflt);
      } else if (stage.equals("major-compacted")) {
        util.compact(rlsm, true);
        util.compact(dflt, true);
      }
    }

    private int rlsmFiles() throws Exception {
      int n = 0;
      for (org.apache.hadoop.fs.Path p : RlsmTestCluster.storeFiles(util, rlsm, "f")) {
        n += RlsmTestCluster.isRlsm(util, p) ? 1 : 0;
      }
      return n;
    }
  }

  private static Outcome run(Connection conn, TableName tn, Op op) {
    try (Table t = conn.getTable(tn)) {
      return new Outcome(op.run(t), null);
    } catch (Exception e) {
      return new Outcome(null, e);
    }
  }

  private static String cells(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      out.add(Bytes.toStringBinary(CellUtil.cloneQualifier(c)) + "/" + c.getTimestamp() + "/"
        + c.getRowLength() + "/" + c.getValueLength() + "/"
        + Arrays.hashCode(CellUtil.cloneValue(c)) + "/tags=" + c.getTagsLength());
    }
    return out.toString();
  }

  private static String scanAll(Table t) throws Exception {
    List<String> out = new ArrayList<>();
    try (ResultScanner rs = t.getScanner(new Scan())) {
      for (Result r = rs.next(); r != null; r = rs.next()) {
        out.add(cells(r));
      }
    }
    return out.toString();
  }

  private static void assertError(Outcome o, Class<?> type, String message) {
    assertNotNull("expected " + type.getSimpleName() + ", got " + o.result, o.error);
    assertTrue("expected " + type.getName() + ", got " + o.error, type.isInstance(o.error));
    assertTrue("message: " + o.error.getMessage(),
      String.valueOf(o.error.getMessage()).contains(message));
  }

  @Test
  public void emptyRow() throws Exception {
    Pair p = new Pair(Map.of());
    assertError(p.same(t -> {
      t.put(new Put(new byte[0]).addColumn(F, Q, Bytes.toBytes("v")));
      return "put";
    }), IllegalArgumentException.class, "Row length is 0");
    assertError(p.same(t -> cells(t.get(new Get(new byte[0])))), IllegalArgumentException.class,
      "Row length is 0");
    assertEquals("ok: []", p.same(TestRlsmBadInput::scanAll).describe(p.dflt));
  }

  @Test
  public void rowLengthLimit() throws Exception {
    Pair p = new Pair(Map.of());
    // Clients find a row's region by a meta row key made of table name, row and a suffix, which
    // must itself fit in 32,767 bytes: the longest row a client reaches is shorter than that.
    int clientLongest = HConstants.MAX_ROW_LENGTH
      - (RegionInfo.createRegionName(p.dflt, new byte[0], HConstants.NINES, false).length);
    byte[] reachable = filled(clientLongest, 'c');
    p.same(t -> {
      t.put(new Put(reachable).addColumn(F, Q, 7L, Bytes.toBytes("reachable")));
      t.put(new Put(Bytes.toBytes("short")).addColumn(F, Q, 7L, Bytes.toBytes("short")));
      return "put";
    });
    assertError(p.same(t -> {
      t.put(new Put(filled(HConstants.MAX_ROW_LENGTH + 1, 'r')).addColumn(F, Q, bytes("v")));
      return "put";
    }), IllegalArgumentException.class, "Row length 32768 is > 32767");
    assertError(p.same(t -> cells(t.get(new Get(filled(HConstants.MAX_ROW_LENGTH + 1, 'r'))))),
      IllegalArgumentException.class, "Row length 32768 is > 32767");
    Configuration once = new Configuration(util.getConfiguration());
    once.setInt("hbase.client.retries.number", 1);
    try (Connection c = ConnectionFactory.createConnection(once)) {
      assertError(p.same(c, t -> {
        t.put(new Put(filled(HConstants.MAX_ROW_LENGTH, 'r')).addColumn(F, Q, bytes("v")));
        return "put";
      }), RetriesExhaustedException.class, "Failed after attempts=2");
    }
    // A row of exactly 32,767 bytes still reaches the store through the region API (as
    // coprocessors, bulk loads and replication do); both engines keep it through flush and
    // major compaction.
    byte[] longest = filled(HConstants.MAX_ROW_LENGTH, 'r');
    List<String> seen = new ArrayList<>();
    for (TableName tn : new TableName[] { p.dflt, p.rlsm }) {
      HRegion region = util.getHBaseCluster().getRegions(tn).get(0);
      region.put(new Put(longest).addColumn(F, Q, 7L, bytes("longest")));
      String inMemstore = cells(region.get(new Get(longest)));
      region.flush(true);
      String flushed = cells(region.get(new Get(longest)));
      region.compact(true);
      seen.add(inMemstore + flushed + cells(region.get(new Get(longest))));
    }
    String one = "[q/7/32767/7/" + Arrays.hashCode(bytes("longest")) + "/tags=0]";
    assertEquals(List.of(one + one + one, one + one + one), seen);
    String expected = "ok: [q/7/" + clientLongest + "/9/" + Arrays.hashCode(bytes("reachable"))
      + "/tags=0]";
    p.sameInEveryStage(util.getConnection(), t -> cells(t.get(new Get(reachable))), expected);
    assertEquals("ok: [[q/7/" + clientLongest + "/9/" + Arrays.hashCode(bytes("reachable"))
      + "/tags=0], [q/7/32767/7/" + Arrays.hashCode(bytes("longest")) + "/tags=0], [q/7/5/5/"
      + Arrays.hashCode(bytes("short")) + "/tags=0]]",
      p.same(TestRlsmBadInput::scanAll).describe(p.dflt));
  }

  private static byte[] filled(int length, char c) {
    byte[] b = new byte[length];
    Arrays.fill(b, (byte) c);
    return b;
  }

  private static byte[] bytes(String s) {
    return Bytes.toBytes(s);
  }

  @Test
  public void familyNameRules() throws Exception {
    for (String bad : new String[] { "", ".f", "a:b", "a/b", "a\\b", "a\tb",
      "recovered.edits" }) {
      byte[] fam = Bytes.toBytes(bad);
      String onDefault = outcomeOf(() -> ColumnFamilyDescriptorBuilder.newBuilder(fam).build());
      String onRlsm = outcomeOf(() -> RlsmTables.familyBuilder(fam).build());
      assertEquals("family name '" + bad + "'", onDefault, onRlsm);
      assertTrue(onDefault, onDefault.startsWith(IllegalArgumentException.class.getName()));
    }
    Pair p = new Pair(Map.of());
    assertError(p.same(t -> {
      t.put(new Put(Bytes.toBytes("r")).addColumn(Bytes.toBytes("nofamily"), Q,
        Bytes.toBytes("v")));
      return "put";
    }), NoSuchColumnFamilyException.class, "Column family nofamily does not exist");
    assertError(p.same(t -> cells(t.get(new Get(Bytes.toBytes("r"))
      .addFamily(Bytes.toBytes("nofamily"))))), NoSuchColumnFamilyException.class, "nofamily");
  }

  private static String outcomeOf(Runnable r) {
    try {
      r.run();
      return "ok";
    } catch (RuntimeException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }

  @Test
  public void clientKeyValueMaxSize() throws Exception {
    Pair p = new Pair(Map.of());
    Configuration conf = new Configuration(util.getConfiguration());
    conf.setInt("hbase.client.keyvalue.maxsize", 1024);
    try (Connection small = ConnectionFactory.createConnection(conf)) {
      Cell probe = new Put(Bytes.toBytes("r")).addColumn(F, Q, 1L, new byte[0]).get(F, Q).get(0);
      int fits = 1024 - probe.getSerializedSize();
      p.same(small, t -> {
        t.put(new Put(Bytes.toBytes("r")).addColumn(F, Q, 1L, new byte[fits]));
        return "put";
      });
      assertError(p.same(small, t -> {
        t.put(new Put(Bytes.toBytes("r")).addColumn(F, Q, 2L, new byte[fits + 1]));
        return "put";
      }), IllegalArgumentException.class, "KeyValue size too large");
      p.sameInEveryStage(small, t -> cells(t.get(new Get(Bytes.toBytes("r")))),
        "ok: [q/1/1/" + fits + "/" + Arrays.hashCode(new byte[fits]) + "/tags=0]");
    }
  }

  @Test
  public void serverKeyValueMaxSize() throws Exception {
    Pair p = new Pair(Map.of(HRegion.HBASE_MAX_CELL_SIZE_KEY, "4096"));
    Put probe = new Put(Bytes.toBytes("r")).addColumn(F, Q, 1L, new byte[0]);
    int fits = 4096 - PrivateCellUtil.estimatedSerializedSizeOf(probe.get(F, Q).get(0));
    p.same(t -> {
      t.put(new Put(Bytes.toBytes("r")).addColumn(F, Q, 1L, new byte[fits]));
      return "put";
    });
    assertError(p.same(t -> {
      t.put(new Put(Bytes.toBytes("r")).addColumn(F, Q, 2L, new byte[fits + 1]));
      return "put";
    }), DoNotRetryIOException.class, "exceeds limit of 4096 bytes");
    assertError(p.same(t -> {
      t.put(List.of(new Put(Bytes.toBytes("s")).addColumn(F, Q, 3L, new byte[8192])));
      return "batch";
    }), RetriesExhaustedWithDetailsException.class, "exceeds limit of 4096 bytes");
    p.sameInEveryStage(util.getConnection(), TestRlsmBadInput::scanAll,
      "ok: [[q/1/1/" + fits + "/" + Arrays.hashCode(new byte[fits]) + "/tags=0]]");
  }

  @Test
  public void negativeTimestamps() throws Exception {
    Pair p = new Pair(Map.of());
    assertError(p.same(t -> {
      t.put(new Put(Bytes.toBytes("r")).addColumn(F, Q, -1L, Bytes.toBytes("v")));
      return "put";
    }), IllegalArgumentException.class, "Timestamp cannot be negative. ts=-1");
    assertError(p.same(t -> {
      t.put(new Put(Bytes.toBytes("r"), -5L));
      return "put";
    }), IllegalArgumentException.class, "Timestamp cannot be negative. ts=-5");
    assertError(p.same(t -> {
      t.delete(new Delete(Bytes.toBytes("r")).addColumn(F, Q, -1L));
      return "delete";
    }), IllegalArgumentException.class, "Timestamp cannot be negative. ts=-1");
    assertError(p.same(t -> cells(t.get(new Get(Bytes.toBytes("r")).setTimestamp(-1L)))),
      IllegalArgumentException.class, "Timestamp cannot be negative. minStamp:-1, maxStamp:0");
    p.same(t -> {
      t.put(new Put(Bytes.toBytes("r")).addColumn(F, Q, 0L, Bytes.toBytes("zero")));
      return "put";
    });
    p.sameInEveryStage(util.getConnection(), t -> cells(t.get(new Get(Bytes.toBytes("r")))),
      "ok: [q/0/1/4/" + Arrays.hashCode(Bytes.toBytes("zero")) + "/tags=0]");
  }

  @Test
  public void emptyPut() throws Exception {
    Pair p = new Pair(Map.of());
    assertError(p.same(t -> {
      t.put(new Put(Bytes.toBytes("r")));
      return "put";
    }), IllegalArgumentException.class, "No columns to insert");
    assertError(p.same(t -> {
      t.put(List.of(new Put(Bytes.toBytes("a")).addColumn(F, Q, Bytes.toBytes("v")),
        new Put(Bytes.toBytes("b"))));
      return "batch";
    }), IllegalArgumentException.class, "No columns to insert");
    assertEquals("ok: []", p.same(TestRlsmBadInput::scanAll).describe(p.dflt));
  }

  @Test
  public void tagLengthLimit() throws Exception {
    Pair p = new Pair(Map.of());
    Configuration conf = new Configuration(util.getConfiguration());
    conf.set("hbase.client.rpc.codec", KeyValueCodecWithTags.class.getName());
    conf.setInt("hbase.client.retries.number", 1);
    // HBase accepts up to 65,535 tag bytes (RawCell.MAX_TAGS_LENGTH) on write, but its own
    // KeyValue check reads the tags length as a signed short and its tag iterator (used by every
    // flush and compaction matcher) refuses tags over 65,533 bytes, so 32,767 bytes is the most a
    // cell can carry through reads, flushes and compactions. Beyond that both engines fail alike
    // on reads and compactions, so such a cell goes to a table pair that is never compacted.
    byte[] readable = tags(Short.MAX_VALUE);
    byte[] longest = tags(RawCell.MAX_TAGS_LENGTH);
    try (Connection tagged = ConnectionFactory.createConnection(conf)) {
      p.same(tagged, t -> putTagged(t, "r", readable));
      assertError(p.same(tagged, t -> putTagged(t, "r", new byte[longest.length + 1])),
        IllegalArgumentException.class, "tagslength 65536 > 65535");
      Pair beyond = new Pair("_beyond", Map.of());
      beyond.same(tagged, t -> putTagged(t, "big", longest));
      beyond.same(tagged, t -> cells(t.get(new Get(Bytes.toBytes("big")))));
      beyond.same(tagged, t -> cells(util.getHBaseCluster().getRegions(t.getName()).get(0)
        .get(new Get(Bytes.toBytes("big")))));
      // Clients never get tags back; the store's own reads show they were kept.
      p.sameInEveryStage(util.getConnection(), t -> cells(t.get(new Get(Bytes.toBytes("r"))))
        + cells(util.getHBaseCluster().getRegions(t.getName()).get(0)
          .get(new Get(Bytes.toBytes("r")))),
        "ok: [q/5/1/6/" + Arrays.hashCode(bytes("tagged")) + "/tags=0][q/5/1/6/"
          + Arrays.hashCode(bytes("tagged")) + "/tags=" + Short.MAX_VALUE + "]");
    }
  }

  /** Serialized tags of exactly {@code length} bytes: one tag, 3 bytes of framing. */
  private static byte[] tags(int length) {
    byte[] t = TagUtil.fromList(
      List.of(new ArrayBackedTag((byte) 64, new byte[length - Tag.INFRASTRUCTURE_SIZE])));
    assertEquals(length, t.length);
    return t;
  }

  private static String putTagged(Table t, String row, byte[] tags) throws Exception {
    Cell c = ExtendedCellBuilderFactory.create(CellBuilderType.DEEP_COPY)
      .setRow(Bytes.toBytes(row)).setFamily(F).setQualifier(Q).setTimestamp(5L)
      .setType(Cell.Type.Put).setValue(Bytes.toBytes("tagged")).setTags(tags).build();
    // A batch travels in a cell block, which keeps tags (a single put's protobuf drops them).
    t.batch(List.of(new Put(Bytes.toBytes(row)).add(c)), new Object[1]);
    return "put";
  }

  @Test
  public void maxRowSizeOnReads() throws Exception {
    Pair p = new Pair(Map.of("hbase.table.max.rowsize", "10000"));
    p.same(t -> {
      List<Put> puts = new ArrayList<>();
      Put wide = new Put(Bytes.toBytes("wide"));
      for (int i = 0; i < 20; i++) {
        wide.addColumn(F, Bytes.toBytes("q" + i), 9L, new byte[1000]);
      }
      puts.add(wide);
      puts.add(new Put(Bytes.toBytes("narrow")).addColumn(F, Q, 9L, new byte[100]));
      t.put(puts);
      return "put";
    });
    for (String stage : STAGES) {
      p.enter(stage);
      assertError(p.same(t -> cells(t.get(new Get(Bytes.toBytes("wide"))))),
        RowTooBigException.class, "Max row size allowed: 10000");
      assertError(p.same(TestRlsmBadInput::scanAll), RowTooBigException.class,
        "Max row size allowed: 10000");
      assertEquals(stage, "ok: [q/9/6/100/" + Arrays.hashCode(new byte[100]) + "/tags=0]",
        p.same(t -> cells(t.get(new Get(Bytes.toBytes("narrow"))))).describe(p.dflt));
    }
    assertTrue(p.rlsmFiles() > 0);
  }

  @Test
  public void incrementOfNonLongValue() throws Exception {
    Pair p = new Pair(Map.of());
    p.same(t -> {
      t.put(new Put(Bytes.toBytes("r")).addColumn(F, Q, Bytes.toBytes("abc")));
      return "put";
    });
    for (String stage : STAGES) {
      p.enter(stage);
      assertError(p.same(t -> cells(t.increment(new Increment(Bytes.toBytes("r"))
        .addColumn(F, Q, 1L)))), DoNotRetryIOException.class, "Field is not a long");
    }
  }
}
