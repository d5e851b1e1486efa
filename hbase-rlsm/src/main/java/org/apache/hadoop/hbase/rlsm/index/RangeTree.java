package org.apache.hadoop.hbase.rlsm.index;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The Level-1 range tree (docs/design.md "Level-1 range tree"): a balanced search tree of
 * partitions keyed by their low key. A point lookup takes the floor entry and checks the key
 * against that partition's high key; a range query returns the partitions overlapping a key
 * interval. Immutable once built; ranges are closed {@code [low, high]} and must be disjoint.
 */
public final class RangeTree<P> {
  private final NavigableMap<byte[], P> byLow;
  private final Function<P, byte[]> highOf;

  /**
   * @param lowOf  a partition's low key
   * @param highOf a partition's high key
   * @throws IllegalArgumentException when ranges overlap or are inverted
   */
  public RangeTree(Collection<P> partitions, Function<P, byte[]> lowOf,
    Function<P, byte[]> highOf) {
    TreeMap<byte[], P> m = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (P p : partitions) {
      if (Bytes.compareTo(lowOf.apply(p), highOf.apply(p)) > 0) {
        throw new IllegalArgumentException("inverted range " + p);
      }
      if (m.put(lowOf.apply(p), p) != null) {
        throw new IllegalArgumentException("two partitions start at the same key: " + p);
      }
    }
    byte[] prevHigh = null;
    for (Map.Entry<byte[], P> e : m.entrySet()) {
      if (prevHigh != null && Bytes.compareTo(prevHigh, e.getKey()) >= 0) {
        throw new IllegalArgumentException("overlapping ranges at " + e.getValue());
      }
      prevHigh = highOf.apply(e.getValue());
    }
    this.byLow = Collections.unmodifiableNavigableMap(m);
    this.highOf = highOf;
  }

  /** The partition whose range holds {@code key}, or null when the key lies in a gap. */
  public P find(byte[] key) {
    Map.Entry<byte[], P> e = byLow.floorEntry(key);
    return e != null && Bytes.compareTo(key, highOf.apply(e.getValue())) <= 0 ? e.getValue()
      : null;
  }

  /** The last partition starting at or before {@code key} (holding it or not), or null. */
  public P floor(byte[] key) {
    Map.Entry<byte[], P> e = byLow.floorEntry(key);
    return e == null ? null : e.getValue();
  }

  /** The first partition starting after {@code key}, or null. */
  public P higher(byte[] key) {
    Map.Entry<byte[], P> e = byLow.higherEntry(key);
    return e == null ? null : e.getValue();
  }

  /**
   * Partitions overlapping {@code [start, stop]}; an empty {@code start} means unbounded below
   * and an empty {@code stop} unbounded above.
   */
  public List<P> overlapping(byte[] start, byte[] stop) {
    List<P> out = new ArrayList<>();
    byte[] from = start.length == 0 ? null : byLow.floorKey(start);
    NavigableMap<byte[], P> tail = from == null ? byLow : byLow.tailMap(from, true);
    for (Map.Entry<byte[], P> e : tail.entrySet()) {
      if (stop.length != 0 && Bytes.compareTo(e.getKey(), stop) > 0) {
        break;
      }
      if (start.length == 0 || Bytes.compareTo(highOf.apply(e.getValue()), start) >= 0) {
        out.add(e.getValue());
      }
    }
    return out;
  }

  /** All partitions in key order. */
  public Collection<P> all() {
    return byLow.values();
  }

  public int size() {
    return byLow.size();
  }
}
