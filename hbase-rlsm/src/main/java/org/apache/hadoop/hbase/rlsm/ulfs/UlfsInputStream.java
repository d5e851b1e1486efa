package org.apache.hadoop.hbase.rlsm.ulfs;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.ByteBufferReadable;
import org.apache.hadoop.fs.CanSetDropBehind;
import org.apache.hadoop.hbase.rlsm.cachehint.StreamRole;
import org.apache.hadoop.hbase.rlsm.cachehint.StreamRoleHint;
import org.apache.hadoop.fs.CanSetReadahead;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * Input stream over a ulfs descriptor. Sequential reads go through one direct buffer (so single
 * byte reads do not cross JNI each); positional reads use a per-thread direct buffer and never
 * move the stream position, so they may run concurrently with each other and with sequential
 * reads. Drop-behind and readahead are passed to the ulfs page cache as fadvise hints.
 */
final class UlfsInputStream extends FSInputStream implements ByteBufferReadable,
  CanSetDropBehind, CanSetReadahead, StreamCapabilities, StreamRoleHint {
  private static final int PREAD_BUFFER = 128 << 10;
  private static final ThreadLocal<ByteBuffer> PREAD_BUF =
    ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(PREAD_BUFFER));

  private final UlfsFile file;
  private final FileSystem.Statistics stats;
  private final ByteBuffer buf; // holds [bufStart, bufStart + buf.limit()) of the file
  private long bufStart;
  private long pos;
  private boolean dropBehind;
  private long dropped; // everything before this offset was advised DONTNEED
  private long readahead;
  private volatile boolean closed;

  UlfsInputStream(UlfsFile file, int bufferSize, FileSystem.Statistics stats) {
    this.file = file;
    this.stats = stats;
    this.buf = ByteBuffer.allocateDirect(Math.max(4096, bufferSize));
    this.buf.limit(0);
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + file.path());
    }
  }

  /** Bytes of the buffer available at pos, refilling it when pos is outside. */
  private synchronized int fill() throws IOException {
    long off = pos - bufStart;
    if (off >= 0 && off < buf.limit()) {
      return (int) (buf.limit() - off);
    }
    int n = file.pread(buf, 0, buf.capacity(), pos);
    bufStart = pos;
    buf.limit(n);
    if (n > 0) {
      hints(pos + n);
    }
    return n;
  }

  /** Issues the drop-behind and readahead hints for a stream now positioned before end. */
  private void hints(long end) throws IOException {
    if (dropBehind && bufStart > dropped) {
      file.fadvise(dropped, bufStart - dropped, UlfsFile.FADV_DONTNEED);
      dropped = bufStart;
    }
    if (readahead > 0) {
      file.fadvise(end, readahead, UlfsFile.FADV_WILLNEED);
    }
  }

  @Override
  public synchronized int read() throws IOException {
    checkOpen();
    if (fill() <= 0) {
      return -1;
    }
    int b = buf.get((int) (pos - bufStart)) & 0xff;
    pos++;
    if (stats != null) {
      stats.incrementBytesRead(1);
    }
    return b;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    checkOpen();
    if (off < 0 || len < 0 || len > b.length - off) {
      throw new IndexOutOfBoundsException();
    }
    if (len == 0) {
      return 0;
    }
    int done = 0;
    while (done < len) {
      int avail = fill();
      if (avail <= 0) {
        break;
      }
      int n = Math.min(avail, len - done);
      ByteBuffer view = buf.duplicate();
      view.position((int) (pos - bufStart));
      view.get(b, off + done, n);
      pos += n;
      done += n;
    }
    if (stats != null && done > 0) {
      stats.incrementBytesRead(done);
    }
    return done == 0 ? -1 : done;
  }

  @Override
  public synchronized int read(ByteBuffer dst) throws IOException {
    checkOpen();
    if (!dst.hasRemaining()) {
      return 0;
    }
    long off = pos - bufStart;
    int n;
    if (off >= 0 && off < buf.limit()) { // serve from the buffer first
      n = (int) Math.min(buf.limit() - off, dst.remaining());
      ByteBuffer view = buf.duplicate();
      view.position((int) off).limit((int) off + n);
      dst.put(view);
    } else if (dst.isDirect()) { // straight into the caller's direct buffer
      n = file.pread(dst, dst.position(), dst.remaining(), pos);
      if (n <= 0) {
        return -1;
      }
      dst.position(dst.position() + n);
    } else {
      int avail = fill();
      if (avail <= 0) {
        return -1;
      }
      n = Math.min(avail, dst.remaining());
      ByteBuffer view = buf.duplicate();
      view.position((int) (pos - bufStart)).limit((int) (pos - bufStart) + n);
      dst.put(view);
    }
    pos += n;
    if (stats != null) {
      stats.incrementBytesRead(n);
    }
    return n;
  }

  @Override
  public int read(long position, byte[] b, int off, int len) throws IOException {
    checkOpen();
    validatePositionedReadArgs(position, b, off, len); // Hadoop's exception types
    if (len == 0) {
      return 0;
    }
    ByteBuffer tmp = PREAD_BUF.get();
    int done = 0;
    while (done < len) {
      int want = Math.min(tmp.capacity(), len - done);
      int n = file.pread(tmp, 0, want, position + done);
      if (n <= 0) {
        break;
      }
      tmp.clear();
      tmp.get(b, off + done, n);
      tmp.clear();
      done += n;
      if (n < want) {
        break;
      }
    }
    if (stats != null && done > 0) {
      stats.incrementBytesRead(done);
    }
    return done == 0 ? -1 : done;
  }

  @Override
  public synchronized void seek(long newPos) throws IOException {
    checkOpen();
    if (newPos < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + ": " + newPos);
    }
    pos = newPos;
  }

  @Override
  public synchronized long getPos() throws IOException {
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    long off = pos - bufStart;
    long inBuf = off >= 0 && off < buf.limit() ? buf.limit() - off : 0;
    long left = Math.max(0, file.size() - pos);
    return (int) Math.min(Integer.MAX_VALUE, Math.max(inBuf, left));
  }

  /**
   * HBase asks for drop-behind on the streams of compaction inputs (HStoreFile.createStreamReader
   * with hbase.hfile.drop.behind.compaction): such a stream reads as a compaction input, so the
   * cache prefetches it and keeps its pages out of T2.
   */
  @Override
  public synchronized void setDropBehind(Boolean drop) throws IOException {
    boolean was = dropBehind;
    dropBehind = drop != null && drop;
    if (dropBehind != was) {
      file.hintRole(dropBehind ? StreamRole.COMPACTION_INPUT : StreamRole.USER);
    }
  }

  @Override
  public void setStreamRole(StreamRole role) throws IOException {
    file.hintRole(role);
  }

  @Override
  public synchronized void setReadahead(Long bytes) throws IOException {
    readahead = bytes == null ? 0 : Math.max(0, bytes);
    file.fadvise(0, 0, readahead > 0 ? UlfsFile.FADV_SEQUENTIAL : UlfsFile.FADV_NORMAL);
  }

  @Override
  public boolean hasCapability(String capability) {
    switch (capability.toLowerCase(java.util.Locale.ROOT)) {
      case StreamCapabilities.READAHEAD:
      case StreamCapabilities.DROPBEHIND:
      case StreamCapabilities.READBYTEBUFFER:
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
      if (dropBehind) {
        file.fadvise(0, 0, UlfsFile.FADV_DONTNEED);
      }
    } finally {
      file.close();
    }
  }
}
