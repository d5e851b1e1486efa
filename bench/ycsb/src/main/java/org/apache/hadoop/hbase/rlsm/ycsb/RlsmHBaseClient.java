package org.apache.hadoop.hbase.rlsm.ycsb;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;

/**
 * YCSB binding for HBase 2.6 tables, whatever their store engine: one instance per YCSB client
 * thread, all of them sharing one connection per cluster ({@link SharedConnection}). A YCSB
 * record is one row; its fields are the qualifiers of the family {@code columnfamily}.
 *
 * <p>Status codes, as upstream YCSB's hbase2 binding: OK; NOT_FOUND for a read of a row that has
 * none of the asked fields; BAD_REQUEST for a request HBase refuses as malformed (no fields to
 * write, a scan of fewer than one row); ERROR for a failed call, whose exception is logged.
 * With {@code clientbuffering=true} a put or delete is OK once buffered; a later failure of the
 * buffer's flush is reported as ERROR by the operation (or the clean-up) that flushes it.
 */
public class RlsmHBaseClient extends DB {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmHBaseClient.class);

  private YcsbBindingConfig config;
  private byte[] family;
  private SharedConnection shared;
  /** The table of the last operation (YCSB names it in every call; it rarely changes). */
  private String tableName;
  private Table table;
  /** Non-null exactly when clientbuffering is on. */
  private BufferedMutator mutator;

  @Override
  public void init() throws DBException {
    config = YcsbBindingConfig.parse(getProperties());
    family = Bytes.toBytes(config.family());
    try {
      shared = SharedConnection.acquire(config.hbaseConfiguration());
    } catch (IOException e) {
      throw new DBException("cannot connect to HBase: " + e, e);
    }
    try {
      // Fail now rather than with one ERROR per operation: a missing table or family is a
      // set-up mistake, and YCSB would otherwise run the whole workload against it.
      checkTable(TableName.valueOf(config.table()));
      open(config.table());
    } catch (DBException e) {
      closeQuietly();
      throw e;
    } catch (IOException | RuntimeException e) {
      closeQuietly();
      throw new DBException("cannot open table " + config.table() + ": " + e, e);
    }
  }

  private void checkTable(TableName name) throws IOException, DBException {
    TableDescriptor td;
    try (Admin admin = shared.connection().getAdmin()) {
      td = admin.getDescriptor(name);
    } catch (TableNotFoundException e) {
      throw new DBException("table " + name + " does not exist: create it first (for the"
        + " standalone server: bin/create-table " + name + " " + config.family() + ")");
    }
    if (!td.hasColumnFamily(family)) {
      throw new DBException("table " + name + " has no column family '" + config.family()
        + "' (" + YcsbBindingConfig.COLUMN_FAMILY_KEY + "); it has "
        + td.getColumnFamilyNames().stream().map(Bytes::toString).toList());
    }
  }

  /** Makes {@code name} the table of the following operations. */
  private void open(String name) throws IOException {
    closeTable();
    TableName tn = TableName.valueOf(name);
    table = shared.connection().getTable(tn);
    if (config.clientBuffering()) {
      mutator = shared.connection()
        .getBufferedMutator(new BufferedMutatorParams(tn).writeBufferSize(config.writeBufferSize()));
    }
    tableName = name;
  }

  /** Flushes buffered writes and closes the current table. */
  private void closeTable() throws IOException {
    try {
      if (mutator != null) {
        mutator.close();
      }
    } finally {
      mutator = null;
      if (table != null) {
        table.close();
      }
      table = null;
      tableName = null;
    }
  }

  private void closeQuietly() {
    try {
      closeTable();
    } catch (IOException e) {
      LOG.warn("closing table {} failed", tableName, e);
    }
    try {
      shared.release();
    } catch (IOException e) {
      LOG.warn("closing the HBase connection failed", e);
    }
    shared = null;
  }

  @Override
  public void cleanup() throws DBException {
    if (shared == null) {
      return; // init failed and already released everything
    }
    // With client buffering the final flush is write latency, so it is measured as an UPDATE
    // (as upstream does); YCSB's DBWrapper measures the whole clean-up as CLEANUP itself.
    long start = System.nanoTime();
    try {
      closeTable();
    } catch (IOException e) {
      throw new DBException("flushing or closing table " + tableName + " failed: " + e, e);
    } finally {
      if (config.clientBuffering()) {
        long micros = (System.nanoTime() - start) / 1000;
        Measurements.getMeasurements().measure("UPDATE", (int) Math.min(micros, Integer.MAX_VALUE));
      }
      try {
        shared.release();
      } catch (IOException e) {
        LOG.warn("closing the HBase connection failed", e);
      }
      shared = null;
    }
  }

  /** The table for an operation on {@code name}, switching to it if needed. */
  private Table tableFor(String name) throws IOException {
    if (!name.equals(tableName)) {
      open(name);
    }
    return table;
  }

  @Override
  public Status read(String tableName, String key, Set<String> fields,
    Map<String, ByteIterator> result) {
    Get get = new Get(Bytes.toBytes(key));
    if (fields == null) {
      get.addFamily(family);
    } else {
      for (String f : fields) {
        get.addColumn(family, Bytes.toBytes(f));
      }
    }
    Result r;
    try {
      r = tableFor(tableName).get(get);
    } catch (IOException e) {
      return failed("read", tableName, key, e);
    }
    if (r.isEmpty()) {
      debug("read {} {}: not found", tableName, key);
      return Status.NOT_FOUND;
    }
    putFields(r, result);
    debug("read {} {}: {} fields", tableName, key, result.size());
    return Status.OK;
  }

  @Override
  public Status scan(String tableName, String startKey, int recordCount, Set<String> fields,
    Vector<HashMap<String, ByteIterator>> result) {
    if (recordCount < 1) {
      LOG.error("scan of {} from {}: record count must be at least 1, got {}", tableName,
        startKey, recordCount);
      return Status.BAD_REQUEST;
    }
    Scan scan = new Scan().withStartRow(Bytes.toBytes(startKey)).setLimit(recordCount)
      .setCaching(recordCount);
    if (config.usePageFilter()) {
      // The limit stops the client; the page filter also stops each region server early.
      scan.setFilter(new PageFilter(recordCount));
    }
    if (fields == null) {
      scan.addFamily(family);
    } else {
      for (String f : fields) {
        scan.addColumn(family, Bytes.toBytes(f));
      }
    }
    try (ResultScanner scanner = tableFor(tableName).getScanner(scan)) {
      for (Result r = scanner.next(); r != null && result.size() < recordCount;
        r = scanner.next()) {
        HashMap<String, ByteIterator> row = new HashMap<>();
        putFields(r, row);
        result.add(row);
      }
    } catch (IOException e) {
      return failed("scan", tableName, startKey, e);
    }
    debug("scan {} from {}: {} rows", tableName, startKey, result.size());
    return Status.OK;
  }

  private void putFields(Result r, Map<String, ByteIterator> out) {
    while (r.advance()) {
      Cell c = r.current();
      out.put(Bytes.toString(CellUtil.cloneQualifier(c)),
        new ByteArrayByteIterator(CellUtil.cloneValue(c)));
    }
  }

  @Override
  public Status update(String tableName, String key, Map<String, ByteIterator> values) {
    if (values.isEmpty()) {
      LOG.error("write of {} {}: no fields to write", tableName, key);
      return Status.BAD_REQUEST;
    }
    Put put = new Put(Bytes.toBytes(key));
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      put.addColumn(family, Bytes.toBytes(e.getKey()), e.getValue().toArray());
    }
    return mutate("write", tableName, key, put);
  }

  @Override
  public Status insert(String tableName, String key, Map<String, ByteIterator> values) {
    return update(tableName, key, values);
  }

  @Override
  public Status delete(String tableName, String key) {
    return mutate("delete", tableName, key, new Delete(Bytes.toBytes(key)));
  }

  private Status mutate(String what, String tableName, String key, Mutation m) {
    m.setDurability(config.durability());
    try {
      Table t = tableFor(tableName);
      if (mutator != null) {
        mutator.mutate(m);
      } else if (m instanceof Put) {
        t.put((Put) m);
      } else {
        t.delete((Delete) m);
      }
    } catch (IOException e) {
      return failed(what, tableName, key, e);
    } catch (IllegalArgumentException e) {
      // HBase's own validation, e.g. a cell larger than hbase.client.keyvalue.maxsize.
      LOG.error("{} of {} {} refused", what, tableName, key, e);
      return Status.BAD_REQUEST;
    }
    debug("{} {} {}: ok", what, tableName, key);
    return Status.OK;
  }

  private static Status failed(String what, String tableName, String key, IOException e) {
    LOG.error("{} of {} {} failed", what, tableName, key, e);
    return Status.ERROR;
  }

  private void debug(String format, Object... args) {
    if (config.debug()) {
      LOG.info(format, args);
    }
  }
}
