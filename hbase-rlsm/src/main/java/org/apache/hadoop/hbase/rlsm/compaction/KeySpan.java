package org.apache.hadoop.hbase.rlsm.compaction;

/**
 * A numeric view of row keys for density = rows / key span (docs/design.md, "Range-append"). The
 * first eight bytes of a key, zero-padded, read as an unsigned big-endian number; spans of
 * different files are thereby on one scale. Keys that differ only after byte eight have span one.
 * Within one known span ({@link #between}) the eight bytes after the bounds' common prefix are
 * read instead, so keys with a long common prefix still spread.
 */
public final class KeySpan {
  private KeySpan() {
  }

  static double position(byte[] key) {
    return position(key, 0);
  }

  /** Eight bytes of {@code key} from {@code at} (zeros past its end) as an unsigned number. */
  private static double position(byte[] key, int at) {
    double v = 0;
    for (int i = 0; i < 8; i++) {
      v = v * 256 + (at + i < key.length ? key[at + i] & 0xff : 0);
    }
    return v;
  }

  /**
   * Where {@code x} lies between {@code from} and {@code to} ({@code from <= x <= to}), from 0 to
   * 1 (1/2 when the bounds do not differ in the eight bytes after their common prefix).
   */
  static double between(byte[] from, byte[] to, byte[] x) {
    int common = 0;
    while (common < from.length && common < to.length && from[common] == to[common]) {
      common++;
    }
    double f = position(from, common);
    double t = position(to, common);
    double v = position(x, common);
    return t <= f ? 0.5 : Math.min(1, Math.max(0, (v - f) / (t - f)));
  }

  /** Rows per unit of key space between {@code first} and {@code last}. */
  public static double density(long rows, byte[] first, byte[] last) {
    double span = Math.max(1.0, position(last) - position(first) + 1);
    return rows / span;
  }
}
