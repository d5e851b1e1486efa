package org.apache.hadoop.hbase.rlsm.format;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one Level-1 manifest records (docs/format/rlsm-file.md, "Manifest"): either a
 * <b>checkpoint</b>, the whole layout (every partition and its statistics), or an <b>edit</b>,
 * the change one compaction made to the layout of the manifest of generation {@link #base()}:
 * the partitions it removed (by range) and the ones it added (range, segments, statistics). A
 * partition a compaction changed is removed and added again. {@link ManifestChain} replays a
 * checkpoint and the edits after it into a layout.
 *
 * <p>Encoding of the removed ranges (file-info {@code RLSM_MANIFEST_REMOVED}): u32 count, then
 * per range u16 low length, low, u16 high length, high; ascending and disjoint.
 */
public final class ManifestRecord {
  private final String file;
  private final long generation;
  private final long base;
  private final List<PartitionDescriptor> partitions;
  private final List<PartitionStats> stats;
  private final List<byte[][]> removed;

  private ManifestRecord(String file, long generation, long base,
    List<PartitionDescriptor> partitions, List<PartitionStats> stats, List<byte[][]> removed) {
    if (stats != null && stats.size() != partitions.size()) {
      throw new IllegalArgumentException(stats.size() + " statistics for " + partitions.size()
        + " partitions");
    }
    this.file = file;
    this.generation = generation;
    this.base = base;
    this.partitions = Collections.unmodifiableList(new ArrayList<>(partitions));
    this.stats = stats == null ? null : Collections.unmodifiableList(new ArrayList<>(stats));
    this.removed = Collections.unmodifiableList(new ArrayList<>(removed));
  }

  /**
   * A checkpoint: the whole layout.
   * @param stats per partition (null elements: unknown), or null when the manifest records none
   */
  public static ManifestRecord checkpoint(String file, long generation,
    List<PartitionDescriptor> partitions, List<PartitionStats> stats) {
    return new ManifestRecord(file, generation, 0, partitions, stats, List.of());
  }

  /**
   * An edit of the layout of generation {@code base}: the ranges it removes, then the
   * partitions (with their statistics) it adds.
   */
  public static ManifestRecord edit(String file, long generation, long base,
    List<byte[][]> removed, List<PartitionDescriptor> added, List<PartitionStats> stats) {
    if (base < 1 || base >= generation) {
      throw new IllegalArgumentException("base " + base + " of generation " + generation);
    }
    return new ManifestRecord(file, generation, base, added, stats, removed);
  }

  /** The manifest file, for error messages. */
  public String file() {
    return file;
  }

  public long generation() {
    return generation;
  }

  /** The generation an edit applies to; 0 for a checkpoint. */
  public long base() {
    return base;
  }

  public boolean isCheckpoint() {
    return base == 0;
  }

  /** A checkpoint's partitions, or the partitions an edit adds; ascending and disjoint. */
  public List<PartitionDescriptor> partitions() {
    return partitions;
  }

  /** Statistics parallel to {@link #partitions()} (null elements: unknown), or null. */
  public List<PartitionStats> stats() {
    return stats;
  }

  /** The ranges {@code {low, high}} an edit removes (empty for a checkpoint). */
  public List<byte[][]> removed() {
    return removed;
  }

  public static byte[] encodeRanges(List<byte[][]> ranges) {
    ByteWriter w = new ByteWriter(64);
    w.i32(ranges.size());
    for (byte[][] r : ranges) {
      w.u16(r[0].length).bytes(r[0]).u16(r[1].length).bytes(r[1]);
    }
    return w.toByteArray();
  }

  /** Decodes removed ranges and checks that they are ascending, disjoint and not inverted. */
  public static List<byte[][]> decodeRanges(String file, long fileOffset, byte[] v)
    throws RlsmCorruptionException {
    ByteReader r = new ByteReader(file, fileOffset, v, 0, v.length);
    int n = r.i32();
    if (n < 0 || n > v.length) {
      throw r.corrupt("bad removed range count " + n);
    }
    List<byte[][]> out = new ArrayList<>(n);
    byte[] prevHigh = null;
    for (int i = 0; i < n; i++) {
      byte[][] range = PartitionDescriptor.readRange(r, prevHigh, "removed " + i);
      out.add(range);
      prevHigh = range[1];
    }
    if (r.remaining() != 0) {
      throw r.corrupt(r.remaining() + " trailing bytes after removed ranges");
    }
    return out;
  }

  @Override
  public String toString() {
    return (isCheckpoint() ? "checkpoint " : "edit of " + base + " to ") + generation + " ("
      + file + ")";
  }
}
