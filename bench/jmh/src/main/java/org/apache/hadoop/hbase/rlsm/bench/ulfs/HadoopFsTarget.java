package org.apache.hadoop.hbase.rlsm.bench.ulfs;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hbase.rlsm.ulfs.UlfsConfig;
import org.apache.hadoop.hbase.rlsm.ulfs.UlfsFileSystem;

/**
 * A target reached through a Hadoop {@link FileSystem}, as HBase reaches its files: ulfs
 * ({@link UlfsFileSystem} with the io_uring or POSIX backend), Hadoop's checksummed
 * {@link LocalFileSystem}, or its {@link org.apache.hadoop.fs.RawLocalFileSystem}. Preads are
 * {@code FSDataInputStream.readFully(position, byte[], ...)}, appends {@code write} then
 * {@code hsync} or {@code hflush}.
 */
final class HadoopFsTarget implements IoTarget {
  /** Size of the ulfs image created on first use (sparse): room for the 1 GiB read file. */
  private static final long ULFS_IMAGE_BYTES = 8L << 30;

  private final String description;
  private final FileSystem fs; // measured
  private final FileSystem owner; // writes the read file; closed with the target
  private final Path dir;
  private final long cacheBytes;
  private final byte[] buf = new byte[ReadFile.CHUNK];
  private final byte[] appendData = new byte[MAX_IO];
  private Path readPath;
  private FSDataInputStream in;
  private FSDataOutputStream out;

  private HadoopFsTarget(String description, FileSystem fs, FileSystem owner, Path dir,
    long cacheBytes) {
    this.description = description;
    this.fs = fs;
    this.owner = owner;
    this.dir = dir;
    this.cacheBytes = cacheBytes;
    new SplittableRandom(1).nextBytes(appendData);
  }

  /**
   * ulfs on the image dir/ulfs.img with the given backend. Fails when the mount reports another
   * backend (io_uring unavailable: the native side fell back to POSIX with a warning) or no
   * O_DIRECT (the kernel cache would then serve ulfs too).
   */
  static HadoopFsTarget ulfs(String name, String backend, File dir, long cacheBytes)
    throws IOException {
    Configuration conf = new Configuration();
    conf.set(UlfsConfig.DEVICE_KEY, new File(dir, "ulfs.img").getAbsolutePath());
    conf.setLong(UlfsConfig.DEVICE_BYTES_KEY, ULFS_IMAGE_BYTES);
    conf.set(UlfsConfig.BACKEND_KEY, backend);
    conf.setLong(UlfsConfig.CACHE_BYTES_KEY, cacheBytes);
    UlfsFileSystem fs = (UlfsFileSystem) FileSystem.newInstance(URI.create("ulfs:///"), conf);
    String mounted = fs.getMount().description();
    String wanted = backend + "+O_DIRECT";
    if (!mounted.equals(wanted)) {
      fs.close();
      throw new IOException(name + " asked for ulfs backend " + wanted + " on "
        + conf.get(UlfsConfig.DEVICE_KEY) + " but the mount is " + mounted
        + (backend.equals("io_uring") ? " (io_uring unavailable here: see the fallback warning"
          + " above; this target is not measured)" : ""));
    }
    return new HadoopFsTarget(name + " (ulfs " + mounted + ", cache " + (cacheBytes >> 20)
      + " MiB)", fs, fs, new Path("/bench"), cacheBytes);
  }

  /** Hadoop's LocalFileSystem (checksummed) or, when raw, the RawLocalFileSystem under it. */
  static HadoopFsTarget local(String name, boolean raw, File dir) throws IOException {
    LocalFileSystem lfs = FileSystem.newInstanceLocal(new Configuration());
    return new HadoopFsTarget(
      name + (raw ? " (RawLocalFileSystem)" : " (LocalFileSystem, .crc checksums)"),
      raw ? lfs.getRaw() : lfs, lfs, new Path(new File(dir, "kernel").getAbsolutePath()),
      Long.MAX_VALUE);
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public void openForReads(long bytes) throws IOException {
    // Always written through owner: for the kernel targets that is the checksummed
    // LocalFileSystem, so the .crc file the local target verifies exists whoever writes first.
    readPath = ReadFile.ensure(owner, dir, bytes);
    in = fs.open(readPath);
    pread(0, 4096);
    ReadFile.verifyHead(description, Arrays.copyOf(buf, 4096));
  }

  @Override
  public boolean cacheHolds(long bytes) {
    return bytes < cacheBytes;
  }

  @Override
  public void dropOwnCache() throws IOException {
    if (fs instanceof UlfsFileSystem) {
      // A drop-behind stream advises DONTNEED for the whole file when it closes.
      try (FSDataInputStream s = fs.open(readPath)) {
        s.setDropBehind(true);
      }
    }
  }

  @Override
  public void pread(long offset, int len) throws IOException {
    in.readFully(offset, buf, 0, len);
  }

  @Override
  public void startAppends() throws IOException {
    if (out != null) {
      out.close();
    }
    out = fs.create(new Path(dir, "append.bin"), true);
    if (!out.hasCapability(StreamCapabilities.HSYNC)) {
      out.close();
      out = null;
      throw new IOException(description + ": its output streams do not support hsync (for "
        + "LocalFileSystem hsync() is only a flush, nothing would reach the disk); measure "
        + "appends with target rawlocal");
    }
  }

  @Override
  public void appendAndSync(int len, boolean hsync) throws IOException {
    out.write(appendData, 0, len);
    if (hsync) {
      out.hsync();
    } else {
      out.hflush();
    }
  }

  @Override
  public long[] ulfsCounters() {
    return fs instanceof UlfsFileSystem ? ((UlfsFileSystem) fs).getMount().counters() : null;
  }

  @Override
  public void close() throws IOException {
    try {
      if (in != null) {
        in.close();
      }
      if (out != null) {
        out.close();
      }
    } finally {
      owner.close();
    }
  }
}
