package org.apache.hadoop.hbase.rlsm.format;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * One Level-1 partition as a manifest records it: a closed key range {@code [low, high]} (both
 * are row keys that occur in the partition) and the names of its segments, oldest first. A
 * segment may be shared with other partitions (after an index split, or a linked Level-0 file);
 * only its rows inside the range belong to this partition.
 *
 * <p>Encoding of a list (the {@code manifest.partitions} meta value): u32 count, then per
 * partition u16 low length, low, u16 high length, high, u32 segment count, then per segment u16
 * length and UTF-8 name. Partitions are stored in ascending, disjoint range order.
 */
public final class PartitionDescriptor {
  private final byte[] low;
  private final byte[] high;
  private final List<String> segments;

  public PartitionDescriptor(byte[] low, byte[] high, List<String> segments) {
    if (Bytes.compareTo(low, high) > 0) {
      throw new IllegalArgumentException("Expected low <= high but was " + Bytes.toStringBinary(low)
        + " > " + Bytes.toStringBinary(high));
    }
    this.low = low;
    this.high = high;
    this.segments = Collections.unmodifiableList(new ArrayList<>(segments));
  }

  public byte[] low() {
    return low;
  }

  public byte[] high() {
    return high;
  }

  public List<String> segments() {
    return segments;
  }

  public static byte[] encodeList(List<PartitionDescriptor> partitions) {
    ByteWriter w = new ByteWriter(256);
    w.i32(partitions.size());
    for (PartitionDescriptor p : partitions) {
      w.u16(p.low.length).bytes(p.low).u16(p.high.length).bytes(p.high);
      w.i32(p.segments.size());
      for (String m : p.segments) {
        byte[] b = m.getBytes(StandardCharsets.UTF_8);
        w.u16(b.length).bytes(b);
      }
    }
    return w.toByteArray();
  }

  /** Decodes a list and checks that ranges are ascending and disjoint. */
  public static List<PartitionDescriptor> decodeList(String file, long fileOffset, byte[] v)
    throws RlsmCorruptionException {
    ByteReader r = new ByteReader(file, fileOffset, v, 0, v.length);
    int n = r.i32();
    if (n < 0 || n > v.length) {
      throw r.corrupt("bad partition count " + n);
    }
    List<PartitionDescriptor> out = new ArrayList<>(n);
    byte[] prevHigh = null;
    for (int i = 0; i < n; i++) {
      byte[][] range = readRange(r, prevHigh, "partition " + i);
      byte[] low = range[0];
      byte[] high = range[1];
      int m = r.i32();
      if (m < 1 || m > r.remaining()) {
        throw r.corrupt("bad segment count " + m + " in partition " + i);
      }
      List<String> segments = new ArrayList<>(m);
      for (int j = 0; j < m; j++) {
        segments.add(new String(r.bytes(r.u16()), StandardCharsets.UTF_8));
      }
      out.add(new PartitionDescriptor(low, high, segments));
      prevHigh = high;
    }
    if (r.remaining() != 0) {
      throw r.corrupt(r.remaining() + " trailing bytes after partitions");
    }
    return out;
  }

  /**
   * Reads a closed range (u16 low length, low, u16 high length, high) that must not be inverted
   * and must lie above {@code prevHigh} (null for the first of a list).
   */
  static byte[][] readRange(ByteReader r, byte[] prevHigh, String what)
    throws RlsmCorruptionException {
    byte[] low = r.bytes(r.u16());
    byte[] high = r.bytes(r.u16());
    if (
      Bytes.compareTo(low, high) > 0 || (prevHigh != null && Bytes.compareTo(prevHigh, low) >= 0)
    ) {
      throw r.corrupt(what + " range is inverted or overlaps its predecessor");
    }
    return new byte[][] { low, high };
  }

  @Override
  public String toString() {
    return "[" + Bytes.toStringBinary(low) + ", " + Bytes.toStringBinary(high) + "] " + segments;
  }
}
