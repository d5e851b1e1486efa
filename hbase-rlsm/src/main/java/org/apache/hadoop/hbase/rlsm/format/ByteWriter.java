package org.apache.hadoop.hbase.rlsm.format;

import java.util.Arrays;

/** Growable big-endian encoder; the write-side twin of {@link ByteReader}. */
public final class ByteWriter {
  private byte[] buf;
  private int len;

  public ByteWriter(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  private void ensure(int extra) {
    if (len + extra > buf.length) {
      long want = Math.max((long) buf.length * 2, (long) len + extra);
      if (want > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException("buffer larger than 2 GB");
      }
      buf = Arrays.copyOf(buf, (int) want);
    }
  }

  public ByteWriter u8(int v) {
    ensure(1);
    buf[len++] = (byte) v;
    return this;
  }

  public ByteWriter u16(int v) {
    if (v < 0 || v > 0xffff) {
      throw new IllegalArgumentException("Expected u16 but was " + v);
    }
    ensure(2);
    buf[len++] = (byte) (v >>> 8);
    buf[len++] = (byte) v;
    return this;
  }

  public ByteWriter i32(int v) {
    ensure(4);
    buf[len++] = (byte) (v >>> 24);
    buf[len++] = (byte) (v >>> 16);
    buf[len++] = (byte) (v >>> 8);
    buf[len++] = (byte) v;
    return this;
  }

  public ByteWriter i64(long v) {
    i32((int) (v >>> 32));
    return i32((int) v);
  }

  public ByteWriter varLong(long v) {
    ensure(10);
    while ((v & ~0x7fL) != 0) {
      buf[len++] = (byte) ((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    buf[len++] = (byte) v;
    return this;
  }

  public ByteWriter bytes(byte[] b, int off, int n) {
    ensure(n);
    System.arraycopy(b, off, buf, len, n);
    len += n;
    return this;
  }

  public ByteWriter bytes(byte[] b) {
    return bytes(b, 0, b.length);
  }

  /** Overwrites 4 bytes at {@code at} (a length or checksum placeholder). */
  public void putI32(int at, int v) {
    buf[at] = (byte) (v >>> 24);
    buf[at + 1] = (byte) (v >>> 16);
    buf[at + 2] = (byte) (v >>> 8);
    buf[at + 3] = (byte) v;
  }

  public int length() {
    return len;
  }

  public byte[] array() {
    return buf;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  public void reset() {
    len = 0;
  }
}
