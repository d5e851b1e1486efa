package org.apache.hadoop.hbase.rlsm.file;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.CorruptHFileException;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Damage in a format-v2 file (an HFile v3, docs/format/rlsm-file.md "Version 2") as RLSM reports
 * it: HBase's corruption errors (bad trailer, bad load-on-open section, block checksum or header
 * mismatch) become {@link RlsmCorruptionException}s naming the file and the byte offset HBase
 * names (else the trailer's), with HBase's error as the cause; and a full check that reads every
 * data block through HBase's reader, whose block checksums are verified on every read.
 */
@InterfaceAudience.Private
public final class V2FileCheck {
  private static final Pattern OFFSET = Pattern.compile("offset[= ]+(\\d+)");
  /** HBase's fixed trailer of an HFile v3 (FixedFileTrailer's v3 size). */
  private static final int TRAILER_BYTES = 4096;

  private V2FileCheck() {
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
    long offset = Math.max(0, fileLength - TRAILER_BYTES);
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
   * Reads every cell of an HFile with HBase's reader (block checksums verified as blocks are
   * read, the load-on-open section at open); returns the number of cells.
   */
  public static long verify(FileSystem fs, Path path, Configuration conf) throws IOException {
    long length = fs.getFileStatus(path).getLen();
    long cells = 0;
    try (HFile.Reader r = HFile.createReader(fs, path, CacheConfig.DISABLED, true, conf);
      HFileScanner s = r.getScanner(conf, false, false)) {
      if (s.seekTo()) {
        do {
          cells++;
        } while (s.next());
      }
      if (cells != r.getEntries()) {
        throw new RlsmCorruptionException(path.toString(), length - TRAILER_BYTES, "trailer says "
          + r.getEntries() + " cells, the data blocks hold " + cells);
      }
    } catch (IOException | RuntimeException e) {
      IOException io = e instanceof IOException ? (IOException) e : new IOException(e);
      RlsmCorruptionException typed = typed(path.toString(), length, io);
      throw typed != null ? typed : io;
    }
    return cells;
  }
}
