package org.apache.hadoop.hbase.rlsm.fault;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The local file system under the scheme {@code faultfs}, so that HBase's root directory can
 * point at it, with three test controls:
 * <ul>
 * <li>it records, for every file written through it, how many bytes reached the file and how
 * many had been made durable by hflush, hsync or close;</li>
 * <li>{@link #crash} simulates a crash: every open stream dies, and every file with unsynced
 * bytes is cut back to its durable length, or to a random length between that and what was
 * written (a partly persisted tail);</li>
 * <li>{@link #failAt} throws an {@code IOException} at the k-th operation of chosen kinds; a
 * sticky failure fails every later operation too, until the crash (the process stopped at
 * operation k).</li>
 * </ul>
 * Bytes a caller writes are held by the stream and reach the file in writes of at most
 * {@link #WRITE_CHUNK} bytes (each one {@link FaultOp#WRITE}), as a client's packets would; what
 * the stream still holds at a crash is lost. See the package documentation for what is durable.
 */
public class FaultInjectingFileSystem extends RawLocalFileSystem {
  public static final String SCHEME = "faultfs";
  public static final int WRITE_CHUNK = 64 * 1024;
  private static final URI URI_ROOT = URI.create(SCHEME + ":///");

  /** What one written file has on disk: bytes written, bytes durable. */
  static final class FileState {
    String path;
    long written;
    long synced;
    FaultOutputStream stream;

    FileState(String path) {
      this.path = path;
    }
  }

  private final Map<FaultOp, Long> counts = new EnumMap<>(FaultOp.class);
  private final Map<String, FileState> files = new HashMap<>();
  private Set<FaultOp> armedKinds = EnumSet.noneOf(FaultOp.class);
  private long armedAt;
  private long armedSeen;
  private boolean sticky;
  private IOException fired;
  private int epoch;

  /** Registers the scheme in {@code conf}; file systems built from it then resolve faultfs. */
  public static void register(Configuration conf) {
    conf.setClass("fs." + SCHEME + ".impl", FaultInjectingFileSystem.class, FileSystem.class);
  }

  /** The (cached, shared) instance for {@code conf}, registering the scheme first. */
  public static FaultInjectingFileSystem get(Configuration conf) throws IOException {
    register(conf);
    return (FaultInjectingFileSystem) FileSystem.get(URI_ROOT, conf);
  }

  /** {@code dir} as a faultfs path. */
  public static Path path(File dir) {
    return new Path(SCHEME, null, dir.getAbsolutePath());
  }

  @Override
  public URI getUri() {
    return URI_ROOT;
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  // ----- controls -----

  /** Fails the {@code k}-th (1-based) operation of {@code kinds} counted from now. */
  public synchronized void failAt(Set<FaultOp> kinds, long k, boolean sticky) {
    this.armedKinds = EnumSet.copyOf(kinds);
    this.armedAt = k;
    this.armedSeen = 0;
    this.sticky = sticky;
    this.fired = null;
  }

  /** Disarms injection and lifts a sticky failure. */
  public synchronized void clearFaults() {
    armedKinds = EnumSet.noneOf(FaultOp.class);
    fired = null;
  }

  /** The injected failure that fired since the last {@link #failAt}, or null. */
  public synchronized IOException fired() {
    return fired;
  }

  public synchronized void resetCounts() {
    counts.clear();
  }

  /** Operations of {@code kinds} since the last {@link #resetCounts}. */
  public synchronized long count(Set<FaultOp> kinds) {
    long n = 0;
    for (FaultOp k : kinds) {
      n += counts.getOrDefault(k, 0L);
    }
    return n;
  }

  /** Bytes written to files but not yet durable. */
  public synchronized long unsyncedBytes() {
    long n = 0;
    for (FileState s : files.values()) {
      n += s.written - s.synced;
    }
    return n;
  }

  /**
   * Simulates a crash. Every stream opened before it fails from now on; each file with unsynced
   * bytes is cut to its durable length, or with {@code randomTail} to a random length up to what
   * was written. Injection is disarmed. Returns the bytes dropped.
   */
  public synchronized long crash(Random rnd, boolean randomTail) throws IOException {
    epoch++;
    long dropped = 0;
    for (FileState s : files.values()) {
      if (s.stream != null) {
        s.stream.abandon();
      }
      long keep = s.synced;
      if (randomTail && s.written > s.synced) {
        keep += (long) (rnd.nextDouble() * (s.written - s.synced + 1));
      }
      File f = new File(s.path);
      if (keep < s.written && f.exists()) {
        try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
          dropped += raf.length() - keep;
          raf.setLength(Math.min(keep, raf.length()));
        }
      }
    }
    files.clear();
    clearFaults();
    return dropped;
  }

  synchronized int epoch() {
    return epoch;
  }

  /** Counts one operation and throws if it is the armed one or a sticky failure has fired. */
  synchronized void op(FaultOp kind, Object what) throws IOException {
    if (fired != null && sticky) {
      throw new IOException("faultfs: " + kind + " " + what + " after the injected failure",
        fired);
    }
    counts.merge(kind, 1L, Long::sum);
    if (armedKinds.contains(kind) && ++armedSeen == armedAt) {
      fired = new IOException("faultfs: injected failure of " + kind + " #" + armedAt + " ("
        + what + ")");
      throw fired;
    }
  }

  synchronized void written(FileState s, long n) {
    s.written += n;
  }

  synchronized void synced(FileState s, boolean closed) {
    s.synced = s.written;
    if (closed) {
      files.remove(s.path);
    }
  }

  private static String local(Path p) {
    return p.toUri().getPath();
  }

  // ----- file system operations -----

  private FSDataOutputStream track(Path f, FSDataOutputStream real) throws IOException {
    if (real.getWrappedStream() instanceof FaultOutputStream) {
      return real;
    }
    FileState s;
    synchronized (this) {
      s = new FileState(local(f));
      files.put(s.path, s);
      s.stream = new FaultOutputStream(this, s, real, epoch);
    }
    return new FSDataOutputStream(s.stream, null);
  }

  @Override
  public FSDataOutputStream create(Path f, boolean overwrite, int bufferSize, short replication,
    long blockSize, Progressable progress) throws IOException {
    op(FaultOp.CREATE, f);
    return track(f, super.create(f, overwrite, bufferSize, replication, blockSize, progress));
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
    int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
    op(FaultOp.CREATE, f);
    return track(f,
      super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress));
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
    EnumSet<CreateFlag> flags, int bufferSize, short replication, long blockSize,
    Progressable progress) throws IOException {
    op(FaultOp.CREATE, f);
    return track(f, super.createNonRecursive(f, permission, flags, bufferSize, replication,
      blockSize, progress));
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
    boolean overwrite, int bufferSize, short replication, long blockSize, Progressable progress)
    throws IOException {
    op(FaultOp.CREATE, f);
    return track(f, super.createNonRecursive(f, permission, overwrite, bufferSize, replication,
      blockSize, progress));
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
    throws IOException {
    throw new IOException("faultfs does not model append (" + f + "); HBase does not use it");
  }

  @Override
  public boolean truncate(Path f, long newLength) throws IOException {
    throw new IOException("faultfs does not model truncate (" + f + "); HBase does not use it");
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    op(FaultOp.OPEN, f);
    return new FSDataInputStream(new FaultInputStream(this, f, super.open(f, bufferSize)));
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    op(FaultOp.RENAME, src + " -> " + dst);
    boolean ok = super.rename(src, dst);
    if (ok) {
      synchronized (this) {
        // Open files keep their durability record under the new name.
        String from = local(src);
        String to = local(dst);
        List<FileState> moved = new ArrayList<>();
        for (Iterator<FileState> it = files.values().iterator(); it.hasNext();) {
          FileState s = it.next();
          if (s.path.equals(from) || s.path.startsWith(from + "/")) {
            it.remove();
            s.path = to + s.path.substring(from.length());
            moved.add(s);
          }
        }
        moved.forEach(s -> files.put(s.path, s));
      }
    }
    return ok;
  }

  @Override
  public boolean delete(Path p, boolean recursive) throws IOException {
    op(FaultOp.DELETE, p);
    boolean ok = super.delete(p, recursive);
    if (ok) {
      synchronized (this) {
        String gone = local(p);
        files.values().removeIf(s -> s.path.equals(gone) || s.path.startsWith(gone + "/"));
      }
    }
    return ok;
  }

  @Override
  public boolean mkdirs(Path f) throws IOException {
    op(FaultOp.MKDIRS, f);
    return super.mkdirs(f);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    op(FaultOp.MKDIRS, f);
    return super.mkdirs(f, permission);
  }
}
