package org.apache.hadoop.hbase.rlsm.ulfs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hbase.rlsm.cachehint.CacheHints;
import org.apache.hadoop.hbase.rlsm.cachehint.StreamRole;

/**
 * Java peer of an open ulfs descriptor (bridge: native/jni/UlfsFile.c). Holds a reference on
 * its {@link UlfsMount} until closed; {@link #close()} is idempotent. All data methods take
 * direct buffers only. Thread-safe as far as the native descriptor is: positional reads may run
 * concurrently; sequential writes must be ordered by the caller.
 */
final class UlfsFile implements AutoCloseable {
  /** Open flags understood by the bridge (translated to the platform's O_* there). */
  static final int OPEN_READ = 1;
  static final int OPEN_WRITE = 2;
  static final int OPEN_CREATE = 4;
  static final int OPEN_EXCL = 8;
  static final int OPEN_TRUNC = 16;
  static final int OPEN_APPEND = 32;

  /** posix_fadvise advice values (identical on every Linux architecture). */
  static final int FADV_NORMAL = 0;
  static final int FADV_RANDOM = 1;
  static final int FADV_SEQUENTIAL = 2;
  static final int FADV_WILLNEED = 3;
  static final int FADV_DONTNEED = 4;

  private final UlfsMount mount;
  private final long handle;
  private final int fd;
  private final String path;
  private final AtomicBoolean open = new AtomicBoolean(true);

  private UlfsFile(UlfsMount mount, int fd, String path) {
    this.mount = mount;
    this.handle = mount.handle();
    this.fd = fd;
    this.path = path;
  }

  static UlfsFile open(UlfsMount mount, String path, int flags, int mode) throws IOException {
    UlfsMount m = mount.retain();
    try {
      return new UlfsFile(m, m.open(path, flags, mode), path);
    } catch (IOException | RuntimeException e) {
      m.release();
      throw e;
    }
  }

  String path() {
    return path;
  }

  private static void checkDirect(ByteBuffer buf, int off, int len) {
    if (!buf.isDirect()) {
      throw new IllegalArgumentException("ulfs I/O needs a direct ByteBuffer");
    }
    if (off < 0 || len < 0 || off + len > buf.capacity()) {
      throw new IndexOutOfBoundsException(
        "range [" + off + ", " + off + "+" + len + ") outside capacity " + buf.capacity());
    }
  }

  /**
   * Reads up to len bytes at pos into buf[off..]; returns the count, 0 at end of file. The read
   * carries the calling thread's cache role ({@link CacheHints#enter}), if it set one.
   */
  int pread(ByteBuffer buf, int off, int len, long pos) throws IOException {
    checkDirect(buf, off, len);
    StreamRole role = CacheHints.threadRole();
    return nativePread(handle, fd, buf, off, len, pos, role == null ? -1 : role.code());
  }

  /** Sets the cache role of this descriptor's accesses. */
  void hintRole(StreamRole role) throws IOException {
    nativeHintRole(handle, fd, role.code());
  }

  /** Writes buf[off..off+len) at the descriptor's offset (the end, when opened to append). */
  void write(ByteBuffer buf, int off, int len) throws IOException {
    checkDirect(buf, off, len);
    nativeWrite(handle, fd, buf, off, len);
  }

  /** Data and metadata on stable storage when this returns. */
  void fsync() throws IOException {
    nativeFsync(handle, fd);
  }

  /** Data and metadata on the device, without a device flush (ulfs_hflush). */
  void hflush() throws IOException {
    nativeHflush(handle, fd);
  }

  void truncate(long size) throws IOException {
    nativeFtruncate(handle, fd, size);
  }

  void fadvise(long off, long len, int advice) throws IOException {
    nativeFadvise(handle, fd, off, len, advice);
  }

  long size() throws IOException {
    return nativeSize(handle, fd);
  }

  boolean isOpen() {
    return open.get();
  }

  @Override
  public void close() throws IOException {
    if (!open.compareAndSet(true, false)) {
      return;
    }
    try {
      nativeClose(handle, fd);
    } finally {
      mount.release();
    }
  }

  private static native int nativePread(long h, int fd, ByteBuffer buf, int off, int len,
    long pos, int role) throws IOException;

  private static native void nativeHintRole(long h, int fd, int role) throws IOException;

  private static native void nativeWrite(long h, int fd, ByteBuffer buf, int off, int len)
    throws IOException;

  private static native void nativeFsync(long h, int fd) throws IOException;

  private static native void nativeHflush(long h, int fd) throws IOException;

  private static native void nativeClose(long h, int fd) throws IOException;

  private static native void nativeFtruncate(long h, int fd, long size) throws IOException;

  private static native void nativeFadvise(long h, int fd, long off, long len, int advice)
    throws IOException;

  private static native long nativeSize(long h, int fd) throws IOException;
}
