package org.apache.hadoop.hbase.rlsm.ycsb;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;
import site.ycsb.measurements.Measurements;

/**
 * Every operation of the binding and its status codes against a mini cluster, on a table whose
 * family uses the RLSM engine and on one with HBase's default engine; client-side buffering, the
 * shared connection, and init's checks of table and family.
 */
public class TestRlsmHBaseClient {
  private static final List<String> TABLES =
    Arrays.asList(YcsbTables.RLSM_TABLE, YcsbTables.DEFAULT_TABLE);
  @ClassRule
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1);
  private static HBaseTestingUtility util;

  @BeforeClass
  public static void setUp() throws Exception {
    // site.ycsb.Client does this before any binding runs; cleanup() measures into it.
    Measurements.setProperties(new Properties());
    util = CLUSTER.util();
    YcsbTables.create(util);
  }

  private static Properties props(String table) {
    return YcsbTables.properties(util, table);
  }

  /** Ten fields "field0".."field9" whose values name the key, the field and a version. */
  private static Map<String, ByteIterator> record(String key, String version) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < 10; i++) {
      m.put("field" + i, key + "/field" + i + "/" + version);
    }
    return StringByteIterator.getByteIteratorMap(m);
  }

  private static Map<String, String> strings(Map<String, ByteIterator> m) {
    Map<String, String> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  private static Map<String, String> expected(String key, String version) {
    return strings(record(key, version));
  }

  @Test
  public void insertReadUpdateDelete() throws Exception {
    for (String table : TABLES) {
      RlsmHBaseClient c = YcsbTables.client(props(table));
      try {
        assertEquals(table, Status.OK, c.insert(table, "user1", record("user1", "v1")));

        Map<String, ByteIterator> all = new HashMap<>();
        assertEquals(table, Status.OK, c.read(table, "user1", null, all));
        assertEquals(table, expected("user1", "v1"), strings(all));

        Map<String, ByteIterator> some = new HashMap<>();
        Set<String> fields = new HashSet<>(Arrays.asList("field2", "field7"));
        assertEquals(table, Status.OK, c.read(table, "user1", fields, some));
        assertEquals(table, fields, some.keySet());
        assertEquals(table, "user1/field7/v1", some.get("field7").toString());

        // An update writes only its fields; the others keep their values.
        Map<String, String> one = new HashMap<>();
        one.put("field3", "new3");
        assertEquals(table, Status.OK,
          c.update(table, "user1", StringByteIterator.getByteIteratorMap(one)));
        Map<String, String> want = expected("user1", "v1");
        want.put("field3", "new3");
        all.clear();
        assertEquals(table, Status.OK, c.read(table, "user1", null, all));
        assertEquals(table, want, strings(all));

        assertEquals(table, Status.OK, c.delete(table, "user1"));
        all.clear();
        assertEquals(table, Status.NOT_FOUND, c.read(table, "user1", null, all));
        assertTrue(table, all.isEmpty());
      } finally {
        c.cleanup();
      }
    }
  }

  @Test
  public void readOfMissingRowOrFieldIsNotFound() throws Exception {
    for (String table : TABLES) {
      RlsmHBaseClient c = YcsbTables.client(props(table));
      try {
        Map<String, ByteIterator> out = new HashMap<>();
        assertEquals(table, Status.NOT_FOUND, c.read(table, "never-written", null, out));
        assertTrue(out.isEmpty());
        assertEquals(table, Status.OK, c.insert(table, "partial", record("partial", "v1")));
        assertEquals(table, Status.NOT_FOUND,
          c.read(table, "partial", new HashSet<>(Arrays.asList("nosuchfield")), out));
        // A delete of a row that does not exist is not an error in HBase, nor here.
        assertEquals(table, Status.OK, c.delete(table, "never-written"));
      } finally {
        c.cleanup();
      }
    }
  }

  @Test
  public void scanReturnsRowsInKeyOrderUpToTheCount() throws Exception {
    for (boolean pageFilter : new boolean[] { true, false }) {
      for (String table : TABLES) {
        Properties p = props(table);
        p.setProperty(YcsbBindingConfig.USE_PAGE_FILTER_KEY, Boolean.toString(pageFilter));
        RlsmHBaseClient c = YcsbTables.client(p);
        String what = table + " pagefilter=" + pageFilter;
        try {
          for (int i = 0; i < 20; i++) {
            String key = String.format("scan%02d", i);
            assertEquals(what, Status.OK, c.insert(table, key, record(key, "s")));
          }
          Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
          assertEquals(what, Status.OK, c.scan(table, "scan05", 5, null, rows));
          assertEquals(what, 5, rows.size());
          for (int i = 0; i < 5; i++) {
            String key = String.format("scan%02d", i + 5);
            assertEquals(what, expected(key, "s"), strings(rows.get(i)));
          }

          rows.clear();
          Set<String> fields = new HashSet<>(Arrays.asList("field1"));
          assertEquals(what, Status.OK, c.scan(table, "scan18", 10, fields, rows));
          assertEquals(what, 2, rows.size()); // only scan18 and scan19 are left
          assertEquals(what, fields, rows.get(0).keySet());
          assertEquals(what, "scan19/field1/s", rows.get(1).get("field1").toString());

          rows.clear();
          assertEquals(what, Status.BAD_REQUEST, c.scan(table, "scan00", 0, null, rows));
          assertTrue(rows.isEmpty());
          for (int i = 0; i < 20; i++) {
            assertEquals(what, Status.OK, c.delete(table, String.format("scan%02d", i)));
          }
        } finally {
          c.cleanup();
        }
      }
    }
  }

  @Test
  public void badRequestsAndErrors() throws Exception {
    for (String table : TABLES) {
      RlsmHBaseClient c = YcsbTables.client(props(table));
      try {
        assertEquals(table, Status.BAD_REQUEST, c.insert(table, "empty", new HashMap<>()));
        assertEquals(table, Status.BAD_REQUEST, c.update(table, "empty", new HashMap<>()));
        // An operation on a table that is not there fails in HBase: ERROR, logged.
        assertEquals(table, Status.ERROR, c.read("nosuchtable", "k", null, new HashMap<>()));
        assertEquals(table, Status.ERROR, c.insert("nosuchtable", "k", record("k", "v")));
        // The client switches back to the configured table and keeps working.
        assertEquals(table, Status.OK, c.insert(table, "after-error", record("after-error", "v")));
        assertEquals(table, Status.OK, c.read(table, "after-error", null, new HashMap<>()));
      } finally {
        c.cleanup();
      }
    }
  }

  @Test
  public void clientBufferingHoldsWritesUntilCleanup() throws Exception {
    for (String table : TABLES) {
      Properties p = props(table);
      p.setProperty(YcsbBindingConfig.CLIENT_BUFFERING_KEY, "true");
      p.setProperty(YcsbBindingConfig.DURABILITY_KEY, "ASYNC_WAL");
      RlsmHBaseClient buffered = YcsbTables.client(p);
      RlsmHBaseClient reader = YcsbTables.client(props(table));
      try {
        assertEquals(table, Status.OK, buffered.insert(table, "buf1", record("buf1", "b")));
        assertEquals(table, Status.OK, buffered.delete(table, "buf0"));
        // 1 KB in a 12 MB buffer with no periodic flush: not on the server yet.
        assertEquals(table, Status.NOT_FOUND, reader.read(table, "buf1", null, new HashMap<>()));
        buffered.cleanup();
        buffered = null;
        Map<String, ByteIterator> out = new HashMap<>();
        assertEquals(table, Status.OK, reader.read(table, "buf1", null, out));
        assertEquals(table, expected("buf1", "b"), strings(out));
      } finally {
        if (buffered != null) {
          buffered.cleanup();
        }
        reader.cleanup();
      }
    }
  }

  @Test
  public void durabilitySkipWalStillWrites() throws Exception {
    for (String table : TABLES) {
      Properties p = props(table);
      p.setProperty(YcsbBindingConfig.DURABILITY_KEY, "SKIP_WAL");
      RlsmHBaseClient c = YcsbTables.client(p);
      try {
        assertEquals(table, Status.OK, c.insert(table, "nowal", record("nowal", "w")));
      } finally {
        c.cleanup();
      }
      // Read back outside the binding, so the write is known to have reached the region.
      try (Table t = util.getConnection().getTable(TableName.valueOf(table))) {
        Result r = t.get(new Get(Bytes.toBytes("nowal")));
        assertEquals(table, "nowal/field4/w", Bytes.toString(
          r.getValue(Bytes.toBytes(YcsbTables.FAMILY), Bytes.toBytes("field4"))));
      }
    }
  }

  @Test
  public void threadsShareOneConnectionClosedByTheLast() throws Exception {
    YcsbBindingConfig conf = YcsbBindingConfig.parse(props(YcsbTables.RLSM_TABLE));
    SharedConnection first = SharedConnection.acquire(conf.hbaseConfiguration());
    SharedConnection second = SharedConnection.acquire(conf.hbaseConfiguration());
    assertSame(first, second);
    Connection conn = first.connection();
    RlsmHBaseClient a = YcsbTables.client(props(YcsbTables.RLSM_TABLE));
    RlsmHBaseClient b = YcsbTables.client(props(YcsbTables.DEFAULT_TABLE));
    a.cleanup();
    // b still works after a has cleaned up.
    assertEquals(Status.OK, b.insert(YcsbTables.DEFAULT_TABLE, "shared", record("s", "1")));
    b.cleanup();
    first.release();
    assertFalse(conn.isClosed());
    second.release();
    assertTrue(conn.isClosed());
    try {
      second.release();
      fail("a release without an acquire must be refused");
    } catch (IllegalStateException expected) {
      // the count would go negative
    }
    // A client started after the last release gets a fresh connection.
    RlsmHBaseClient c = YcsbTables.client(props(YcsbTables.RLSM_TABLE));
    try {
      assertEquals(Status.NOT_FOUND,
        c.read(YcsbTables.RLSM_TABLE, "nothing-here", null, new HashMap<>()));
    } finally {
      c.cleanup();
    }
  }

  @Test
  public void initChecksTableAndFamily() throws Exception {
    assertInitFails(props("no_such_table"), "table no_such_table does not exist");
    Properties p = props(YcsbTables.RLSM_TABLE);
    p.setProperty(YcsbBindingConfig.COLUMN_FAMILY_KEY, "nosuchfamily");
    assertInitFails(p, "has no column family 'nosuchfamily'");
    // A failed init released its connection use: a later client still connects and works.
    RlsmHBaseClient c = YcsbTables.client(props(YcsbTables.RLSM_TABLE));
    try {
      assertEquals(Status.OK,
        c.insert(YcsbTables.RLSM_TABLE, "init", record("init", "1")));
    } finally {
      c.cleanup();
    }
  }

  static void assertInitFails(Properties p, String message) {
    RlsmHBaseClient c = new RlsmHBaseClient();
    c.setProperties(p);
    try {
      c.init();
      fail("init should have failed with '" + message + "'");
    } catch (DBException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(message));
    }
  }
}
