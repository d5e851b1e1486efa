package org.apache.hadoop.hbase.rlsm.compaction;

/**
 * A numeric view of row keys for density = rows / key span (docs/design.md, "Range-append"). The
 * first eight bytes of a key, zero-padded, read as an unsigned big-endian number; spans of
 * different files are thereby on one scale. Keys that differ only after byte eight have span one.
 */
public final class KeySpan {
  private KeySpan() {
  }

  static double position(byte[] key) {
    double v = 0;
    for (int i = 0; i < 8; i++) {
      v = v * 256 + (i < key.length ? key[i] & 0xff : 0);
    }
    return v;
  }

  /** Rows per unit of key space between {@code first} and {@code last}. */
  public static double density(long rows, byte[] first, byte[] last) {
    double span = Math.max(1.0, position(last) - position(first) + 1);
    return rows / span;
  }
}
