package org.apache.hadoop.hbase.rlsm.fault;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.Path;

/** A read stream of {@link FaultInjectingFileSystem}: every read is one {@link FaultOp#READ}. */
final class FaultInputStream extends FSInputStream {
  private final FaultInjectingFileSystem fs;
  private final Path path;
  private final FSDataInputStream real;

  FaultInputStream(FaultInjectingFileSystem fs, Path path, FSDataInputStream real) {
    this.fs = fs;
    this.path = path;
    this.real = real;
  }

  @Override
  public int read() throws IOException {
    fs.op(FaultOp.READ, path);
    return real.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    fs.op(FaultOp.READ, path);
    return real.read(b, off, len);
  }

  @Override
  public int read(long position, byte[] b, int off, int len) throws IOException {
    fs.op(FaultOp.READ, path);
    return real.read(position, b, off, len);
  }

  @Override
  public void seek(long pos) throws IOException {
    real.seek(pos);
  }

  @Override
  public long getPos() throws IOException {
    return real.getPos();
  }

  @Override
  public boolean seekToNewSource(long targetPos) throws IOException {
    return false;
  }

  @Override
  public int available() throws IOException {
    return real.available();
  }

  @Override
  public void close() throws IOException {
    real.close();
  }
}
