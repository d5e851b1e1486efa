package org.apache.hadoop.hbase.rlsm.file;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.rlsm.format.ByteReader;
import org.apache.hadoop.hbase.rlsm.format.Checksums;
import org.apache.hadoop.hbase.rlsm.format.FileMeta;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.rlsm.format.RowRecordCodec;
import org.apache.hadoop.hbase.rlsm.format.Section;
import org.apache.hadoop.hbase.rlsm.format.Trailer;
import org.apache.hadoop.hbase.rlsm.index.BloomFilter;
import org.apache.hadoop.hbase.rlsm.index.HashIndex;
import org.apache.hadoop.hbase.rlsm.index.SortedRowView;

/**
 * An open RLSM file. Opening reads the trailer and the index, Bloom and meta sections and checks
 * their checksums and mutual consistency; the data section is read one record at a time with
 * positional reads, each record checked against its own checksum. Thread-safe: all state is
 * immutable after open except the lazily built {@link SortedRowView}.
 */
public final class RlsmFileReader implements Closeable {
  private final Path path;
  private final String name;
  private final FSDataInputStream in;
  private final long length;
  private final Trailer trailer;
  private final FileMeta meta;
  private final HashIndex index;
  private final BloomFilter bloom;
  private final byte[] family;
  private final byte[] firstRow;
  private final byte[] lastRow;
  private volatile SortedRowView sortedView;

  private RlsmFileReader(Path path, FSDataInputStream in, long length) throws IOException {
    this.path = path;
    this.name = path.toString();
    this.in = in;
    this.length = length;
    byte[] tail = readAt(Math.max(0, length - Trailer.ENCODED_LENGTH),
      (int) Math.min(length, Trailer.ENCODED_LENGTH));
    this.trailer = Trailer.decode(name, tail, length);
    Section idx = trailer.index();
    long metaLen = trailer.meta().end() - idx.offset();
    if (metaLen > Integer.MAX_VALUE - 16) {
      throw new RlsmCorruptionException(name, idx.offset(), "metadata sections too large");
    }
    byte[] m = readAt(idx.offset(), (int) metaLen);
    this.index = HashIndex.decode(check(m, idx, "index"), trailer.data().length(),
      RowRecordCodec.FRAME_OVERHEAD + 2);
    Section bl = trailer.bloom();
    this.bloom = bl.length() == 0 ? null : BloomFilter.decode(check(m, bl, "bloom"));
    this.meta = FileMeta.decode(check(m, trailer.meta(), "meta"));
    if (index.size() != trailer.rowCount()) {
      throw new RlsmCorruptionException(name, idx.offset(),
        "index has " + index.size() + " rows, trailer says " + trailer.rowCount());
    }
    this.family = required(FileMeta.FAMILY);
    boolean empty = trailer.rowCount() == 0;
    this.firstRow = empty ? null : required(FileMeta.FIRST_ROW);
    this.lastRow = empty ? null : required(FileMeta.LAST_ROW);
  }

  private ByteReader check(byte[] m, Section s, String what) throws RlsmCorruptionException {
    int off = (int) (s.offset() - trailer.index().offset());
    Checksums.verify(name, s.offset(), m, off, (int) s.length(), s.crc(), what + " section");
    return new ByteReader(name, s.offset(), m, off, (int) s.length());
  }

  private byte[] required(String key) throws RlsmCorruptionException {
    byte[] v = meta.get(key);
    if (v == null) {
      throw new RlsmCorruptionException(name, trailer.meta().offset(), "meta lacks " + key);
    }
    return v;
  }

  /** Opens and validates {@code path}; closes the stream if validation fails. */
  public static RlsmFileReader open(FileSystem fs, Path path) throws IOException {
    long len = fs.getFileStatus(path).getLen();
    FSDataInputStream in = fs.open(path);
    try {
      return new RlsmFileReader(path, in, len);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  private byte[] readAt(long pos, int len) throws IOException {
    byte[] b = new byte[len];
    try {
      in.readFully(pos, b, 0, len);
    } catch (EOFException e) {
      throw new RlsmCorruptionException(name, pos, "file ends inside a " + len + "-byte read", e);
    }
    return b;
  }

  /** Reads and verifies the record of index entry {@code entry}. */
  public KeyValue[] readEntry(int entry) throws IOException {
    long off = index.offset(entry);
    int len = index.length(entry);
    byte[] b = readAt(off, len);
    return RowRecordCodec.decode(name, off, b, 0, len, family, null);
  }

  /** The cells of {@code row} in this file, or null when the file does not hold the row. */
  public KeyValue[] readRow(byte[] row, int off, int len) throws IOException {
    if (bloom != null && !bloom.mightContain(row, off, len)) {
      return null;
    }
    int e = index.find(row, off, len);
    return e < 0 ? null : readEntry(e);
  }

  /** False when the Bloom filter (or, without one, the index) proves the row absent. */
  public boolean mightContain(byte[] row, int off, int len) {
    if (bloom != null) {
      return bloom.mightContain(row, off, len);
    }
    return index.find(row, off, len) >= 0;
  }

  /** Reads the whole data section and checks it against the trailer's data checksum. */
  public void verifyData() throws IOException {
    Section d = trailer.data();
    CRC32C crc = new CRC32C();
    byte[] buf = new byte[1 << 20];
    for (long pos = 0; pos < d.length(); pos += buf.length) {
      int n = (int) Math.min(buf.length, d.length() - pos);
      in.readFully(pos, buf, 0, n);
      crc.update(buf, 0, n);
    }
    if ((int) crc.getValue() != d.crc()) {
      throw new RlsmCorruptionException(name, 0, "data section checksum mismatch");
    }
    for (int e = 0; e < index.size(); e++) {
      readEntry(e);
    }
  }

  public SortedRowView sortedView() {
    SortedRowView v = sortedView;
    if (v == null) {
      synchronized (this) {
        v = sortedView;
        if (v == null) {
          v = new SortedRowView(index);
          sortedView = v;
        }
      }
    }
    return v;
  }

  public Path getPath() {
    return path;
  }

  public long length() {
    return length;
  }

  public Trailer trailer() {
    return trailer;
  }

  public FileMeta meta() {
    return meta;
  }

  public HashIndex index() {
    return index;
  }

  /** The Level-0 Bloom filter, or null when the file has none. */
  public BloomFilter bloom() {
    return bloom;
  }

  public byte[] family() {
    return family;
  }

  /** Smallest row in the file; null for an empty file. */
  public byte[] firstRow() {
    return firstRow;
  }

  /** Largest row in the file; null for an empty file. */
  public byte[] lastRow() {
    return lastRow;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
