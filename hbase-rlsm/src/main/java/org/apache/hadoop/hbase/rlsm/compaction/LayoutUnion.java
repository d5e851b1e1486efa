package org.apache.hadoop.hbase.rlsm.compaction;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.hbase.rlsm.format.PartitionDescriptor;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The Level-1 layout of a region whose store holds the manifests of other regions: a daughter of
 * a split holds references to its parent's files (the parent's manifest included), a region made
 * by a merge holds references to both parents' files. Each origin region's newest manifest
 * describes that origin's partitions; the region's Level-1 is their union, clipped to the
 * region's rows {@code [start, end)}:
 * <ul>
 * <li>a partition wholly outside the rows is dropped;</li>
 * <li>a partition starting before {@code start} starts at {@code start} (a closed bound);</li>
 * <li>the high bound is kept: a closed bound just below an exclusive {@code end} has no finite
 * key, and the rows at or above {@code end} are invisible anyway (HBase reads a referenced file
 * through its half-file reader, which shows only the region's half);</li>
 * <li>the union must be disjoint: the origins' rows are disjoint (merged regions are adjacent),
 * so an overlap means a manifest is wrong, and is refused rather than read with rows counted
 * twice.</li>
 * </ul>
 * Pure: no I/O, no HBase store.
 */
public final class LayoutUnion {
  /** One partition of the union, with the origin region whose manifest lists it. */
  public static final class Part {
    public final String origin;
    public final PartitionDescriptor partition;

    Part(String origin, PartitionDescriptor partition) {
      this.origin = origin;
      this.partition = partition;
    }
  }

  /** One origin's layout: its region and the partitions of its newest manifest. */
  public static final class Layout {
    final String origin;
    final List<PartitionDescriptor> partitions;

    public Layout(String origin, List<PartitionDescriptor> partitions) {
      this.origin = origin;
      this.partitions = partitions;
    }
  }

  /** Two origins claim overlapping rows: the region cannot be opened without losing data. */
  public static final class OverlapException extends IOException {
    private static final long serialVersionUID = 1L;

    OverlapException(String message) {
      super(message);
    }
  }

  private LayoutUnion() {
  }

  /**
   * The union of {@code layouts}, clipped to {@code [start, end)} (empty arrays are open
   * bounds), ascending by low key.
   * @throws OverlapException when two clipped partitions overlap, naming both origins
   */
  public static List<Part> union(List<Layout> layouts, byte[] start, byte[] end)
    throws OverlapException {
    List<Part> out = new ArrayList<>();
    for (Layout l : layouts) {
      for (PartitionDescriptor p : l.partitions) {
        if (start.length > 0 && Bytes.compareTo(p.high(), start) < 0) {
          continue;
        }
        if (end.length > 0 && Bytes.compareTo(p.low(), end) >= 0) {
          continue;
        }
        PartitionDescriptor clipped = start.length > 0 && Bytes.compareTo(p.low(), start) < 0
          ? new PartitionDescriptor(start, p.high(), p.segments())
          : p;
        out.add(new Part(l.origin, clipped));
      }
    }
    out.sort(Comparator.comparing((Part x) -> x.partition.low(), Bytes.BYTES_COMPARATOR));
    for (int i = 1; i < out.size(); i++) {
      Part a = out.get(i - 1);
      Part b = out.get(i);
      if (Bytes.compareTo(a.partition.high(), b.partition.low()) >= 0) {
        throw new OverlapException("Level-1 partitions overlap: [" + range(a.partition)
          + "] of region " + a.origin + " and [" + range(b.partition) + "] of region " + b.origin);
      }
    }
    return out;
  }

  private static String range(PartitionDescriptor p) {
    return Bytes.toStringBinary(p.low()) + ", " + Bytes.toStringBinary(p.high());
  }
}
