package org.apache.hadoop.hbase.rlsm.bench.ulfs;

import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The baseline: a plain {@link FileChannel} on the kernel file the LocalFileSystem targets read,
 * with direct buffers (no copy through a temporary one). Preads are
 * {@code FileChannel.read(buffer, position)} (pread(2)); appends {@code write} then
 * {@code force(false)} (fdatasync(2): data and the size, not the mtime) for hsync, nothing more
 * for hflush (the written data is in the kernel's page cache, which survives the process).
 */
final class FileChannelTarget implements IoTarget {
  private final String name;
  private final File dir;
  private final ByteBuffer buf = ByteBuffer.allocateDirect(ReadFile.CHUNK);
  private final ByteBuffer appendData = ByteBuffer.allocateDirect(MAX_IO);
  private FileChannel in;
  private FileChannel out;

  FileChannelTarget(String name, File dir) {
    this.name = name;
    this.dir = new File(dir, "kernel");
    byte[] data = new byte[MAX_IO];
    new SplittableRandom(1).nextBytes(data);
    appendData.put(data);
  }

  @Override
  public String describe() {
    return name + " (FileChannel, direct buffers, force(false))";
  }

  @Override
  public void openForReads(long bytes) throws IOException {
    // Written through the checksummed LocalFileSystem, like the local targets' copy (shared).
    Path p;
    try (LocalFileSystem lfs = FileSystem.newInstanceLocal(new Configuration())) {
      p = ReadFile.ensure(lfs, new Path(dir.getAbsolutePath()), bytes);
    }
    in = FileChannel.open(new File(p.toUri().getPath()).toPath(), StandardOpenOption.READ);
    pread(0, 4096);
    byte[] head = new byte[4096];
    buf.flip().get(head);
    ReadFile.verifyHead(describe(), head);
  }

  @Override
  public boolean cacheHolds(long bytes) {
    return true; // the kernel page cache, bounded by RAM
  }

  @Override
  public void dropOwnCache() {
    // no cache of its own: the kernel cache is dropped by Dataset.dropKernelCaches
  }

  @Override
  public void pread(long offset, int len) throws IOException {
    buf.clear().limit(len);
    while (buf.hasRemaining()) {
      if (in.read(buf, offset + buf.position()) < 0) {
        throw new EOFException(describe() + ": end of file at " + (offset + buf.position()));
      }
    }
  }

  @Override
  public void startAppends() throws IOException {
    if (out != null) {
      out.close();
    }
    dir.mkdirs();
    out = FileChannel.open(new File(dir, "append.bin").toPath(), StandardOpenOption.CREATE,
      StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
  }

  @Override
  public void appendAndSync(int len, boolean hsync) throws IOException {
    appendData.clear().limit(len);
    while (appendData.hasRemaining()) {
      out.write(appendData);
    }
    if (hsync) {
      out.force(false);
    }
  }

  @Override
  public long[] ulfsCounters() {
    return null;
  }

  @Override
  public void close() throws IOException {
    try {
      if (in != null) {
        in.close();
      }
    } finally {
      if (out != null) {
        out.close();
      }
    }
  }
}
