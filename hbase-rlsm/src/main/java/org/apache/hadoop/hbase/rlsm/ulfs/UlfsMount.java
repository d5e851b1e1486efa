package org.apache.hadoop.hbase.rlsm.ulfs;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Java peer of a mounted ulfs device (bridge: native/jni/UlfsMount.c). One instance per process
 * ({@link #acquire}): every {@link UlfsFileSystem} and every open stream holds a reference, and
 * the device is unmounted when the last one is released, so the native handle is never used
 * after it was freed. Asking for a different device while one is mounted fails.
 */
public final class UlfsMount {
  private static final Logger LOG = LoggerFactory.getLogger(UlfsMount.class);

  private static UlfsMount current;

  private final long handle;
  private final String device;
  private final String description;
  private int refs; // guarded by UlfsMount.class

  private UlfsMount(long handle, String device) {
    this.handle = handle;
    this.device = device;
    this.description = nativeDescribe(handle);
  }

  /**
   * Returns the process's mount of the device configured in conf, mounting (and, when absent
   * and allowed, creating and formatting) it first. Each call must be paired with
   * {@link #release()}.
   */
  public static UlfsMount acquire(Configuration conf) throws IOException {
    String faultSpec = UlfsConfig.faultSpec(conf);
    NativeLoader.load(faultSpec != null);
    int backend = UlfsConfig.backendCode(conf);
    String policy = UlfsConfig.cachePolicy(conf);
    String trace = UlfsConfig.cacheTrace(conf);
    String device = conf.getTrimmed(UlfsConfig.DEVICE_KEY, "");
    long bytes = conf.getLong(UlfsConfig.DEVICE_BYTES_KEY, UlfsConfig.DEFAULT_DEVICE_BYTES);
    String key = backend == UlfsConfig.BACKEND_MEMORY ? "memory:" + bytes : device;
    synchronized (UlfsMount.class) {
      if (current != null) {
        if (!current.device.equals(key)) {
          throw new IOException("ulfs device " + current.device + " is mounted in this process; "
            + "cannot also mount " + key + " (one ulfs device per process)");
        }
        current.refs++;
        return current;
      }
      if (backend != UlfsConfig.BACKEND_MEMORY) {
        if (device.isEmpty()) {
          throw new IOException(UlfsConfig.DEVICE_KEY + " is not set: name an image file or "
            + "block device for the ulfs file system");
        }
        File f = new File(device);
        if (!f.exists()) {
          if (!conf.getBoolean(UlfsConfig.FORMAT_IF_MISSING_KEY,
            UlfsConfig.DEFAULT_FORMAT_IF_MISSING)) {
            throw new IOException("ulfs device " + device + " does not exist and "
              + UlfsConfig.FORMAT_IF_MISSING_KEY + " is false");
          }
          File parent = f.getAbsoluteFile().getParentFile();
          if (parent != null && !parent.isDirectory() && !parent.mkdirs()) {
            throw new IOException("cannot create directory " + parent);
          }
          LOG.info("Formatting new ulfs image {} ({} bytes)", device, bytes);
          nativeFormat(device, bytes,
            conf.getLong(UlfsConfig.INODES_KEY, UlfsConfig.DEFAULT_INODES));
        }
      }
      int flags = 0;
      if (conf.getBoolean(UlfsConfig.SQPOLL_KEY, UlfsConfig.DEFAULT_SQPOLL)) {
        flags |= 1; // ULFS_DEV_SQPOLL
      }
      if (conf.getBoolean(UlfsConfig.IOPOLL_KEY, UlfsConfig.DEFAULT_IOPOLL)) {
        flags |= 4; // ULFS_DEV_IOPOLL
      }
      if (!conf.getBoolean(UlfsConfig.DIRECT_KEY, UlfsConfig.DEFAULT_DIRECT)) {
        flags |= 2; // ULFS_DEV_NO_DIRECT
      }
      long h = mount(device, backend, flags, bytes, faultSpec,
        conf.getLong(UlfsConfig.CACHE_BYTES_KEY, UlfsConfig.DEFAULT_CACHE_BYTES),
        conf.getInt(UlfsConfig.FLUSH_INTERVAL_MS_KEY, UlfsConfig.DEFAULT_FLUSH_INTERVAL_MS),
        policy, trace.isEmpty() ? null : trace);
      current = new UlfsMount(h, key);
      current.refs = 1;
      LOG.info("Mounted ulfs device {} ({}, cache policy {}{})", key, current.description,
        policy, trace.isEmpty() ? "" : ", access trace " + trace);
      return current;
    }
  }

  /**
   * Opens the device, puts the fault device in front of it when faultSpec is not null, and
   * mounts the file system on it; returns the mount's native handle. Each step maps its own
   * errors ({@link UlfsErrno}); a failed step leaves nothing open.
   */
  private static long mount(String device, int backend, int flags, long memBytes,
    String faultSpec, long cacheBytes, int flushIntervalMs, String policy, String trace)
    throws IOException {
    long dev;
    try {
      dev = nativeOpenDevice(device, backend, flags, memBytes);
    } catch (UlfsException e) {
      throw UlfsErrno.forMount(e, device);
    }
    if (faultSpec != null) {
      try {
        dev = nativeWrapFault(dev, faultSpec); // closes dev when it fails
      } catch (UlfsException e) {
        throw UlfsErrno.forFaultDevice(e);
      }
    }
    try {
      return nativeMount(dev, device, cacheBytes, flushIntervalMs, policy, trace);
    } catch (UlfsException e) {
      nativeCloseDevice(dev);
      throw UlfsErrno.forMount(e, device);
    }
  }

  /** Adds a reference for a stream that must keep the mount alive. */
  UlfsMount retain() {
    synchronized (UlfsMount.class) {
      if (refs <= 0) {
        throw new IllegalStateException("ulfs mount already released");
      }
      refs++;
      return this;
    }
  }

  /** Drops a reference; the last one unmounts (writing back everything). */
  public void release() throws IOException {
    synchronized (UlfsMount.class) {
      if (refs <= 0) {
        throw new IllegalStateException("ulfs mount released more often than acquired");
      }
      if (--refs > 0) {
        return;
      }
      current = null;
      LOG.info("Unmounting ulfs device {}: {}", device, cacheStats());
      nativeUnmount(handle);
    }
  }

  long handle() {
    return handle;
  }

  /** Backend actually in use, e.g. "io_uring+O_DIRECT". */
  public String description() {
    return description;
  }

  public String device() {
    return device;
  }

  /** Stat fields: ino, mode, nlink, size, blocks, mtime ns, ctime ns. */
  long[] stat(String path) throws IOException {
    long[] out = new long[7];
    nativeStat(handle, path, out);
    return out;
  }

  int open(String path, int flags, int mode) throws IOException {
    return nativeOpen(handle, path, flags, mode);
  }

  void mkdir(String path, int mode) throws IOException {
    nativeMkdir(handle, path, mode);
  }

  void rmdir(String path) throws IOException {
    nativeRmdir(handle, path);
  }

  void unlink(String path) throws IOException {
    nativeUnlink(handle, path);
  }

  void rename(String from, String to) throws IOException {
    nativeRename(handle, from, to);
  }

  String[] list(String path) throws IOException {
    return nativeList(handle, path);
  }

  /** block size, data blocks, free blocks, inodes, free inodes. */
  public long[] statfs() throws IOException {
    long[] out = new long[5];
    nativeStatfs(handle, out);
    return out;
  }

  /**
   * Counters in the order of ulfs_counters: device reads, writes, flushes, read bytes, written
   * bytes; cache hits, misses, evictions, write-backs, write-back errors, pages, dirty pages;
   * journal commits, journal blocks, replayed transactions, wraps.
   */
  public long[] counters() {
    long[] out = new long[16];
    nativeCounters(handle, out);
    return out;
  }

  /** Page cache counters: per file kind and level, prefetcher, evictions per policy list. */
  public UlfsCacheStats cacheStats() {
    long[] out = new long[UlfsCacheStats.LENGTH];
    nativeCacheStats(handle, out);
    return new UlfsCacheStats(nativeCachePolicy(handle), nativeCacheLists(handle), out);
  }

  /**
   * Waits until the prefetcher has read every unit queued so far: for tests and benchmarks that
   * need prefetched pages in the cache before their next read.
   */
  public void awaitPrefetch() {
    nativePrefetchWait(handle);
  }

  void hintPath(String path, int kind, int level) throws IOException {
    nativeHintPath(handle, path, kind, level);
  }

  void hintCommit(String path) throws IOException {
    nativeHintCommit(handle, path);
  }

  void dropCache(String path) throws IOException {
    nativeDropCache(handle, path);
  }

  private static native void nativeFormat(String device, long bytes, long inodes)
    throws IOException;

  private static native long nativeOpenDevice(String device, int backend, int flags,
    long memBytes) throws IOException;

  private static native long nativeWrapFault(long device, String faultSpec) throws IOException;

  private static native void nativeCloseDevice(long device);

  private static native long nativeMount(long device, String deviceName, long cacheBytes,
    int flushIntervalMs, String cachePolicy, String tracePath) throws IOException;

  private static native void nativeUnmount(long handle) throws IOException;

  private static native String nativeDescribe(long handle);

  private static native int nativeOpen(long handle, String path, int flags, int mode)
    throws IOException;

  private static native void nativeMkdir(long handle, String path, int mode) throws IOException;

  private static native void nativeRmdir(long handle, String path) throws IOException;

  private static native void nativeUnlink(long handle, String path) throws IOException;

  private static native void nativeRename(long handle, String from, String to)
    throws IOException;

  private static native void nativeStat(long handle, String path, long[] out) throws IOException;

  private static native String[] nativeList(long handle, String path) throws IOException;

  private static native void nativeStatfs(long handle, long[] out) throws IOException;

  private static native void nativeCounters(long handle, long[] out);

  private static native void nativeCacheStats(long handle, long[] out);

  private static native String nativeCachePolicy(long handle);

  private static native String[] nativeCacheLists(long handle);

  private static native void nativeHintPath(long handle, String path, int kind, int level)
    throws IOException;

  private static native void nativeHintCommit(long handle, String path) throws IOException;

  private static native void nativeDropCache(long handle, String path) throws IOException;

  private static native void nativePrefetchWait(long handle);
}
