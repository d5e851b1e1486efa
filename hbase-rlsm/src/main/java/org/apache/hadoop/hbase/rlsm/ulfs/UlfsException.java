package org.apache.hadoop.hbase.rlsm.ulfs;

import java.io.IOException;

/**
 * An error reported by the native ulfs library: the POSIX errno value and a message naming the
 * operation and path. The only exception the JNI bridge throws ({@code native/jni/jni_util.c});
 * {@link UlfsErrno} decides which exception a caller sees for it.
 */
public class UlfsException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int errno;

  /** Called from native code. */
  public UlfsException(int errno, String message) {
    super(message + " (errno " + errno + ")");
    this.errno = errno;
  }

  /** The positive POSIX errno value (constants in {@link UlfsErrno}). */
  public int errno() {
    return errno;
  }
}
