package org.apache.hadoop.hbase.rlsm.format;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The live manifests of one region's store and the layout they record (docs/format/rlsm-file.md,
 * "Manifest chain"). The newest manifest (highest generation) is the commit point of the last
 * compaction; when it is an edit, it applies to the manifest of its base generation, and so on
 * back to a checkpoint. That chain, checkpoint first, is the store's Level-1: every member must
 * stay until a newer checkpoint replaces them all, and a member that is missing fails the open
 * (rows of the partitions it added would otherwise be lost without a word). Every other manifest
 * of the region is superseded: an orphan of an interrupted compaction or one a checkpoint
 * retired. Pure: no I/O.
 */
public final class ManifestChain {
  private ManifestChain() {
  }

  /** A layout: partitions in key order with their statistics (null elements: unknown). */
  public static final class Layout {
    public final List<PartitionDescriptor> partitions;
    public final List<PartitionStats> stats;

    Layout(List<PartitionDescriptor> partitions, List<PartitionStats> stats) {
      this.partitions = Collections.unmodifiableList(partitions);
      this.stats = Collections.unmodifiableList(stats);
    }
  }

  /**
   * The live chain among the manifests of one region, checkpoint first; empty when there are
   * none. Reads only each manifest's generation and base.
   * @param base the generation an edit applies to, 0 for a checkpoint
   * @throws RlsmCorruptionException naming the edit whose base the store does not hold
   */
  public static <M> List<M> live(Collection<M> manifests, ToLongFunction<M> generation,
    ToLongFunction<M> base, Function<M, String> name) throws RlsmCorruptionException {
    Map<Long, M> byGeneration = new HashMap<>();
    M newest = null;
    for (M m : manifests) {
      byGeneration.putIfAbsent(generation.applyAsLong(m), m);
      if (newest == null || generation.applyAsLong(m) > generation.applyAsLong(newest)) {
        newest = m;
      }
    }
    List<M> chain = new ArrayList<>();
    for (M m = newest; m != null;) {
      chain.add(m);
      long b = base.applyAsLong(m);
      if (b == 0) {
        break;
      }
      M before = b < generation.applyAsLong(m) ? byGeneration.get(b) : null;
      if (before == null) {
        throw new RlsmCorruptionException(name.apply(m), -1, "manifest edit of generation "
          + generation.applyAsLong(m) + " applies to generation " + b
          + ", which the store does not hold: the manifest chain is broken");
      }
      m = before;
    }
    Collections.reverse(chain);
    return chain;
  }

  /**
   * Replays a chain: the checkpoint's layout, then each edit's removals and additions. Each edit
   * must apply to the generation before it and remove only ranges that layout holds, and the
   * partitions it adds must not overlap the ones that stay.
   * @throws RlsmCorruptionException naming the manifest that does not apply
   */
  public static Layout replay(List<ManifestRecord> chain) throws RlsmCorruptionException {
    NavigableMap<byte[], Entry> layout = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    long generation = 0;
    for (ManifestRecord m : chain) {
      if (generation == 0) {
        if (!m.isCheckpoint()) {
          throw corrupt(m, "the manifest chain starts with an edit");
        }
      } else if (m.isCheckpoint() || m.base() != generation) {
        throw corrupt(m, (m.isCheckpoint() ? "is a checkpoint"
          : "applies to generation " + m.base())
        + " but follows generation " + generation + " in the manifest chain");
      }
      for (byte[][] r : m.removed()) {
        Entry e = layout.remove(r[0]);
        if (e == null || !Bytes.equals(e.partition.high(), r[1])) {
          throw corrupt(m, "removes [" + Bytes.toStringBinary(r[0]) + ", "
            + Bytes.toStringBinary(r[1]) + "], which generation " + generation
            + " does not hold");
        }
      }
      for (int i = 0; i < m.partitions().size(); i++) {
        PartitionDescriptor p = m.partitions().get(i);
        Map.Entry<byte[], Entry> floor = layout.floorEntry(p.high());
        if (floor != null && Bytes.compareTo(floor.getValue().partition.high(), p.low()) >= 0) {
          throw corrupt(m, "adds " + p + ", which overlaps " + floor.getValue().partition);
        }
        layout.put(p.low(), new Entry(p, m.stats() == null ? null : m.stats().get(i)));
      }
      generation = m.generation();
    }
    List<PartitionDescriptor> partitions = new ArrayList<>(layout.size());
    List<PartitionStats> stats = new ArrayList<>(layout.size());
    for (Entry e : layout.values()) {
      partitions.add(e.partition);
      stats.add(e.stats);
    }
    return new Layout(partitions, stats);
  }

  private static RlsmCorruptionException corrupt(ManifestRecord m, String what) {
    return new RlsmCorruptionException(m.file(), -1, "manifest generation " + m.generation()
      + ": " + what);
  }

  private static final class Entry {
    final PartitionDescriptor partition;
    final PartitionStats stats;

    Entry(PartitionDescriptor partition, PartitionStats stats) {
      this.partition = partition;
      this.stats = stats;
    }
  }
}
