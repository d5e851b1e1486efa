package org.apache.hadoop.hbase.regionserver;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.Reference;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.index.SortedRowView;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The distinct row keys of one store file inside a closed row range, ascending, one at a time:
 * for the compaction planner's row sources and partition summaries. A v1 file walks its
 * in-memory sorted row view; any HFile (v2, bulk load) is read through HBase's pread scanner,
 * skipping the rest of each row by a reseek, so only the current row (and the block it is in) is
 * held; it caches the blocks it reads only when its caller says so (a file the same compaction
 * then reads, see {@link RlsmStoreRows}). Every call consumes at least one row of the file, so a cursor
 * always ends; and every call first checks the thread's interrupt flag, so a long read (a
 * partition summary, a planner row source) gives way when HBase interrupts its compaction
 * threads at shutdown ({@code CompactSplit.join} interrupts them and waits). Not thread-safe.
 */
@InterfaceAudience.Private
abstract class RlsmRowCursor implements Closeable {
  /**
   * The next row, or null at the end.
   * @throws InterruptedIOException when the thread was interrupted (its flag stays set)
   */
  final byte[] next() throws IOException {
    if (Thread.currentThread().isInterrupted()) {
      throw new InterruptedIOException("reading row keys interrupted");
    }
    return advance();
  }

  abstract byte[] advance() throws IOException;

  /** A cursor over {@code f}'s rows in [low, high] (a null bound is open), caching no block. */
  static RlsmRowCursor open(HStoreFile f, byte[] low, byte[] high) throws IOException {
    return open(f, low, high, false);
  }

  /**
   * A cursor over {@code f}'s rows in [low, high] (a null bound is open) that puts the blocks it
   * reads into the BlockCache when {@code cacheBlocks} (and the family caches on read).
   */
  static RlsmRowCursor open(HStoreFile f, byte[] low, byte[] high, boolean cacheBlocks)
    throws IOException {
    f.initReader();
    if (f instanceof RlsmStoreFile) {
      return new V1(((RlsmStoreFile) f).getReader().getRlsmFile(), low, high);
    }
    if (low != null && belowHalf(f, low)) {
      return new Empty();
    }
    return new HFileRows(f.getPreadScanner(cacheBlocks, Long.MAX_VALUE, 0, false), low,
      high);
  }

  /**
   * Whether {@code f} is the bottom half of a split parent's file and {@code low} lies at or
   * past the split row, so that no row of the half is at or after it. A half file's scanner
   * cannot be sought there: HBase's {@code HalfStoreFileReader} then seeks before the split key
   * and fails ("Seeking for a key in bottom of file, but key exists in top of file") when the
   * half holds no row. (A top half sought below its split row starts at its first row.)
   */
  private static boolean belowHalf(HStoreFile f, byte[] low) {
    Reference ref = f.getFileInfo().getReference();
    if (ref == null || Reference.isTopFileRegion(ref.getFileRegion())) {
      return false;
    }
    byte[] key = ref.getSplitKey();
    byte[] split = CellUtil.cloneRow(new KeyValue.KeyOnlyKeyValue(key, 0, key.length));
    return Bytes.compareTo(low, split) >= 0;
  }

  /** No rows: a range outside the file's half. */
  private static final class Empty extends RlsmRowCursor {
    @Override
    byte[] advance() {
      return null;
    }

    @Override
    public void close() {
    }
  }

  private static final class V1 extends RlsmRowCursor {
    private final RlsmFileReader file;
    private final SortedRowView view;
    private final int to;
    private int pos;

    V1(RlsmFileReader file, byte[] low, byte[] high) {
      this.file = file;
      this.view = file.sortedView();
      this.pos = low == null ? 0 : view.lowerBound(low, 0, low.length);
      this.to = high == null ? view.size() : view.upperBound(high, 0, high.length);
    }

    @Override
    byte[] advance() {
      return pos < to ? file.index().row(view.entry(pos++)) : null;
    }

    @Override
    public void close() {
    }
  }

  private static final class HFileRows extends RlsmRowCursor {
    private final StoreFileScanner scanner;
    private final byte[] low;
    private final byte[] high;
    private boolean started;

    HFileRows(StoreFileScanner scanner, byte[] low, byte[] high) {
      this.scanner = scanner;
      this.low = low;
      this.high = high;
    }

    @Override
    byte[] advance() throws IOException {
      if (!started) {
        started = true;
        scanner.seek(low == null ? PrivateCellUtil.createFirstOnRow(new byte[0])
          : PrivateCellUtil.createFirstOnRow(low));
      }
      Cell c = scanner.peek();
      if (c == null || (high != null && Bytes.compareTo(c.getRowArray(), c.getRowOffset(),
        c.getRowLength(), high, 0, high.length) > 0)) {
        return null;
      }
      byte[] row = CellUtil.cloneRow(c);
      scanner.reseek(PrivateCellUtil.createLastOnRow(row)); // sorts after every cell of row
      // HBase's reseek leaves the scanner in place when the key does not sort after its cell; a
      // reader that did so here (a half file, a link) would return this row again for ever, so
      // step over what is left of the row: every call consumes the row it returns
      for (Cell n = scanner.peek(); n != null && CellUtil.matchingRows(n, row);
        n = scanner.peek()) {
        scanner.next();
      }
      // the row is a copy: let the scanner release the blocks it has left (a read that does not
      // cache blocks holds pooled buffers until then, so a long cursor would hold every block)
      scanner.shipped();
      return row;
    }

    @Override
    public void close() {
      scanner.close();
    }
  }
}
