package org.apache.hadoop.hbase.rlsm.fault;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;

/**
 * A stream of {@link FaultInjectingFileSystem}: holds up to one write chunk, passes full chunks
 * to the real file as one {@link FaultOp#WRITE} each, and records the durable length at hflush,
 * hsync and close. After a crash of its file system every call fails.
 */
final class FaultOutputStream extends OutputStream implements Syncable, StreamCapabilities {
  private final FaultInjectingFileSystem fs;
  private final FaultInjectingFileSystem.FileState state;
  private final FSDataOutputStream real;
  private final int epoch;
  private final byte[] chunk = new byte[FaultInjectingFileSystem.WRITE_CHUNK];
  private int held;
  private boolean closed;

  FaultOutputStream(FaultInjectingFileSystem fs, FaultInjectingFileSystem.FileState state,
    FSDataOutputStream real, int epoch) {
    this.fs = fs;
    this.state = state;
    this.real = real;
    this.epoch = epoch;
  }

  private void alive() throws IOException {
    if (fs.epoch() != epoch) {
      throw new IOException("faultfs: " + state.path + " was open when the file system crashed");
    }
    if (closed) {
      throw new IOException("faultfs: " + state.path + " is closed");
    }
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] { (byte) b }, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    alive();
    while (len > 0) {
      int n = Math.min(len, chunk.length - held);
      System.arraycopy(b, off, chunk, held, n);
      held += n;
      off += n;
      len -= n;
      if (held == chunk.length) {
        drain();
      }
    }
  }

  /** Passes the held bytes to the real file: one write operation. */
  private void drain() throws IOException {
    if (held == 0) {
      return;
    }
    fs.op(FaultOp.WRITE, state.path);
    real.write(chunk, 0, held);
    real.flush();
    fs.written(state, held);
    held = 0;
  }

  @Override
  public void flush() throws IOException {
    // A plain flush is not a durability point; the bytes stay in the stream (client buffer).
    alive();
  }

  @Override
  public void hflush() throws IOException {
    alive();
    drain();
    fs.op(FaultOp.SYNC, state.path);
    real.hflush();
    fs.synced(state, false);
  }

  @Override
  public void hsync() throws IOException {
    hflush();
  }

  @Override
  public void close() throws IOException {
    if (closed && fs.epoch() == epoch) {
      return;
    }
    alive();
    drain();
    fs.op(FaultOp.CLOSE, state.path);
    closed = true;
    real.close();
    fs.synced(state, true);
  }

  /** The crash: the real stream is closed without passing on what this stream still holds. */
  void abandon() {
    held = 0;
    closed = true;
    try {
      real.close();
    } catch (IOException e) {
      // The crashed process would not have closed it at all.
    }
  }

  @Override
  public boolean hasCapability(String capability) {
    return StreamCapabilities.HFLUSH.equalsIgnoreCase(capability)
      || StreamCapabilities.HSYNC.equalsIgnoreCase(capability);
  }
}
