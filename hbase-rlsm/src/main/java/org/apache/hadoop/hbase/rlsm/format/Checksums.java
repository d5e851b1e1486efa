package org.apache.hadoop.hbase.rlsm.format;

import java.util.zip.CRC32C;

/** CRC32C (Castagnoli), the checksum of every RLSM section and record. */
public final class Checksums {
  private Checksums() {
  }

  public static int crc32c(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }

  /** Throws when the stored checksum does not match the bytes. */
  public static void verify(String file, long fileOffset, byte[] b, int off, int len, int stored,
    String what) throws RlsmCorruptionException {
    int actual = crc32c(b, off, len);
    if (actual != stored) {
      throw new RlsmCorruptionException(file, fileOffset, String.format(
        "%s checksum mismatch: stored 0x%08x, computed 0x%08x over %d bytes", what, stored,
        actual, len));
    }
  }
}
