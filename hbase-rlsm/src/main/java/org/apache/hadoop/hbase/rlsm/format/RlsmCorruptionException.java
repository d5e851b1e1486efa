package org.apache.hadoop.hbase.rlsm.format;

import java.io.IOException;

/**
 * A file's bytes cannot be trusted: a checksum mismatch, an impossible length or offset, an
 * unknown version. Always names the file and the byte offset where the damage was detected, so
 * an operator can find it with the {@code dump} tool.
 */
public class RlsmCorruptionException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final long offset;

  public RlsmCorruptionException(String file, long offset, String what) {
    super("Corrupt RLSM file " + file + " at offset " + offset + ": " + what);
    this.file = file;
    this.offset = offset;
  }

  public RlsmCorruptionException(String file, long offset, String what, Throwable cause) {
    this(file, offset, what);
    initCause(cause);
  }

  public String getFile() {
    return file;
  }

  public long getOffset() {
    return offset;
  }
}
