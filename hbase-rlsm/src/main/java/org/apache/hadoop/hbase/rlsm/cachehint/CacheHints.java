package org.apache.hadoop.hbase.rlsm.cachehint;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The engine's side of the cache hints: static calls that reach the file system or stream when
 * it takes hints and do nothing otherwise. HBase hands the engine an HFileSystem (a
 * {@link FilterFileSystem}); the file system under it is the one asked.
 *
 * <p>Reads of files shared by user scans and compactions (RLSM keeps one reader per file) carry
 * the role of the calling thread: {@link #enter(StreamRole)} sets it for a compaction.
 */
public final class CacheHints {
  private static final ThreadLocal<StreamRole> THREAD_ROLE = new ThreadLocal<>();

  private CacheHints() {
  }

  /** The file system that takes hints under fs, or null. */
  private static CacheHintSink sinkOf(FileSystem fs) {
    FileSystem f = fs;
    while (f instanceof FilterFileSystem) {
      f = ((FilterFileSystem) f).getRawFileSystem();
    }
    return f instanceof CacheHintSink ? (CacheHintSink) f : null;
  }

  /** Tells fs what path is; no-op unless fs takes hints. */
  public static void hintFile(FileSystem fs, Path path, FileKind kind, int level)
    throws IOException {
    CacheHintSink sink = sinkOf(fs);
    if (sink != null) {
      sink.hintFile(path, kind, level);
    }
  }

  /** Sets the role of an output stream; no-op unless the stream takes it. */
  public static void hintStream(FSDataOutputStream out, StreamRole role) throws IOException {
    OutputStream s = out.getWrappedStream();
    if (s instanceof StreamRoleHint) {
      ((StreamRoleHint) s).setStreamRole(role);
    }
  }

  /** Sets the role of an input stream; no-op unless the stream takes it. */
  public static void hintStream(FSDataInputStream in, StreamRole role) throws IOException {
    InputStream s = in.getWrappedStream();
    if (s instanceof StreamRoleHint) {
      ((StreamRoleHint) s).setStreamRole(role);
    }
  }

  /** The role the calling thread reads with, null when it set none. */
  public static StreamRole threadRole() {
    return THREAD_ROLE.get();
  }

  /** Makes the calling thread's reads carry role until the returned scope is closed. */
  public static Scope enter(StreamRole role) {
    StreamRole previous = THREAD_ROLE.get();
    THREAD_ROLE.set(role);
    return () -> {
      if (previous == null) {
        THREAD_ROLE.remove();
      } else {
        THREAD_ROLE.set(previous);
      }
    };
  }

  /** A thread role in force; closing it restores the previous one. */
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }
}
