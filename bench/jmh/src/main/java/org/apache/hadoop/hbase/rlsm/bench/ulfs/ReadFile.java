package org.apache.hadoop.hbase.rlsm.bench.ulfs;

import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The file the pread benchmarks read: a whole number of MiB of pseudo-random bytes, written once
 * per file system and size and reused by later forks (ulfs-uring and ulfs-posix share the ulfs
 * image; local, rawlocal and filechannel share the kernel file, always written through the
 * checksummed LocalFileSystem so that its .crc side file exists for the local target). It is
 * written under a temporary name and renamed, so an interrupted run never leaves a short file
 * that a later run would take for a complete one.
 */
final class ReadFile {
  /** Write and warm-up unit; also the largest pread a target must serve. */
  static final int CHUNK = 1 << 20;
  private static final long SEED = 0x5eedL;
  private static final byte[] BASE = new byte[CHUNK];

  static {
    new SplittableRandom(SEED).nextBytes(BASE);
  }

  private ReadFile() {
  }

  /** Path of the read file of the given size under dir, writing it first when absent. */
  static Path ensure(FileSystem fs, Path dir, long bytes) throws IOException {
    if (bytes <= 0 || bytes % CHUNK != 0) {
      throw new IllegalArgumentException("read file size must be a positive number of MiB: "
        + bytes);
    }
    Path p = new Path(dir, "read-" + (bytes / CHUNK) + "m.bin");
    if (fs.exists(p)) {
      long len = fs.getFileStatus(p).getLen();
      if (len != bytes) {
        throw new IOException(fs.makeQualified(p) + " has " + len + " bytes, expected " + bytes
          + " (written by another version of this benchmark?): delete it");
      }
      return p;
    }
    Path tmp = new Path(dir, p.getName() + ".tmp");
    fs.delete(tmp, false);
    byte[] chunk = new byte[CHUNK];
    try (FSDataOutputStream out = fs.create(tmp, true)) {
      for (long k = 0; k < bytes / CHUNK; k++) {
        fill(k, chunk);
        out.write(chunk);
      }
    }
    if (!fs.rename(tmp, p)) {
      throw new IOException("cannot rename " + fs.makeQualified(tmp) + " to " + p);
    }
    return p;
  }

  /** Content of the k-th MiB: one random MiB with k in its first 8 bytes, so chunks differ. */
  private static void fill(long k, byte[] chunk) {
    System.arraycopy(BASE, 0, chunk, 0, CHUNK);
    for (int i = 0; i < 8; i++) {
      chunk[i] = (byte) (k >>> (8 * i));
    }
  }

  /**
   * Checks that head, read by a target at offset 0 of the read file, holds the bytes written
   * there, so a target that returns wrong data fails instead of being timed.
   */
  static void verifyHead(String target, byte[] head) throws IOException {
    byte[] want = new byte[CHUNK];
    fill(0, want);
    if (head.length > CHUNK || !Arrays.equals(head, Arrays.copyOf(want, head.length))) {
      int at = Arrays.mismatch(head, Arrays.copyOf(want, head.length));
      throw new IOException(target + ": the read file's bytes at offset " + at
        + " differ from what was written");
    }
  }
}
