package org.apache.hadoop.hbase.rlsm.format;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.io.hfile.HFile;

/** Recognising RLSM files among a store's files (RLSM files and HFiles may share a store). */
public final class RlsmFileFormat {
  private RlsmFileFormat() {
  }

  /** True when the file ends with the RLSM trailer magic. Reads 8 bytes. */
  public static boolean isRlsmFile(FileSystem fs, Path path) throws IOException {
    long len = fs.getFileStatus(path).getLen();
    if (len < Trailer.ENCODED_LENGTH) {
      return false;
    }
    byte[] tail = new byte[Trailer.MAGIC.length];
    try (FSDataInputStream in = fs.open(path)) {
      in.readFully(len - tail.length, tail, 0, tail.length);
    }
    return Trailer.endsWithMagic(tail, 0, tail.length);
  }

  /**
   * True for an RLSM file, false for an HFile (a bulk load); a file that is neither, such as an
   * RLSM file whose trailer magic was damaged or cut off, is a corruption error.
   */
  public static boolean isRlsmFileElseHFile(FileSystem fs, Path path) throws IOException {
    if (isRlsmFile(fs, path)) {
      return true;
    }
    boolean hfile;
    try {
      hfile = HFile.isHFileFormat(fs, path);
    } catch (IOException e) {
      // an HFile trailer whose magic or version is damaged: HBase throws rather than says no
      long len = fs.getFileStatus(path).getLen();
      throw new RlsmCorruptionException(path.toString(),
        Math.max(0, len - V2FileInfo.TRAILER_BYTES), "damaged HFile trailer: " + e.getMessage(),
        e);
    }
    if (!hfile) {
      long len = fs.getFileStatus(path).getLen();
      throw new RlsmCorruptionException(path.toString(), Math.max(0, len - Trailer.MAGIC.length),
        "neither an RLSM file (no trailer magic in the last " + Trailer.MAGIC.length + " of "
          + len + " bytes) nor an HFile");
    }
    return false;
  }
}
