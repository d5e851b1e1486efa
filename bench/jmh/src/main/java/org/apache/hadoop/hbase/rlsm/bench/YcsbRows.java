package org.apache.hadoop.hbase.rlsm.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * YCSB-like data: row keys "user" + a scrambled 64-bit number (YCSB's hashed insert order, so
 * keys arrive in random order), ten columns {@code field0..field9} of 100 random bytes each.
 */
public final class YcsbRows {
  public static final byte[] FAMILY = Bytes.toBytes("f");
  public static final int FIELDS = 10;
  public static final int VALUE_LENGTH = 100;

  private YcsbRows() {
  }

  public static byte[] rowKey(long n) {
    // FNV-1a of the record number, as YCSB's hashed key order.
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < 8; i++) {
      h ^= (n >>> (8 * i)) & 0xff;
      h *= 0x100000001b3L;
    }
    return Bytes.toBytes("user" + Long.toUnsignedString(h));
  }

  public static byte[] field(int i) {
    return Bytes.toBytes("field" + i);
  }

  /** One record: ten cells of one row, all with sequence id {@code seqId}. */
  public static List<Cell> record(long n, long seqId, Random rnd) {
    byte[] row = rowKey(n);
    List<Cell> cells = new ArrayList<>(FIELDS);
    for (int i = 0; i < FIELDS; i++) {
      cells.add(cell(row, i, seqId, rnd));
    }
    return cells;
  }

  /** One field of a record: what a YCSB update writes. */
  public static KeyValue cell(byte[] row, int field, long seqId, Random rnd) {
    byte[] value = new byte[VALUE_LENGTH];
    rnd.nextBytes(value);
    KeyValue kv = new KeyValue(row, FAMILY, field(field), 1_700_000_000_000L + seqId,
      KeyValue.Type.Put, value);
    kv.setSequenceId(seqId);
    return kv;
  }

  /** Records 0..n-1 in a random order (each a new row, like a YCSB load phase). */
  public static List<List<Cell>> records(int n, long seed) {
    Random rnd = new Random(seed);
    List<List<Cell>> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(record(i, i + 1, rnd));
    }
    return out;
  }
}
