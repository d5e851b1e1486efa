package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.Collection;
import java.util.function.Consumer;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.hfile.RlsmMetaBlocks;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.V2FileInfo;
import org.apache.hadoop.hbase.rlsm.index.RowQuantiles;
import org.apache.hadoop.hbase.rlsm.index.RowSketch;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Writes one format-v2 RLSM file, or without a role a plain HFile with no RLSM entries (the
 * output of a compaction of a family leaving RLSM, which HBase's default engine then owns): an
 * HFile v3 made by the store's own {@link StoreFileWriter}
 * (so the family's block size, Bloom type, compression, encryption, data block encoding and
 * cache-on-write apply, and memory is bounded by a block plus index state), with RLSM's role,
 * row count and row sketch in the file-info block and its row quantiles in a meta block
 * (docs/format/rlsm-file.md, "Version 2"). Cells must be appended in key order. Not
 * thread-safe: one thread at a time writes it (a compaction may hand it to a
 * {@link SegmentFinisher} thread to finish).
 */
@InterfaceAudience.Private
final class RlsmV2Writer implements CellSink, ShipperListener {
  private final HStore store;
  private final StoreFileWriter writer;
  private final FileRole role;
  private final RowSketch sketch = new RowSketch();
  private final RowQuantiles.Builder quantiles = new RowQuantiles.Builder();
  private long rows;
  private byte[] lastRow;
  /** The format version to record: an edit's once its base generation is added. */
  private int version = V2FileInfo.VERSION;

  private RlsmV2Writer(HStore store, StoreFileWriter writer, FileRole role) {
    this.store = store;
    this.writer = writer;
    this.role = role;
  }

  /**
   * A writer in the store's temporary directory, as HBase's flusher and compactor create theirs.
   * @param role        the RLSM role, or null for a plain HFile
   * @param maxKeys     an estimate of the cells to be written (sizes the Bloom filter)
   * @param includeTags whether cells may carry tags (a file written without drops them)
   * @param tracker     told the path once the file is created (HBase's writer tracking); may be
   *                    null
   */
  static RlsmV2Writer create(HStore store, FileRole role, long maxKeys, boolean includeTags,
    Consumer<Path> tracker) throws IOException {
    boolean compaction = role != FileRole.FLUSH;
    // as HBase's flusher and compactor: COMPRESSION for flushes, COMPRESSION_COMPACT otherwise
    Compression.Algorithm compression = compaction
      ? store.getColumnFamilyDescriptor().getCompactionCompressionType()
      : store.getColumnFamilyDescriptor().getCompressionType();
    StoreFileWriter w = store.getStoreEngine().createWriter(CreateStoreFileWriterParams.create()
      .maxKeyCount(maxKeys).compression(compression).isCompaction(compaction).includeMVCCReadpoint(true).includesTag(includeTags)
      .shouldDropBehind(false).writerCreationTracker(tracker));
    return new RlsmV2Writer(store, w, role);
  }

  Path getPath() {
    return writer.getPath();
  }

  @Override
  public void append(Cell cell) throws IOException {
    if (lastRow == null || !CellUtil.matchingRows(cell, lastRow)) {
      rows++;
      lastRow = CellUtil.cloneRow(cell);
      long hash = RowSketch.hash(lastRow, 0, lastRow.length);
      sketch.addHash(hash);
      quantiles.add(lastRow, hash);
    }
    writer.append(cell);
  }

  /** Distinct rows appended so far. */
  long rows() {
    return rows;
  }

  /** The sketch of the rows appended so far; not to be changed. */
  RowSketch sketch() {
    return sketch;
  }

  /**
   * Adds an RLSM file-info entry (manifests: generation and partitions). A manifest given a base
   * generation is an edit, recorded with the edit format version.
   */
  void appendFileInfo(byte[] key, byte[] value) throws IOException {
    if (Bytes.equals(key, V2FileInfo.MANIFEST_BASE)) {
      version = V2FileInfo.EDIT_VERSION;
    }
    writer.appendFileInfo(key, value);
  }

  /**
   * Writes the file-info and closes the file.
   * @param maxSeqId  the max sequence id HBase records (a flush's: the flush sequence number)
   * @param compacted the store files this file replaces (HBase's compaction-event list: archived
   *                  at region open once this file is committed); empty for flushes and segments
   * @return the file's length
   */
  long finish(long maxSeqId, boolean major, Collection<HStoreFile> compacted) throws IOException {
    if (role != null) {
      writer.appendFileInfo(V2FileInfo.FORMAT_VERSION, V2FileInfo.versionBytes(version));
      writer.appendFileInfo(V2FileInfo.ROLE, V2FileInfo.roleBytes(role));
      writer.appendFileInfo(V2FileInfo.ROW_COUNT, Bytes.toBytes(rows));
    }
    if (role != null && role != FileRole.MANIFEST) {
      writer.appendFileInfo(V2FileInfo.ROW_SKETCH, sketch.encode());
      // a meta block, not file-info: HBase pins every open file's file-info on the heap
      writer.getLiveFileWriter().appendMetaBlock(V2FileInfo.ROW_QUANTILES_BLOCK,
        RlsmMetaBlocks.of(quantiles.build().encode()));
    }
    writer.appendMetadata(maxSeqId, major, compacted);
    writer.close();
    return store.getFileSystem().getFileStatus(writer.getPath()).getLen();
  }

  /** Closes an unfinished file and deletes it (a failed flush or compaction). */
  void abort() throws IOException {
    try {
      writer.close();
    } finally {
      store.getFileSystem().delete(writer.getPath(), false);
    }
  }

  /** Deletes the file once finished (a compaction that failed after closing it). */
  void delete() throws IOException {
    store.getFileSystem().delete(writer.getPath(), false);
  }

  /** HBase's writer copies the cells it holds before the scanner releases their blocks. */
  @Override
  public void beforeShipped() throws IOException {
    writer.beforeShipped();
  }
}
