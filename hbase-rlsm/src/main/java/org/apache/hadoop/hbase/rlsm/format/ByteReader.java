package org.apache.hadoop.hbase.rlsm.format;

/**
 * Bounds-checked big-endian decoder over a byte array slice. Every read that would run past the
 * slice throws {@link RlsmCorruptionException} with the absolute file offset, so a damaged length
 * field can never cause an out-of-bounds access or a wrong-sized allocation.
 */
public final class ByteReader {
  private final String file;
  private final long fileOffset;
  private final byte[] buf;
  private final int start;
  private final int end;
  private int pos;

  /**
   * @param file       file name, for error messages
   * @param fileOffset file offset of {@code buf[start]}
   */
  public ByteReader(String file, long fileOffset, byte[] buf, int start, int length) {
    this.file = file;
    this.fileOffset = fileOffset;
    this.buf = buf;
    this.start = start;
    this.end = start + length;
    this.pos = start;
  }

  public byte[] array() {
    return buf;
  }

  /** Position in the underlying array. */
  public int position() {
    return pos;
  }

  /** File offset of the next byte to read. */
  public long fileOffset() {
    return fileOffset + (pos - start);
  }

  public int remaining() {
    return end - pos;
  }

  public RlsmCorruptionException corrupt(String what) {
    return new RlsmCorruptionException(file, fileOffset(), what);
  }

  public RlsmCorruptionException corruptAt(long at, String what) {
    return new RlsmCorruptionException(file, at, what);
  }

  private void need(int n) throws RlsmCorruptionException {
    if (n < 0 || end - pos < n) {
      throw corrupt("needs " + n + " bytes, only " + (end - pos) + " left in section");
    }
  }

  public int u8() throws RlsmCorruptionException {
    need(1);
    return buf[pos++] & 0xff;
  }

  public int u16() throws RlsmCorruptionException {
    need(2);
    int v = ((buf[pos] & 0xff) << 8) | (buf[pos + 1] & 0xff);
    pos += 2;
    return v;
  }

  public int i32() throws RlsmCorruptionException {
    need(4);
    int v = ((buf[pos] & 0xff) << 24) | ((buf[pos + 1] & 0xff) << 16)
      | ((buf[pos + 2] & 0xff) << 8) | (buf[pos + 3] & 0xff);
    pos += 4;
    return v;
  }

  public long i64() throws RlsmCorruptionException {
    long hi = i32() & 0xffffffffL;
    long lo = i32() & 0xffffffffL;
    return (hi << 32) | lo;
  }

  /** Unsigned LEB128, at most 10 bytes. */
  public long varLong() throws RlsmCorruptionException {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = u8();
      v |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw corrupt("varint longer than 10 bytes");
  }

  /** A varint that must fit a non-negative int no larger than {@code max}. */
  public int varLength(int max) throws RlsmCorruptionException {
    long v = varLong();
    if (v < 0 || v > max) {
      throw corrupt("length " + v + " out of range [0, " + max + "]");
    }
    return (int) v;
  }

  /** Skips {@code n} bytes and returns the array position where they start. */
  public int skip(int n) throws RlsmCorruptionException {
    need(n);
    int at = pos;
    pos += n;
    return at;
  }

  public byte[] bytes(int n) throws RlsmCorruptionException {
    int at = skip(n);
    byte[] out = new byte[n];
    System.arraycopy(buf, at, out, 0, n);
    return out;
  }
}
