package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.rlsm.compaction.RowSource;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.index.SortedRowView;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The row keys of the files of one store layout, for the compaction planner: an RLSM file's rows
 * come from its in-memory sorted row view (no data I/O); an HFile (bulk load) is read with a
 * stream scanner. Files are found by name in the layout's name map.
 *
 * <p>{@link RowSource} cannot throw checked exceptions, so a failed HFile read surfaces as an
 * {@link UncheckedIOException}; the compaction context unwraps it.
 */
@InterfaceAudience.Private
final class RlsmStoreRows implements RowSource {
  private final RlsmStoreFileManager.State state;

  RlsmStoreRows(RlsmStoreFileManager.State state) {
    this.state = state;
  }

  @Override
  public byte[][] rows(String name, byte[] low, byte[] high) {
    HStoreFile f = state.byName.get(name);
    if (f == null) {
      throw new IllegalStateException("no file " + name + " in the store");
    }
    if (f instanceof RlsmStoreFile) {
      return rlsmRows((RlsmStoreFile) f, low, high);
    }
    try {
      return hfileRows(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[][] rlsmRows(RlsmStoreFile f, byte[] low, byte[] high) {
    RlsmFileReader r = f.getReader().getRlsmFile();
    SortedRowView v = r.sortedView();
    int from = low == null ? 0 : v.lowerBound(low, 0, low.length);
    int to = high == null ? v.size() : v.upperBound(high, 0, high.length);
    byte[][] out = new byte[Math.max(0, to - from)][];
    for (int i = from; i < to; i++) {
      out[i - from] = r.index().row(v.entry(i));
    }
    return out;
  }

  /**
   * All rows of an HFile. HFiles are only ever Level-0 files (a manifest lists RLSM files only),
   * whose rows the planner always asks for whole, so no bounds are applied.
   */
  private static byte[][] hfileRows(HStoreFile f) throws IOException {
    List<byte[]> rows = new ArrayList<>();
    try (StoreFileScanner s = f.getStreamScanner(false, false, true, Long.MAX_VALUE, 0, false)) {
      s.seek(KeyValue.LOWESTKEY);
      byte[] last = null;
      for (Cell c = s.next(); c != null; c = s.next()) {
        if (last == null || !CellUtil.matchingRows(c, last)) {
          last = CellUtil.cloneRow(c);
          rows.add(last);
        }
      }
    }
    return rows.toArray(new byte[0][]);
  }
}
