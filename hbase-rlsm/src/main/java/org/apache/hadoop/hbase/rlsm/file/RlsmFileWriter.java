package org.apache.hadoop.hbase.rlsm.file;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hbase.rlsm.cachehint.CacheHints;
import org.apache.hadoop.hbase.rlsm.cachehint.FileKind;
import org.apache.hadoop.hbase.rlsm.cachehint.StreamRole;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.rlsm.format.ByteWriter;
import org.apache.hadoop.hbase.rlsm.format.Checksums;
import org.apache.hadoop.hbase.rlsm.format.FileMeta;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.RowRecordCodec;
import org.apache.hadoop.hbase.rlsm.format.Section;
import org.apache.hadoop.hbase.rlsm.format.Trailer;
import org.apache.hadoop.hbase.rlsm.index.BloomFilter;
import org.apache.hadoop.hbase.rlsm.index.HashIndex;
import org.apache.hadoop.hbase.rlsm.index.RowHash;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Writes one RLSM file (spec: docs/format/rlsm-file.md). Cells arrive in {@code CellComparator}
 * order, as a flush or compaction scanner yields them; each row becomes one record, and at
 * {@link #finish} the records are written in (row hash, row) order followed by the index, the
 * Bloom filter (Level-0 only), the meta section and the trailer.
 *
 * <p>The whole file is assembled in memory before it is written: the hash order is a permutation
 * of the input order, and the input (a memstore snapshot or a set of compaction victims) is
 * bounded by the flush size or the compaction size.
 */
public final class RlsmFileWriter implements Closeable {
  private final FileSystem fs;
  private final Path path;
  private final byte[] family;
  private final FileRole role;
  private final double bloomFpp;
  private final Map<String, byte[]> meta = new LinkedHashMap<>();
  private final List<PendingRow> rows = new ArrayList<>();
  private final List<Cell> rowCells = new ArrayList<>();
  private final ByteWriter scratch = new ByteWriter(4096);

  private long cellCount;
  private long maxMemstoreTs;
  private long minTimestamp = Long.MAX_VALUE;
  private long maxTimestamp = Long.MIN_VALUE;
  private long deleteFamilyCount;
  private long dataBytes;
  private byte[] firstRow;
  private byte[] lastRow;
  private byte[] lastAppended; // last row completed through append(Cell), for the order check
  private boolean finished;

  private static final class PendingRow {
    final int hash;
    final byte[] row;
    final byte[] record;

    PendingRow(int hash, byte[] row, byte[] record) {
      this.hash = hash;
      this.row = row;
      this.record = record;
    }
  }

  /**
   * @param bloomFpp false-positive rate of the row Bloom filter; 0 writes no filter
   */
  public RlsmFileWriter(FileSystem fs, Path path, byte[] family, FileRole role, double bloomFpp) {
    this.fs = fs;
    this.path = path;
    this.family = family;
    this.role = role;
    this.bloomFpp = bloomFpp;
  }

  public Path getPath() {
    return path;
  }

  /** Cells must come in {@code CellComparator} order and belong to this writer's family. */
  public void append(Cell cell) {
    checkOpen();
    if (!rowCells.isEmpty() && !CellUtil.matchingRows(rowCells.get(0), cell)) {
      endRow();
    }
    rowCells.add(cell);
  }

  private void endRow() {
    Cell[] cells = rowCells.toArray(new Cell[0]);
    rowCells.clear();
    byte[] row = CellUtil.cloneRow(cells[0]);
    if (lastAppended != null && Bytes.compareTo(lastAppended, row) >= 0) {
      throw new IllegalStateException("rows out of order in " + path + ": "
        + Bytes.toStringBinary(lastAppended) + " then " + Bytes.toStringBinary(row));
    }
    addRow(row, cells, 0, cells.length);
    lastAppended = row;
  }

  /**
   * Adds one whole row whose cells are in {@code CellComparator} order. Rows may come in any
   * order (a hash memstore hands them over unsorted), but each row at most once per file.
   */
  public void appendRow(Cell[] cells, int from, int to) {
    checkOpen();
    if (!rowCells.isEmpty()) {
      endRow();
    }
    addRow(CellUtil.cloneRow(cells[from]), cells, from, to);
  }

  private void checkOpen() {
    if (finished) {
      throw new IllegalStateException("append after finish on " + path);
    }
  }

  private void addRow(byte[] row, Cell[] cells, int from, int to) {
    for (int i = from; i < to; i++) {
      Cell cell = cells[i];
      maxMemstoreTs = Math.max(maxMemstoreTs, cell.getSequenceId());
      // As HBase's TimeRangeTracker: a DeleteColumn/DeleteFamily marker masks every older cell,
      // so the file's range reaches down to 0 and time-range reads never skip the marker.
      minTimestamp = Math.min(minTimestamp,
        PrivateCellUtil.isDeleteColumnOrFamily(cell) ? 0 : cell.getTimestamp());
      maxTimestamp = Math.max(maxTimestamp, cell.getTimestamp());
      if (CellUtil.isDeleteFamily(cell) || CellUtil.isDeleteFamilyVersion(cell)) {
        deleteFamilyCount++;
      }
    }
    cellCount += to - from;
    if (firstRow == null || Bytes.compareTo(row, firstRow) < 0) {
      firstRow = row;
    }
    if (lastRow == null || Bytes.compareTo(row, lastRow) > 0) {
      lastRow = row;
    }
    scratch.reset();
    RowRecordCodec.encode(scratch, cells, from, to);
    rows.add(new PendingRow(RowHash.hash(row), row, scratch.toByteArray()));
    dataBytes += scratch.length();
  }

  /** Adds a meta-section entry (see {@link FileMeta} for the well-known keys). */
  public void addMeta(String key, byte[] value) {
    meta.put(key, value);
  }

  /** Bytes of row records buffered so far (before the index and metadata). */
  public long getDataBytes() {
    return dataBytes;
  }

  /**
   * Writes the file durably and returns its length. A writer that got no cells still writes a
   * valid empty file: HBase clears a memstore snapshot only when its flush committed a file.
   */
  public long finish(long maxSequenceId) throws IOException {
    if (finished) {
      throw new IllegalStateException("finish twice on " + path);
    }
    finished = true;
    if (!rowCells.isEmpty()) {
      endRow();
    }
    rows.sort((a, b) -> {
      int c = Integer.compareUnsigned(a.hash, b.hash);
      return c != 0 ? c : Bytes.compareTo(a.row, b.row);
    });
    for (int i = 1; i < rows.size(); i++) {
      if (Bytes.equals(rows.get(i - 1).row, rows.get(i).row)) {
        throw new IllegalStateException(
          "row " + Bytes.toStringBinary(rows.get(i).row) + " added twice to " + path);
      }
    }
    HashIndex.Builder index = new HashIndex.Builder(rows.size());
    BloomFilter bloom =
      bloomFpp > 0 && !rows.isEmpty() ? BloomFilter.create(rows.size(), bloomFpp) : null;
    CRC32C dataCrc = new CRC32C();
    long length;
    boolean ok = false;
    FSDataOutputStream out = fs.create(path, false);
    try {
      // the page cache learns the file's kind and level, and whether a flush or a compaction
      // writes it (no-op unless the file system takes hints, see CacheHints)
      CacheHints.hintFile(fs, path, FileKind.of(role), role.level());
      CacheHints.hintStream(out,
        role == FileRole.FLUSH ? StreamRole.FLUSH_OUTPUT : StreamRole.COMPACTION_OUTPUT);
      for (PendingRow r : rows) {
        out.write(r.record);
        dataCrc.update(r.record, 0, r.record.length);
        index.add(r.hash, r.row, r.record.length);
        if (bloom != null) {
          bloom.add(r.row);
        }
      }
      Section data = new Section(0, dataBytes, (int) dataCrc.getValue());
      Section indexSec = writeSection(out, data.end(), index.encode());
      ByteWriter bw = new ByteWriter(bloom == null ? 0 : (int) bloom.byteSize() + 16);
      if (bloom != null) {
        bloom.encode(bw);
      }
      Section bloomSec = writeSection(out, indexSec.end(), bw.toByteArray());
      meta.put(FileMeta.FAMILY, family);
      if (firstRow != null) {
        meta.put(FileMeta.FIRST_ROW, firstRow);
        meta.put(FileMeta.LAST_ROW, lastRow);
      }
      meta.put(FileMeta.DELETE_FAMILY_COUNT, FileMeta.longBytes(deleteFamilyCount));
      meta.putIfAbsent(FileMeta.CREATED_MS, FileMeta.longBytes(System.currentTimeMillis()));
      Section metaSec = writeSection(out, bloomSec.end(), new FileMeta(meta).encode());
      Trailer trailer = new Trailer(data, indexSec, bloomSec, metaSec, role, maxSequenceId,
        maxMemstoreTs, minTimestamp, maxTimestamp, rows.size(), cellCount);
      out.write(trailer.encode());
      length = metaSec.end() + Trailer.ENCODED_LENGTH;
      // The flush or compaction that wrote this file is committed right after; the file must be
      // on stable storage by then, because the WAL edits it holds will be dropped.
      if (out.hasCapability(StreamCapabilities.HSYNC)) {
        out.hsync();
      }
      out.close();
      ok = true;
    } finally {
      if (!ok) {
        abortQuietly(out);
      }
    }
    rows.clear();
    return length;
  }

  private static Section writeSection(FSDataOutputStream out, long offset, byte[] bytes)
    throws IOException {
    out.write(bytes);
    return new Section(offset, bytes.length, Checksums.crc32c(bytes, 0, bytes.length));
  }

  private void abortQuietly(FSDataOutputStream out) {
    try {
      out.close();
    } catch (IOException | RuntimeException e) {
      // The write already failed; the caller sees that error. Only clean up.
    }
    try {
      fs.delete(path, false);
    } catch (IOException e) {
      // A leftover temporary file is harmless: it is never committed.
    }
  }

  /** Releases buffered rows without writing; used when the flush or compaction failed. */
  @Override
  public void close() {
    finished = true;
    rows.clear();
    rowCells.clear();
  }
}
