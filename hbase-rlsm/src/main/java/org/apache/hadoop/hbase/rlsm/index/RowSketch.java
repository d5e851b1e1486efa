package org.apache.hadoop.hbase.rlsm.index;

import java.util.Arrays;
import org.apache.hadoop.hbase.rlsm.format.ByteReader;
import org.apache.hadoop.hbase.rlsm.format.ByteWriter;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;

/**
 * A mergeable estimate of the number of distinct row keys in a set of files: HyperLogLog
 * (Flajolet et al. 2007) with {@value #PRECISION}-bit register indexes over a 64-bit row hash,
 * kept exact while small (the 64-bit hashes themselves, up to {@value #MAX_EXACT} of them, as
 * HLL++'s sparse form keeps them). The compaction planner merges the sketches of a partition's
 * segments to tell superseded row copies from distinct rows without reading rows
 * (docs/format/rlsm-file.md, "Row sketch", which specifies the hash and the encoding).
 *
 * <p>Accuracy: exact up to {@value #MAX_EXACT} distinct rows (a 64-bit hash collision aside),
 * then a relative standard error of about 1.04 / sqrt(2^{@value #PRECISION}) = 3.3%. Merging is
 * the union of the row sets: exact forms merge exactly while the union stays small, a dense form
 * takes the maximum register by register, so a merge of sketches equals the sketch of the union.
 *
 * <p>Not thread-safe while it is being built; a sketch handed to others (a file's, a partition
 * summary's) is never changed again: merges work on {@link #copy()}.
 */
public final class RowSketch {
  /** Bits of the hash that choose a register. Part of the encoding. */
  public static final int PRECISION = 10;
  private static final int REGISTERS = 1 << PRECISION;
  /** The exact form holds at most as many hashes as the dense form has register bytes / 8. */
  static final int MAX_EXACT = REGISTERS / 8;
  /** The largest register value: the rank of a hash whose remaining 54 bits are all 0. */
  private static final int MAX_RANK = Long.SIZE - PRECISION + 1;
  private static final int FORM_EXACT = 1;
  private static final int FORM_DENSE = 2;

  /** Sorted distinct hashes while exact (the first {@link #size} are used); null when dense. */
  private long[] hashes;
  private int size;
  /** Register values when dense; null while exact. */
  private byte[] registers;

  /** An empty sketch. */
  public RowSketch() {
    this.hashes = new long[8];
  }

  /**
   * The row hash: the first 64 bits (h1, as a little-endian long) of MurmurHash3 x64 128 with
   * seed 0. Part of the on-disk format.
   */
  public static long hash(byte[] b, int off, int len) {
    return RowHash.murmur3x64h1(b, off, len);
  }

  public void add(byte[] row) {
    addHash(hash(row, 0, row.length));
  }

  public void add(byte[] b, int off, int len) {
    addHash(hash(b, off, len));
  }

  /** Adds one hashed row. */
  public void addHash(long h) {
    if (registers != null) {
      int index = (int) (h >>> (Long.SIZE - PRECISION));
      long rest = h << PRECISION;
      int rank = Math.min(MAX_RANK, Long.numberOfLeadingZeros(rest) + 1);
      if (registers[index] < rank) {
        registers[index] = (byte) rank;
      }
      return;
    }
    int at = Arrays.binarySearch(hashes, 0, size, h);
    if (at >= 0) {
      return;
    }
    if (size == MAX_EXACT) {
      toDense();
      addHash(h);
      return;
    }
    int ins = -at - 1;
    if (size == hashes.length) {
      hashes = Arrays.copyOf(hashes, Math.min(MAX_EXACT, size * 2));
    }
    System.arraycopy(hashes, ins, hashes, ins + 1, size - ins);
    hashes[ins] = h;
    size++;
  }

  private void toDense() {
    long[] old = hashes;
    int n = size;
    hashes = null;
    size = 0;
    registers = new byte[REGISTERS];
    for (int i = 0; i < n; i++) {
      addHash(old[i]);
    }
  }

  /** Adds every row of {@code other} (the union); {@code other} is not changed. */
  public void addAll(RowSketch other) {
    if (other.registers == null) {
      for (int i = 0; i < other.size; i++) {
        addHash(other.hashes[i]);
      }
      return;
    }
    if (registers == null) {
      toDense();
    }
    for (int i = 0; i < REGISTERS; i++) {
      if (registers[i] < other.registers[i]) {
        registers[i] = other.registers[i];
      }
    }
  }

  public RowSketch copy() {
    RowSketch c = new RowSketch();
    c.hashes = hashes == null ? null : hashes.clone();
    c.size = size;
    c.registers = registers == null ? null : registers.clone();
    return c;
  }

  /** Whether the count is exact (the sketch still holds every hash). */
  public boolean isExact() {
    return registers == null;
  }

  /**
   * The distinct rows added: exact while small, else HyperLogLog's raw estimate with linear
   * counting below 5/2 of the register count (64-bit hashes need no large-range correction).
   */
  public long estimate() {
    if (registers == null) {
      return size;
    }
    double sum = 0;
    int zeros = 0;
    for (byte r : registers) {
      sum += Math.scalb(1.0, -r);
      if (r == 0) {
        zeros++;
      }
    }
    double m = REGISTERS;
    double e = 0.7213 / (1 + 1.079 / m) * m * m / sum;
    if (e <= 2.5 * m && zeros > 0) {
      e = m * Math.log(m / zeros);
    }
    return Math.round(e);
  }

  /** The encoding of docs/format/rlsm-file.md, "Row sketch". */
  public byte[] encode() {
    if (registers == null) {
      ByteWriter w = new ByteWriter(4 + 8 * size);
      w.u8(FORM_EXACT).u8(PRECISION).u16(size);
      for (int i = 0; i < size; i++) {
        w.i64(hashes[i]);
      }
      return w.toByteArray();
    }
    ByteWriter w = new ByteWriter(2 + REGISTERS);
    w.u8(FORM_DENSE).u8(PRECISION).bytes(registers);
    return w.toByteArray();
  }

  /** Decodes and checks an encoded sketch; errors name {@code file} and {@code fileOffset}. */
  public static RowSketch decode(String file, long fileOffset, byte[] v)
    throws RlsmCorruptionException {
    ByteReader r = new ByteReader(file, fileOffset, v, 0, v.length);
    int form = r.u8();
    int precision = r.u8();
    if (precision != PRECISION) {
      throw r.corrupt("row sketch precision " + precision + " is not " + PRECISION);
    }
    RowSketch s = new RowSketch();
    if (form == FORM_EXACT) {
      int n = r.u16();
      if (n > MAX_EXACT) {
        throw r.corrupt("exact row sketch of " + n + " hashes, more than " + MAX_EXACT);
      }
      s.hashes = new long[Math.max(1, n)];
      for (int i = 0; i < n; i++) {
        long h = r.i64();
        if (i > 0 && h <= s.hashes[i - 1]) {
          throw r.corrupt("row sketch hashes are not strictly ascending");
        }
        s.hashes[i] = h;
      }
      s.size = n;
    } else if (form == FORM_DENSE) {
      s.hashes = null;
      s.registers = r.bytes(REGISTERS);
      for (byte b : s.registers) {
        if (b < 0 || b > MAX_RANK) {
          throw r.corrupt("row sketch register " + b + " out of range [0, " + MAX_RANK + "]");
        }
      }
    } else {
      throw r.corrupt("unknown row sketch form " + form);
    }
    if (r.remaining() != 0) {
      throw r.corrupt(r.remaining() + " trailing bytes after the row sketch");
    }
    return s;
  }
}
