package org.apache.hadoop.hbase.rlsm.format;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;

/**
 * Row records: all cells of one row written by one flush or append (spec: "Row record").
 *
 * <pre>
 * record := u32 bodyLength, body, u32 CRC32C(body)
 * body   := varint rowLength, row, varint cellCount, cell*
 * cell   := u8 type, i64 timestamp, varint sequenceId, varint qualifierLength, qualifier,
 *           varint valueLength, value, varint tagsLength, tags
 * </pre>
 *
 * The family is stored once per file (meta section). Cells are kept in the order given, which
 * writers guarantee is {@code CellComparator} order; the sequence id of every cell is kept, so
 * HBase's MVCC and same-key ordering work across files of any age.
 */
public final class RowRecordCodec {
  /** Bytes around the body: the length prefix and the checksum. */
  public static final int FRAME_OVERHEAD = 8;
  private static final int MAX_ROW = Short.MAX_VALUE;
  private static final int MAX_TAGS = 0xffff;

  private RowRecordCodec() {
  }

  /** Appends the body of a record for {@code cells} (all of one row) to {@code w}. */
  public static void encodeBody(ByteWriter w, Cell[] cells, int from, int to) {
    Cell first = cells[from];
    w.varLong(first.getRowLength());
    w.bytes(first.getRowArray(), first.getRowOffset(), first.getRowLength());
    w.varLong(to - from);
    for (int i = from; i < to; i++) {
      Cell c = cells[i];
      w.u8(c.getTypeByte());
      w.i64(c.getTimestamp());
      w.varLong(c.getSequenceId());
      w.varLong(c.getQualifierLength());
      w.bytes(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength());
      w.varLong(c.getValueLength());
      w.bytes(c.getValueArray(), c.getValueOffset(), c.getValueLength());
      w.varLong(c.getTagsLength());
      w.bytes(c.getTagsArray(), c.getTagsOffset(), c.getTagsLength());
    }
  }

  /** Writes a complete framed record (length, body, checksum). */
  public static void encode(ByteWriter w, Cell[] cells, int from, int to) {
    int lenAt = w.length();
    w.i32(0);
    encodeBody(w, cells, from, to);
    int bodyLen = w.length() - lenAt - 4;
    w.putI32(lenAt, bodyLen);
    w.i32(Checksums.crc32c(w.array(), lenAt + 4, bodyLen));
  }

  /**
   * Verifies and decodes a framed record.
   * @param expectedRow when not null, the record must hold exactly this row (an index that points
   *                    at the wrong record is corruption, not a miss)
   */
  public static KeyValue[] decode(String file, long fileOffset, byte[] buf, int off, int len,
    byte[] family, byte[] expectedRow) throws RlsmCorruptionException {
    ByteReader frame = new ByteReader(file, fileOffset, buf, off, len);
    int bodyLen = frame.i32();
    if (bodyLen < 0 || bodyLen != len - FRAME_OVERHEAD) {
      throw frame.corrupt("record body length " + bodyLen + " does not match frame of " + len);
    }
    int bodyAt = frame.skip(bodyLen);
    int crc = frame.i32();
    Checksums.verify(file, fileOffset, buf, bodyAt, bodyLen, crc, "row record");
    ByteReader r = new ByteReader(file, fileOffset + 4, buf, bodyAt, bodyLen);
    int rowLen = r.varLength(MAX_ROW);
    int rowAt = r.skip(rowLen);
    if (
      expectedRow != null && (rowLen != expectedRow.length
        || !java.util.Arrays.equals(buf, rowAt, rowAt + rowLen, expectedRow, 0, rowLen))
    ) {
      throw new RlsmCorruptionException(file, fileOffset, "record holds a different row");
    }
    int n = r.varLength(bodyLen);
    if (n == 0) {
      throw r.corrupt("record without cells");
    }
    KeyValue[] out = new KeyValue[n];
    for (int i = 0; i < n; i++) {
      int type = r.u8();
      KeyValue.Type kt = typeOf(type);
      if (kt == null) {
        throw r.corrupt("unknown cell type " + type);
      }
      long ts = r.i64();
      long seqId = r.varLong();
      int qLen = r.varLength(bodyLen);
      int qAt = r.skip(qLen);
      int vLen = r.varLength(bodyLen);
      int vAt = r.skip(vLen);
      int tLen = r.varLength(MAX_TAGS);
      int tAt = r.skip(tLen);
      KeyValue kv = new KeyValue(buf, rowAt, rowLen, family, 0, family.length, buf, qAt, qLen, ts,
        kt, buf, vAt, vLen, buf, tAt, tLen);
      kv.setSequenceId(seqId);
      out[i] = kv;
    }
    if (r.remaining() != 0) {
      throw r.corrupt(r.remaining() + " trailing bytes in row record");
    }
    return out;
  }

  private static KeyValue.Type typeOf(int code) {
    for (KeyValue.Type t : KeyValue.Type.values()) {
      if ((t.getCode() & 0xff) == code && t != KeyValue.Type.Maximum
        && t != KeyValue.Type.Minimum) {
        return t;
      }
    }
    return null;
  }
}
