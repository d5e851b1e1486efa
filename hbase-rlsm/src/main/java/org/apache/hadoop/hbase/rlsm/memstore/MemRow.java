package org.apache.hadoop.hbase.rlsm.memstore;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.ClassSize;

/**
 * One row of a {@link HashCellTable}: its key and its cells in {@code CellComparator} order.
 *
 * <p>Small rows keep a sorted {@code Cell[]} that is replaced, never modified, on every write
 * (copy on write), so readers iterate it without locks and a multi-cell write appears at once.
 * A row that grows beyond the configured limit switches to a {@link ConcurrentSkipListMap} so a
 * hot row (a counter, many versions) costs O(log n) per write rather than a copy of the row.
 * Writers serialise on the row's monitor (HBase already holds the row lock); readers never lock.
 * Equality and hashing are by row bytes only, so a fresh object works as a lookup probe.
 */
public final class MemRow {
  /** Orders rows by unsigned lexicographic row bytes, as {@code CellComparator} orders rows. */
  public static final Comparator<MemRow> ROW_ORDER = (a, b) -> Bytes.compareTo(a.row, b.row);

  static final long SHALLOW_SIZE =
    ClassSize.align(ClassSize.OBJECT + 2 * ClassSize.REFERENCE + 2 * Bytes.SIZEOF_INT
      + Bytes.SIZEOF_BOOLEAN);
  private static final Cell[] EMPTY = new Cell[0];

  private final byte[] row;
  private final int hash;
  /** {@code Cell[]} (sorted, immutable) or {@code ConcurrentSkipListMap<Cell, Cell>}. */
  private volatile Object cells = EMPTY;
  private int size; // guarded by this
  /** Set once the row is in its table's creation log; writers wait for it (see HashCellTable). */
  private volatile boolean logged;

  MemRow(byte[] row, int hash) {
    this.row = row;
    this.hash = hash;
  }

  public byte[] getRow() {
    return row;
  }

  /** Heap of this object and its key, excluding the cell container. */
  long keyHeapSize() {
    return SHALLOW_SIZE + ClassSize.align(ClassSize.ARRAY + row.length);
  }

  boolean isLogged() {
    return logged;
  }

  void markLogged() {
    logged = true;
  }

  /**
   * Inserts {@code n} cells of this row. Exact duplicates (same key and sequence id) replace the
   * cell already present, as HBase's {@code CellSet} does, and are flagged in {@code dup}.
   * @return change of the container's heap size (not counting the cells themselves)
   */
  synchronized long insert(Cell[] run, int n, boolean[] dup, CellComparator cmp, int arrayMax) {
    if (n > 1) {
      Arrays.sort(run, 0, n, cmp); // stable: of equal cells the later write stays later and wins
    }
    long before = containerHeapSize();
    Object c = cells;
    if (c instanceof Cell[]) {
      Cell[] merged = merge((Cell[]) c, run, n, dup, cmp);
      size = merged.length;
      if (size > arrayMax) {
        ConcurrentSkipListMap<Cell, Cell> map = new ConcurrentSkipListMap<>(cmp);
        for (Cell cell : merged) {
          map.put(cell, cell);
        }
        cells = map;
      } else {
        cells = merged;
      }
    } else {
      @SuppressWarnings("unchecked")
      ConcurrentSkipListMap<Cell, Cell> map = (ConcurrentSkipListMap<Cell, Cell>) c;
      for (int i = 0; i < n; i++) {
        dup[i] = map.put(run[i], run[i]) != null;
        if (!dup[i]) {
          size++;
        }
      }
    }
    return containerHeapSize() - before;
  }

  private static Cell[] merge(Cell[] old, Cell[] run, int n, boolean[] dup, CellComparator cmp) {
    Cell[] out = new Cell[old.length + n];
    int i = 0;
    int j = 0;
    int k = 0;
    while (i < old.length || j < n) {
      // Ties take the old cell first so that the new one replaces it below.
      if (j == n || (i < old.length && cmp.compare(old[i], run[j]) <= 0)) {
        out[k++] = old[i++];
      } else {
        Cell c = run[j];
        dup[j] = k > 0 && cmp.compare(out[k - 1], c) == 0;
        if (dup[j]) {
          out[k - 1] = c;
        } else {
          out[k++] = c;
        }
        j++;
      }
    }
    return k == out.length ? out : Arrays.copyOf(out, k);
  }

  /** Heap of the cell container: array slots, or the skip list and its entries. */
  private long containerHeapSize() {
    return cells instanceof Cell[]
      ? ClassSize.align(ClassSize.ARRAY + (long) size * ClassSize.REFERENCE)
      : ClassSize.CONCURRENT_SKIPLISTMAP + (long) size * ClassSize.CONCURRENT_SKIPLISTMAP_ENTRY;
  }

  /** Heap of an empty row's container, charged when the row is created. */
  static long emptyContainerHeapSize() {
    return ClassSize.align(ClassSize.ARRAY);
  }

  /** The cells in order. The returned array must not be modified. */
  public Cell[] toArray() {
    Object c = cells;
    return c instanceof Cell[] ? (Cell[]) c
      : ((ConcurrentSkipListMap<?, ?>) c).values().toArray(EMPTY);
  }

  /**
   * Iterates the cells at or after {@code from} ({@code null}: from the first), seeing at least
   * every cell whose write completed before the call.
   */
  public Iterator<Cell> iterator(Cell from, CellComparator cmp) {
    Object c = cells;
    if (c instanceof Cell[]) {
      Cell[] a = (Cell[]) c;
      return new ArrayIterator(a, from == null ? 0 : lowerBound(a, from, cmp));
    }
    @SuppressWarnings("unchecked")
    ConcurrentSkipListMap<Cell, Cell> map = (ConcurrentSkipListMap<Cell, Cell>) c;
    // values(), not keys: an exact duplicate replaces the value and keeps the first key object
    return (from == null ? map : map.tailMap(from, true)).values().iterator();
  }

  private static int lowerBound(Cell[] a, Cell key, CellComparator cmp) {
    int lo = 0;
    int hi = a.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cmp.compare(a[mid], key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MemRow && Bytes.equals(row, ((MemRow) o).row);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return Bytes.toStringBinary(row);
  }

  private static final class ArrayIterator implements Iterator<Cell> {
    private final Cell[] a;
    private int i;

    ArrayIterator(Cell[] a, int i) {
      this.a = a;
      this.i = i;
    }

    @Override
    public boolean hasNext() {
      return i < a.length;
    }

    @Override
    public Cell next() {
      if (i >= a.length) {
        throw new NoSuchElementException();
      }
      return a[i++];
    }
  }
}
