package org.apache.hadoop.hbase.rlsm.index;

import org.apache.hadoop.hbase.rlsm.format.ByteReader;
import org.apache.hadoop.hbase.rlsm.format.ByteWriter;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Row to record index of one file (spec: "Index section"). On disk it is the list of entries in
 * record order, which is (unsigned row hash, row) order: i32 hash, varint record length, varint
 * row length, row. Records tile the data section, so offsets are prefix sums of the lengths.
 *
 * <p>In memory a bucket directory over the top bits of the hash (about one bucket per entry)
 * makes a lookup O(1) expected: the bucket's entries are contiguous because entries are sorted by
 * hash, and equal hashes (collisions) are told apart by comparing rows.
 */
public final class HashIndex {
  private final int size;
  private final int[] hashes;
  private final long[] offsets; // size + 1 prefix sums; offsets[size] == data length
  private final byte[] rows;
  private final int[] rowOffsets; // size + 1
  private final int bucketBits;
  private final int[] bucketStart; // (1 << bucketBits) + 1

  private HashIndex(int size, int[] hashes, long[] offsets, byte[] rows, int[] rowOffsets) {
    this.size = size;
    this.hashes = hashes;
    this.offsets = offsets;
    this.rows = rows;
    this.rowOffsets = rowOffsets;
    this.bucketBits = size <= 1 ? 0 : Math.min(30, 32 - Integer.numberOfLeadingZeros(size - 1));
    this.bucketStart = new int[(1 << bucketBits) + 1];
    int b = 0;
    for (int i = 0; i < size; i++) {
      int bi = bucket(hashes[i]);
      while (b <= bi) {
        bucketStart[b++] = i;
      }
    }
    while (b < bucketStart.length) {
      bucketStart[b++] = size;
    }
  }

  private int bucket(int hash) {
    return bucketBits == 0 ? 0 : hash >>> (32 - bucketBits);
  }

  /** Entry number of {@code row}, or -1 when the file does not hold it. */
  public int find(byte[] row, int off, int len) {
    int h = RowHash.murmur3(row, off, len, RowHash.ORDER_SEED);
    int b = bucket(h);
    for (int i = bucketStart[b], end = bucketStart[b + 1]; i < end; i++) {
      if (hashes[i] == h && Bytes.equals(rows, rowOffsets[i], rowOffsets[i + 1] - rowOffsets[i],
        row, off, len)) {
        return i;
      }
    }
    return -1;
  }

  public int size() {
    return size;
  }

  public long offset(int entry) {
    return offsets[entry];
  }

  public int length(int entry) {
    return (int) (offsets[entry + 1] - offsets[entry]);
  }

  public byte[] row(int entry) {
    return Bytes.copy(rows, rowOffsets[entry], rowOffsets[entry + 1] - rowOffsets[entry]);
  }

  /** Compares the row of {@code entry} with the given key, as {@link Bytes#compareTo}. */
  public int compareRow(int entry, byte[] key, int off, int len) {
    return Bytes.compareTo(rows, rowOffsets[entry], rowOffsets[entry + 1] - rowOffsets[entry],
      key, off, len);
  }

  public int compareRows(int a, int b) {
    return Bytes.compareTo(rows, rowOffsets[a], rowOffsets[a + 1] - rowOffsets[a], rows,
      rowOffsets[b], rowOffsets[b + 1] - rowOffsets[b]);
  }

  /**
   * Decodes and checks an index against the data section it describes: entries in strictly
   * increasing (hash, row) order, each hash equal to the hash of its row, lengths tiling the data
   * section exactly.
   */
  public static HashIndex decode(ByteReader r, long dataLength, int minRecord)
    throws RlsmCorruptionException {
    int n = r.i32();
    if (n < 0 || n > r.remaining() / 3) {
      throw r.corrupt("bad index entry count " + n);
    }
    int[] hashes = new int[n];
    long[] offsets = new long[n + 1];
    int[] rowOffsets = new int[n + 1];
    ByteWriter rowBytes = new ByteWriter(Math.max(16, r.remaining()));
    for (int i = 0; i < n; i++) {
      long entryAt = r.fileOffset();
      hashes[i] = r.i32();
      int len = r.varLength(Integer.MAX_VALUE);
      if (len < minRecord) {
        throw r.corrupt("record length " + len + " below the minimum " + minRecord);
      }
      offsets[i + 1] = offsets[i] + len;
      int rowLen = r.varLength(Short.MAX_VALUE);
      int at = r.skip(rowLen);
      rowOffsets[i] = rowBytes.length();
      rowBytes.bytes(r.array(), at, rowLen);
      if (RowHash.murmur3(r.array(), at, rowLen, RowHash.ORDER_SEED) != hashes[i]) {
        throw r.corruptAt(entryAt, "index hash does not match its row");
      }
      if (i > 0) {
        int c = Integer.compareUnsigned(hashes[i - 1], hashes[i]);
        if (c > 0 || (c == 0 && Bytes.compareTo(rowBytes.array(), rowOffsets[i - 1],
          rowOffsets[i] - rowOffsets[i - 1], r.array(), at, rowLen) >= 0)) {
          throw r.corruptAt(entryAt, "index entries out of order");
        }
      }
    }
    rowOffsets[n] = rowBytes.length();
    if (r.remaining() != 0) {
      throw r.corrupt(r.remaining() + " trailing bytes after index entries");
    }
    if (offsets[n] != dataLength) {
      throw r.corrupt("index covers " + offsets[n] + " data bytes, data section has " + dataLength);
    }
    return new HashIndex(n, hashes, offsets, rowBytes.toByteArray(), rowOffsets);
  }

  /** Collects entries in record order and encodes them. */
  public static final class Builder {
    private final ByteWriter w;
    private int count;

    public Builder(int expectedEntries) {
      w = new ByteWriter(16 + expectedEntries * 32);
      w.i32(0);
    }

    /** Entries must be added in strictly increasing (unsigned hash, row) order. */
    public void add(int hash, byte[] row, int recordLength) {
      w.i32(hash).varLong(recordLength).varLong(row.length).bytes(row);
      count++;
    }

    public byte[] encode() {
      w.putI32(0, count);
      return w.toByteArray();
    }
  }
}
