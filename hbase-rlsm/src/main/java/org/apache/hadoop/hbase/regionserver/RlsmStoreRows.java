package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.rlsm.compaction.RowSource;
import org.apache.hadoop.hbase.rlsm.index.RowQuantiles;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The row keys of the files of one store layout, for the compaction planner, read by a
 * {@link RlsmRowCursor} within the requested range only, and their lengths, row counts and row
 * quantiles from file-info. Files are found by name in the layout's name map.
 *
 * <p>{@link RowSource} cannot throw checked exceptions, so a failed read surfaces as an
 * {@link UncheckedIOException}; the compaction context unwraps it.
 */
@InterfaceAudience.Private
final class RlsmStoreRows implements RowSource {
  private final RlsmStoreFileManager.State state;

  RlsmStoreRows(RlsmStoreFileManager.State state) {
    this.state = state;
  }

  private HStoreFile file(String name) {
    HStoreFile f = state.byName.get(name);
    if (f == null) {
      throw new IllegalStateException("no file " + name + " in the store");
    }
    return f;
  }

  @Override
  public long length(String name) {
    return file(name).getReader().length();
  }

  @Override
  public long rowCount(String name) {
    return RlsmFiles.rowCount(file(name));
  }

  @Override
  public RowQuantiles quantiles(String name) {
    return RlsmFiles.quantiles(file(name));
  }

  @Override
  public byte[][] rows(String name, byte[] low, byte[] high) {
    HStoreFile f = file(name);
    List<byte[]> rows = new ArrayList<>();
    try (RlsmRowCursor c = RlsmRowCursor.open(f, low, high)) {
      for (byte[] r = c.next(); r != null; r = c.next()) {
        rows.add(r);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows.toArray(new byte[0][]);
  }

  @Override
  public long count(String name, byte[] low, byte[] high) {
    long n = 0;
    try (RlsmRowCursor c = RlsmRowCursor.open(file(name), low, high)) {
      while (c.next() != null) {
        n++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return n;
  }
}
