package org.apache.hadoop.hbase.rlsm.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.CorruptHFileException;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.io.hfile.RlsmMetaBlocks;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.rlsm.format.V2FileInfo;
import org.apache.hadoop.hbase.rlsm.index.RowQuantiles;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.util.DataChecksum;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Format-v2 files (HFile v3, docs/format/rlsm-file.md "Version 2") outside a region server: the
 * RLSM entries of one, and damage in one as RLSM reports it: HBase's corruption errors (bad
 * trailer, bad load-on-open section, block checksum or header mismatch) become
 * {@link RlsmCorruptionException}s naming the file and the byte offset HBase names (else the
 * trailer's), with HBase's error as the cause; and a full check that reads every
 * data block through HBase's reader, whose block checksums are verified on every read.
 */
@InterfaceAudience.Private
public final class V2Files {
  private static final int HEADER_BYTES = 33;
  private static final Pattern OFFSET = Pattern.compile("offset[= ]+(\\d+)");

  private V2Files() {
  }

  /**
   * The typed error for {@code e} when it reports damage; null when it does not (a missing file,
   * an interrupted read): those stay as they are.
   */
  public static RlsmCorruptionException typed(String file, long fileLength, IOException e) {
    if (e instanceof RlsmCorruptionException) {
      return (RlsmCorruptionException) e;
    }
    if (!isDamage(e)) {
      return null;
    }
    long offset = Math.max(0, fileLength - V2FileInfo.TRAILER_BYTES);
    for (Throwable t = e; t != null; t = t.getCause()) {
      Matcher m = t.getMessage() == null ? null : OFFSET.matcher(t.getMessage());
      if (m != null && m.find()) {
        offset = Long.parseLong(m.group(1));
        break;
      }
    }
    return new RlsmCorruptionException(file, offset, "HBase could not read it as an HFile: "
      + e.getMessage(), e);
  }

  private static boolean isDamage(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = t.getMessage() == null ? "" : t.getMessage();
      if (
        t instanceof CorruptHFileException || t instanceof ChecksumException
          || m.contains("checksum") || m.contains("Invalid onDiskSize")
          || m.contains("Block type stored") || m.contains("Invalid HFile")
          || t instanceof IllegalArgumentException || t instanceof IllegalStateException
          || t instanceof IndexOutOfBoundsException
      ) {
        return true;
      }
    }
    return false;
  }

  /**
   * The file-info of an HFile, read by HBase's reader (load-on-open section checksummed); typed
   * corruption errors as {@link #typed}.
   */
  public static Map<byte[], byte[]> fileInfo(FileSystem fs, Path path, Configuration conf)
    throws IOException {
    long length = fs.getFileStatus(path).getLen();
    try (HFile.Reader r = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf)) {
      Map<byte[], byte[]> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
      out.putAll(r.getHFileInfo());
      return out;
    } catch (IOException | RuntimeException e) {
      throw typedOrSame(path.toString(), length, e);
    }
  }

  /**
   * The row quantiles in an HFile's meta block {@link V2FileInfo#ROW_QUANTILES_BLOCK}, or null
   * when it has none; {@code cacheBlock}: read through the BlockCache (as the family allows).
   * @throws RlsmCorruptionException naming the file and the block's offset when they do not
   *           decode
   */
  public static RowQuantiles quantiles(String file, HFile.Reader r, boolean cacheBlock)
    throws IOException {
    RlsmMetaBlocks.Block b;
    try {
      b = RlsmMetaBlocks.read(r, V2FileInfo.ROW_QUANTILES_BLOCK, cacheBlock);
    } catch (IOException e) {
      throw typedOrSame(file, r.length(), e);
    }
    return b == null ? null : RowQuantiles.decode(file, b.offset(), b.content());
  }

  /** The RLSM role of an HFile, or null when RLSM did not write it (a bulk load). */
  public static FileRole role(FileSystem fs, Path path, Configuration conf) throws IOException {
    return V2FileInfo.role(path.toString(), -1, fileInfo(fs, path, conf).get(V2FileInfo.ROLE));
  }

  private static IOException typedOrSame(String file, long length, Exception e) {
    IOException io = e instanceof IOException ? (IOException) e : new IOException(e);
    RlsmCorruptionException typed = typed(file, length, io);
    return typed != null ? typed : io;
  }

  /**
   * Reads every cell, and then every block before the load-on-open section, of an HFile with
   * HBase's reader (block checksums verified as blocks are read, the load-on-open section at
   * open); checks the recorded first and last keys against the first and last cells, that the
   * block index leads to the last cell (a reader skips a file by those keys, and seeks by the
   * index), and that the row quantiles' meta block decodes; returns the number of cells.
   */
  public static long verify(FileSystem fs, Path path, Configuration conf) throws IOException {
    long length = fs.getFileStatus(path).getLen();
    long cells = 0;
    Cell first = null;
    KeyValue last = null;
    try (HFile.Reader r = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf);
      HFileScanner s = r.getScanner(conf, false, false)) {
      if (s.seekTo()) {
        first = KeyValueUtil.copyToNewKeyValue(s.getCell());
        Cell cell;
        do {
          cell = s.getCell();
          cells++;
        } while (s.next());
        last = KeyValueUtil.copyToNewKeyValue(cell);
      }
      if (cells != r.getEntries()) {
        throw new RlsmCorruptionException(path.toString(), length - V2FileInfo.TRAILER_BYTES,
          "trailer says " + r.getEntries() + " cells, the data blocks hold " + cells);
      }
    } catch (IOException | RuntimeException e) {
      throw typedOrSame(path.toString(), length, e);
    }
    verifyBlockChecksums(fs, path, 0, length);
    // after the checksums, so that damaged bytes are reported where they are
    try (HFile.Reader r = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf)) {
      quantiles(path.toString(), r, false);
      if (first != null) {
        verifyKeys(r, conf, path.toString(), first, last);
      }
    } catch (RlsmCorruptionException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw typedOrSame(path.toString(), length, e);
    }
    return cells;
  }

  /**
   * The recorded first key (the block index's first entry) and last key (file-info) against the
   * cells, and a seek to the last cell through the block index. Keys only: a cell carries its
   * sequence id, a recorded key does not. The offset named is the load-on-open section's.
   */
  private static void verifyKeys(HFile.Reader r, Configuration conf, String name, Cell first,
    KeyValue last) throws IOException {
    long at = r.getTrailer().getLoadOnOpenDataOffset();
    CellComparator cmp = r.getComparator();
    Optional<Cell> firstKey = r.getFirstKey();
    if (!firstKey.isPresent() || cmp.compare(first, firstKey.get(), true) != 0) {
      throw new RlsmCorruptionException(name, at, "the block index's first key is not the "
        + "first cell's (row " + Bytes.toStringBinary(CellUtil.cloneRow(first)) + ")");
    }
    Optional<Cell> lastKey = r.getLastKey();
    if (!lastKey.isPresent() || cmp.compare(last, lastKey.get(), true) != 0) {
      throw new RlsmCorruptionException(name, at, "the file-info's last key is not the last "
        + "cell's (row " + Bytes.toStringBinary(CellUtil.cloneRow(last)) + ")");
    }
    // the block index compares sequence ids too (a newer cell sorts first), and its keys have
    // none: seek by the last cell's key alone (last is the caller's copy, done with after this)
    last.setSequenceId(0);
    try (HFileScanner s = r.getScanner(conf, false, true)) {
      if (s.seekTo(last) != 0) {
        throw new RlsmCorruptionException(name, at, "the block index does not lead to the last "
          + "cell (row " + Bytes.toStringBinary(CellUtil.cloneRow(last)) + ")");
      }
    }
  }

  /**
   * Checks the stored checksums of the blocks of an HFile's load-on-open section (root indexes,
   * file-info, Bloom metadata: a few KB) from the raw bytes, as {@link #verify} checks every
   * block: HBase reads that section at open, and on a file system without checksums of its own
   * serves a block whose checksum fails. {@code loadOnOpen} is the trailer's offset of the
   * section, {@code length} the file's.
   */
  public static void verifyLoadOnOpen(FileSystem fs, Path path, long loadOnOpen, long length)
    throws IOException {
    verifyBlockChecksums(fs, path, loadOnOpen, length);
  }

  /**
   * Checks the stored checksums of every block from {@code from} (a block's start) to the
   * trailer, inline index and Bloom chunks and the load-on-open section included, from the raw
   * bytes: HBase's reader re-reads a block whose checksum fails with the file system's checksums
   * instead, which on a file system without them (a local disk) returns the damaged block
   * unverified. Block header (HFile v3, 33 bytes): magic, on-disk size without header (i32),
   * uncompressed size (i32), previous block offset (i64), checksum type (u8), bytes per checksum
   * (i32), on-disk data size with header (i32); the checksums follow the data, one per chunk.
   */
  private static void verifyBlockChecksums(FileSystem fs, Path path, long from, long length)
    throws IOException {
    String name = path.toString();
    long end = length - V2FileInfo.TRAILER_BYTES;
    byte[] header = new byte[HEADER_BYTES];
    try (FSDataInputStream in = fs.open(path)) {
      for (long at = from; at < end;) {
        if (end - at < HEADER_BYTES) {
          throw new RlsmCorruptionException(name, at, "a block header runs into the trailer");
        }
        in.readFully(at, header);
        ByteBuffer h = ByteBuffer.wrap(header);
        int onDiskWithoutHeader = h.getInt(8);
        int type = h.get(24);
        int bytesPerChecksum = h.getInt(25);
        int dataWithHeader = h.getInt(29);
        long total = (long) HEADER_BYTES + onDiskWithoutHeader;
        if (
          onDiskWithoutHeader < 0 || at + total > end || dataWithHeader < HEADER_BYTES
            || dataWithHeader > total || bytesPerChecksum <= 0
        ) {
          throw new RlsmCorruptionException(name, at, "block header sizes are inconsistent");
        }
        DataChecksum sum = DataChecksum.newDataChecksum(DataChecksum.Type.valueOf(type),
          bytesPerChecksum);
        if (sum == null) {
          throw new RlsmCorruptionException(name, at + 24, "unknown checksum type " + type);
        }
        byte[] block = new byte[(int) total];
        in.readFully(at, block);
        try {
          sum.verifyChunkedSums(ByteBuffer.wrap(block, 0, dataWithHeader),
            ByteBuffer.wrap(block, dataWithHeader, block.length - dataWithHeader), name, at);
        } catch (ChecksumException e) {
          throw new RlsmCorruptionException(name, e.getPos(), "block checksum mismatch", e);
        }
        at += total;
      }
    } catch (RlsmCorruptionException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new RlsmCorruptionException(name, 0, "blocks unreadable: " + e, e);
    }
  }
}
