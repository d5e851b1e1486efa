package org.apache.hadoop.hbase.rlsm.bench.ulfs;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;

/**
 * One way of reaching files on the benchmark disk, named by the benchmark's {@code target}
 * parameter. Single-threaded: one benchmark thread uses a target.
 */
interface IoTarget extends Closeable {
  /** Bytes of the 64 KB pread and append buffers. */
  int MAX_IO = 64 << 10;

  /**
   * Opens the target named name with its files under dir.
   * @param ulfsCacheBytes fs.ulfs.cache.bytes for the ulfs targets
   */
  static IoTarget open(String name, File dir, long ulfsCacheBytes) throws IOException {
    switch (name) {
      case "ulfs-uring":
        return HadoopFsTarget.ulfs(name, "io_uring", dir, ulfsCacheBytes);
      case "ulfs-posix":
        return HadoopFsTarget.ulfs(name, "posix", dir, ulfsCacheBytes);
      case "local":
        return HadoopFsTarget.local(name, false, dir);
      case "rawlocal":
        return HadoopFsTarget.local(name, true, dir);
      case "filechannel":
        return new FileChannelTarget(name, dir);
      default:
        throw new IllegalArgumentException("target must be ulfs-uring, ulfs-posix, local, "
          + "rawlocal or filechannel but was " + name);
    }
  }

  /** Name and what is actually measured (e.g. the ulfs backend the mount reports). */
  String describe();

  /**
   * Writes the read file of this size when absent, opens it for preads and checks its first
   * bytes.
   */
  void openForReads(long bytes) throws IOException;

  /** Whether this target's cache can hold bytes of file data (the kernel's: always). */
  boolean cacheHolds(long bytes);

  /** Empties the target's own cache of the read file (ulfs); the kernel cache is not its own. */
  void dropOwnCache() throws IOException;

  /** Reads len bytes (at most {@link ReadFile#CHUNK}) of the read file at offset, fully. */
  void pread(long offset, int len) throws IOException;

  /** Reads the whole read file of size bytes front to back, into the caches that hold it. */
  default void warm(long bytes) throws IOException {
    for (long off = 0; off < bytes; off += ReadFile.CHUNK) {
      pread(off, (int) Math.min(ReadFile.CHUNK, bytes - off));
    }
  }

  /** (Re)creates the append file, empty, and opens it for appends. */
  void startAppends() throws IOException;

  /**
   * Appends len bytes (at most {@link #MAX_IO}). With hsync they are made durable (hsync /
   * force(false)); without, only visible to readers and safe from the writer's death (hflush /
   * a plain write for the kernel, whose page cache outlives the process).
   */
  void appendAndSync(int len, boolean hsync) throws IOException;

  /** The ulfs mount's counters (UlfsMount.counters order), or null for a kernel target. */
  long[] ulfsCounters();
}
