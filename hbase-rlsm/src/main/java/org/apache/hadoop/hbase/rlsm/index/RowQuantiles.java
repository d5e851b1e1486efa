package org.apache.hadoop.hbase.rlsm.index;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hbase.rlsm.format.ByteReader;
import org.apache.hadoop.hbase.rlsm.format.ByteWriter;
import org.apache.hadoop.hbase.rlsm.format.Checksums;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The rows of one file in key order, cut into at most {@value #MAX_BUCKETS} buckets of about equal
 * row counts: per bucket its last row, its row count and a {@link RowSketch} of its rows. The
 * compaction planner divides a partition at a bucket boundary and gives each half the union of
 * the sketches of the buckets it meets, so an index split reads no row (docs/format/rlsm-file.md,
 * "Row quantiles", which specifies the encoding; docs/architecture.md, "Level-1 and
 * compaction").
 *
 * <p>Built while a file is written ({@link Builder}, rows in ascending order, memory bounded by
 * the bucket count whatever the rows): each bucket closes at a span of rows; when
 * {@value #MAX_BUCKETS} are closed, neighbours are merged pairwise and the span doubles. So a file
 * of at least {@value #MAX_BUCKETS} rows ends with {@value #MAX_BUCKETS}/2 to {@value #MAX_BUCKETS}
 * buckets (the last may be short), each but the last of exactly the span; a smaller file has one
 * bucket per row. Immutable once built or decoded.
 */
public final class RowQuantiles {
  /** The most buckets a file records; part of the checks of the encoding. */
  public static final int MAX_BUCKETS = 16;
  private static final int VERSION = 1;

  private final byte[] first;
  private final List<Bucket> buckets;

  /** One run of rows: those after the previous bucket's last row up to and including its own. */
  public static final class Bucket {
    private final byte[] last;
    private final long rows;
    private final RowSketch sketch;

    Bucket(byte[] last, long rows, RowSketch sketch) {
      this.last = last;
      this.rows = rows;
      this.sketch = sketch;
    }

    public byte[] last() {
      return last;
    }

    public long rows() {
      return rows;
    }

    /** Not to be changed: merges work on a copy. */
    public RowSketch sketch() {
      return sketch;
    }
  }

  private RowQuantiles(byte[] first, List<Bucket> buckets) {
    this.first = first;
    this.buckets = Collections.unmodifiableList(buckets);
  }

  /** The file's first row; null when it has none. */
  public byte[] first() {
    return first;
  }

  /** Buckets in key order; empty for a file without rows. */
  public List<Bucket> buckets() {
    return buckets;
  }

  /** Builds the quantiles of rows given in ascending order, each once. Not thread-safe. */
  public static final class Builder {
    private final List<Bucket> closed = new ArrayList<>();
    private byte[] first;
    private byte[] last;
    private long span = 1;
    private long open;
    private RowSketch openSketch = new RowSketch();

    /**
     * Adds the next row.
     * @param row  a row greater than every row added before; kept, not copied
     * @param hash its {@link RowSketch#hash}
     */
    public void add(byte[] row, long hash) {
      if (first == null) {
        first = row;
      }
      last = row;
      open++;
      openSketch.addHash(hash);
      if (open == span) {
        close();
        if (closed.size() == MAX_BUCKETS) {
          halve();
        }
      }
    }

    private void close() {
      closed.add(new Bucket(last, open, openSketch));
      open = 0;
      openSketch = new RowSketch();
    }

    /** Merges neighbours pairwise; MAX_BUCKETS is even, so every bucket has a partner. */
    private void halve() {
      List<Bucket> merged = new ArrayList<>(MAX_BUCKETS / 2);
      for (int i = 0; i < closed.size(); i += 2) {
        Bucket a = closed.get(i);
        Bucket b = closed.get(i + 1);
        RowSketch s = a.sketch.copy();
        s.addAll(b.sketch);
        merged.add(new Bucket(b.last, a.rows + b.rows, s));
      }
      closed.clear();
      closed.addAll(merged);
      span *= 2;
    }

    /** The quantiles of the rows added; the builder is not used after. */
    public RowQuantiles build() {
      if (open > 0) {
        close();
      }
      return new RowQuantiles(first, new ArrayList<>(closed));
    }
  }

  /**
   * The encoding of docs/format/rlsm-file.md, "Row quantiles", ending with its CRC32C: HBase
   * serves a block (the meta block holding it, or the file-info of older files) whose checksum
   * fails when the file system has no checksums of its own, so damage must be caught here.
   */
  public byte[] encode() {
    ByteWriter w = new ByteWriter(64 + buckets.size() * 1100);
    w.u8(VERSION).u16(buckets.size());
    if (!buckets.isEmpty()) {
      w.varLong(first.length).bytes(first);
      for (Bucket b : buckets) {
        byte[] s = b.sketch.encode();
        w.varLong(b.rows).varLong(b.last.length).bytes(b.last).varLong(s.length).bytes(s);
      }
    }
    return w.i32(Checksums.crc32c(w.array(), 0, w.length())).toByteArray();
  }

  /**
   * Decodes and checks encoded quantiles; errors name {@code file} and {@code fileOffset} (the
   * offset of the block holding them).
   */
  public static RowQuantiles decode(String file, long fileOffset, byte[] v)
    throws RlsmCorruptionException {
    if (v.length < 4) {
      throw new RlsmCorruptionException(file, fileOffset, "row quantiles of " + v.length
        + " bytes, shorter than their checksum");
    }
    Checksums.verify(file, fileOffset, v, 0, v.length - 4, Bytes.toInt(v, v.length - 4),
      "row quantiles");
    ByteReader r = new ByteReader(file, fileOffset, v, 0, v.length - 4);
    int version = r.u8();
    if (version != VERSION) {
      throw r.corrupt("row quantiles version " + version + " is not " + VERSION);
    }
    int n = r.u16();
    if (n > MAX_BUCKETS) {
      throw r.corrupt("row quantiles of " + n + " buckets, more than " + MAX_BUCKETS);
    }
    byte[] first = null;
    List<Bucket> buckets = new ArrayList<>(n);
    if (n > 0) {
      first = r.bytes(r.varLength(Short.MAX_VALUE));
      byte[] previous = null;
      for (int i = 0; i < n; i++) {
        long rows = r.varLong();
        if (rows < 1) {
          throw r.corrupt("row quantiles bucket " + i + " holds " + rows + " rows");
        }
        byte[] last = r.bytes(r.varLength(Short.MAX_VALUE));
        int lowest = Bytes.compareTo(last, previous == null ? first : previous);
        if (previous == null ? lowest < 0 : lowest <= 0) {
          throw r.corrupt("row quantiles bucket " + i + " does not end above the one before");
        }
        int len = r.varLength(r.remaining());
        long at = r.fileOffset();
        RowSketch sketch = RowSketch.decode(file, at, r.bytes(len));
        if (sketch.isExact() && sketch.estimate() > rows) {
          throw r.corruptAt(at, "row quantiles bucket " + i + " sketches more rows than its "
            + rows);
        }
        buckets.add(new Bucket(last, rows, sketch));
        previous = last;
      }
    }
    if (r.remaining() != 0) {
      throw r.corrupt(r.remaining() + " trailing bytes after the row quantiles' buckets");
    }
    return new RowQuantiles(first, buckets);
  }
}
