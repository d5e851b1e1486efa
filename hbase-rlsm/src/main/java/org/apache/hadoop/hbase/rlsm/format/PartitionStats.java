package org.apache.hadoop.hbase.rlsm.format;

import java.util.ArrayList;
import java.util.List;

/**
 * The statistics of one Level-1 partition as a manifest records them (file-info entry
 * {@code RLSM_MANIFEST_STATS}, docs/format/rlsm-file.md): the row entries and bytes its segments
 * hold inside its range, and the encoded sketch of its distinct rows. They let a region open and
 * the compaction planner know every partition without reading its segments' rows.
 *
 * <p>Encoding of a list: u32 count (equal to the manifest's partition count, in the same order),
 * then per partition u8 present (0: unknown, nothing follows; 1: known), i64 entries, i64 bytes,
 * u32 sketch length, sketch bytes. The sketch bytes are checked by their decoder.
 */
public final class PartitionStats {
  private final long entries;
  private final long bytes;
  private final byte[] sketch;

  public PartitionStats(long entries, long bytes, byte[] sketch) {
    this.entries = entries;
    this.bytes = bytes;
    this.sketch = sketch;
  }

  public long entries() {
    return entries;
  }

  public long bytes() {
    return bytes;
  }

  public byte[] sketch() {
    return sketch;
  }

  /** Encodes a list in which a null element is an unknown partition. */
  public static byte[] encodeList(List<PartitionStats> stats) {
    ByteWriter w = new ByteWriter(64);
    w.i32(stats.size());
    for (PartitionStats s : stats) {
      if (s == null) {
        w.u8(0);
      } else {
        w.u8(1).i64(s.entries).i64(s.bytes).i32(s.sketch.length).bytes(s.sketch);
      }
    }
    return w.toByteArray();
  }

  /**
   * Decodes a list of {@code partitions} elements (null for an unknown partition).
   * @throws RlsmCorruptionException on a count other than {@code partitions}, a negative count or
   *                                 length, or bytes left over
   */
  public static List<PartitionStats> decodeList(String file, long fileOffset, byte[] v,
    int partitions) throws RlsmCorruptionException {
    ByteReader r = new ByteReader(file, fileOffset, v, 0, v.length);
    int n = r.i32();
    if (n != partitions) {
      throw r.corrupt("statistics of " + n + " partitions for " + partitions + " partitions");
    }
    List<PartitionStats> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int present = r.u8();
      if (present == 0) {
        out.add(null);
        continue;
      }
      if (present != 1) {
        throw r.corrupt("bad presence flag " + present + " of partition " + i);
      }
      long entries = r.i64();
      long bytes = r.i64();
      int length = r.i32();
      if (entries < 0 || bytes < 0 || length < 0) {
        throw r.corrupt("negative statistics of partition " + i);
      }
      out.add(new PartitionStats(entries, bytes, r.bytes(length)));
    }
    if (r.remaining() != 0) {
      throw r.corrupt(r.remaining() + " trailing bytes after partition statistics");
    }
    return out;
  }
}
