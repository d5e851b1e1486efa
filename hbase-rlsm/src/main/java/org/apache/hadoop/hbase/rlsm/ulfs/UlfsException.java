package org.apache.hadoop.hbase.rlsm.ulfs;

import java.io.IOException;

/**
 * An error reported by the native ulfs library: the POSIX errno value and a message naming the
 * operation and path. Thrown only by the JNI bridge ({@code native/jni/jni_util.c}).
 */
public class UlfsException extends IOException {
  private static final long serialVersionUID = 1L;

  public static final int EIO = 5;
  public static final int EBADF = 9;
  public static final int ENOMEM = 12;
  public static final int EACCES = 13;
  public static final int EBUSY = 16;
  public static final int EEXIST = 17;
  public static final int ENOTDIR = 20;
  public static final int EISDIR = 21;
  public static final int EINVAL = 22;
  public static final int EFBIG = 27;
  public static final int ENOSPC = 28;
  public static final int ENAMETOOLONG = 36;
  public static final int ENOTEMPTY = 39;
  public static final int EPROTONOSUPPORT = 93;
  public static final int ENOENT = 2;

  private final int errno;

  /** Called from native code. */
  public UlfsException(int errno, String message) {
    super(message + " (errno " + errno + ")");
    this.errno = errno;
  }

  /** The positive POSIX errno value. */
  public int errno() {
    return errno;
  }
}
