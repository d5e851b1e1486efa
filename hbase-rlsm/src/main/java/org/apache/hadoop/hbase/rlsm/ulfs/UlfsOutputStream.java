package org.apache.hadoop.hbase.rlsm.ulfs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Locale;
import org.apache.hadoop.fs.CanSetDropBehind;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.hbase.rlsm.cachehint.StreamRole;
import org.apache.hadoop.hbase.rlsm.cachehint.StreamRoleHint;

/**
 * Output stream over a ulfs descriptor, buffered in one direct buffer. The two sync calls keep
 * HDFS's meaning (docs/ulfs.md "Durability"): {@link #hflush()} returns once the data is written
 * to the device in a journal record without a device flush, so it is visible to every reader
 * and survives the death of this process (the kernel holds the written blocks; ulfs's page cache
 * lives in this process, so the data must leave it) but not a power loss; that is what HBase's
 * WAL calls for SYNC_WAL, the default durability. {@link #hsync()} (FSYNC_WAL,
 * {@code hbase.wal.hsync}) also flushes the device, sharing the commit with concurrent syncs.
 * {@link #close()} flushes and makes the file durable. All methods are synchronized: HBase's WAL
 * calls hflush/hsync from sync threads while another thread appends.
 */
final class UlfsOutputStream extends OutputStream
  implements Syncable, StreamCapabilities, CanSetDropBehind, StreamRoleHint {
  private final UlfsFile file;
  private final ByteBuffer buf;
  private boolean closed;

  UlfsOutputStream(UlfsFile file, int bufferSize) {
    this.file = file;
    this.buf = ByteBuffer.allocateDirect(Math.max(4096, bufferSize));
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + file.path());
    }
  }

  private void drain() throws IOException {
    if (buf.position() > 0) {
      int n = buf.position();
      buf.clear(); // cleared first: a failed write must not be retried with stale bytes
      file.write(buf, 0, n);
    }
  }

  @Override
  public synchronized void write(int b) throws IOException {
    checkOpen();
    if (!buf.hasRemaining()) {
      drain();
    }
    buf.put((byte) b);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    checkOpen();
    if (off < 0 || len < 0 || len > b.length - off) {
      throw new IndexOutOfBoundsException();
    }
    while (len > 0) {
      if (!buf.hasRemaining()) {
        drain();
      }
      int n = Math.min(len, buf.remaining());
      buf.put(b, off, n);
      off += n;
      len -= n;
    }
  }

  @Override
  public synchronized void flush() throws IOException {
    checkOpen();
    drain();
  }

  @Override
  public synchronized void hflush() throws IOException {
    flush();
    file.hflush();
  }

  @Override
  public synchronized void hsync() throws IOException {
    flush();
    file.fsync();
  }

  /**
   * HBase's HFile writer asks for drop-behind on compaction outputs
   * (HFile.WriterFactory.withShouldDropCacheBehind): such a stream writes as a compaction output.
   */
  @Override
  public synchronized void setDropBehind(Boolean drop) throws IOException {
    if (drop != null && drop) {
      file.hintRole(StreamRole.COMPACTION_OUTPUT);
    }
  }

  @Override
  public void setStreamRole(StreamRole role) throws IOException {
    file.hintRole(role);
  }

  @Override
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(Locale.ROOT)) {
      case StreamCapabilities.DROPBEHIND:
      case StreamCapabilities.HFLUSH:
      case StreamCapabilities.HSYNC:
        return true;
      default:
        return false;
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      drain();
    } finally {
      file.close(); // commits the file (see native/src/fs.c, durability contract)
    }
  }
}
