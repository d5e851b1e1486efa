package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.rlsm.compaction.RowSource;
import org.apache.hadoop.hbase.rlsm.index.RowQuantiles;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The row keys of the files of one store layout, for the compaction planner, read by a
 * {@link RlsmRowCursor} within the requested range only, their lengths and row counts from
 * file-info, and their row quantiles from a meta block through the BlockCache. Files are found
 * by name in the layout's name map.
 *
 * <p>Rows of a file the compaction then reads (its inputs: the Level-0 files a range-append or a
 * major compaction places) are read with block caching on, so that the compaction's own scan
 * finds those blocks in the BlockCache instead of reading them from the file system again. The
 * planner reads such a file once per gap between partitions ({@code PlacedLayouts}), and with
 * small files many gaps fall in one block, so without the cache a block was read once per gap
 * and once more by the scan. The blocks of a file the compaction retires leave the cache with it
 * (HBase's discharger closes a compacted file evicting its blocks); those of an input that stays
 * (a shared segment read in one range) are a live file's and age out as any read's do. Other
 * files (kept segments whose rows a layout counts) are read without caching, as HBase's
 * compactions read. A family with {@code BLOCKCACHE => false} caches nothing either way.
 *
 * <p>{@link RowSource} cannot throw checked exceptions, so a failed read surfaces as an
 * {@link UncheckedIOException}; the compaction context unwraps it.
 */
@InterfaceAudience.Private
final class RlsmStoreRows implements RowSource {
  private final RlsmStoreFileManager.State state;
  private final Set<String> inputs;

  /** Rows of {@code state}'s files; {@code inputs} names those the compaction reads after. */
  RlsmStoreRows(RlsmStoreFileManager.State state, Set<String> inputs) {
    this.state = state;
    this.inputs = inputs;
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
    try {
      return RlsmFiles.quantiles(file(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public byte[][] rows(String name, byte[] low, byte[] high) {
    HStoreFile f = file(name);
    List<byte[]> rows = new ArrayList<>();
    try (RlsmRowCursor c = RlsmRowCursor.open(f, low, high, inputs.contains(name))) {
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
    try (RlsmRowCursor c = RlsmRowCursor.open(file(name), low, high, inputs.contains(name))) {
      while (c.next() != null) {
        n++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return n;
  }
}
