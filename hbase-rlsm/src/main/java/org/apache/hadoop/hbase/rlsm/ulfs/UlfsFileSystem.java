package org.apache.hadoop.hbase.rlsm.ulfs;

import static org.apache.hadoop.fs.impl.PathCapabilitiesSupport.validatePathCapabilityArgs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hbase.rlsm.cachehint.CacheHintSink;
import org.apache.hadoop.hbase.rlsm.cachehint.FileKind;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop {@link FileSystem} for {@code ulfs:///path}: the paths of the ulfs device mounted by
 * this process ({@link UlfsMount}). The authority is ignored; there is one device per process.
 *
 * <p>Semantics (stated for the contract tests in src/test/resources/contract/ulfs.xml): rename is
 * atomic, does not overwrite an existing file (returns false), moves into an existing
 * directory, and needs the destination's parent to exist; delete of a directory is atomic only
 * when it is empty (recursive deletes remove entries one by one); create makes missing parents;
 * append is supported; permissions are stored (owner bits are checked by access) but there is
 * one owner, the process user.
 *
 * <p>Cache hints: files created under HBase's WAL and recovered-edits directories are hinted WAL
 * and files under a {@code .tmp} directory TMP ({@link UlfsPathClassifier}); a rename out of
 * {@code .tmp} ends TMP; a rename into HBase's {@code archive/} drops the file's cached pages;
 * {@link #hintFile} takes the engine's finer hints.
 */
public class UlfsFileSystem extends FileSystem implements CacheHintSink {
  private static final Logger LOG = LoggerFactory.getLogger(UlfsFileSystem.class);
  public static final String SCHEME = "ulfs";
  private static final URI ROOT_URI = URI.create(SCHEME + ":///");

  private UlfsMount mount;
  private Path workingDir;
  private String user;
  private long blockSize;
  private int bufferSize;
  private boolean closed;

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    mount = UlfsMount.acquire(conf);
    user = UserGroupInformation.getCurrentUser().getShortUserName();
    workingDir = new Path("/user", user).makeQualified(ROOT_URI, null);
    blockSize = conf.getLong(UlfsConfig.BLOCK_SIZE_KEY, UlfsConfig.DEFAULT_BLOCK_SIZE);
    bufferSize = conf.getInt(UlfsConfig.BUFFER_BYTES_KEY, UlfsConfig.DEFAULT_BUFFER_BYTES);
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public URI getUri() {
    return ROOT_URI;
  }

  /** The mount behind this file system (for counters and tests). */
  public UlfsMount getMount() {
    return mount;
  }

  @Override
  public void hintFile(Path path, FileKind kind, int level) throws IOException {
    try {
      mount.hintPath(pathOf(path), kind.code(), level);
    } catch (UlfsException e) {
      throw UlfsErrno.forPath(e, path);
    }
  }

  /** The absolute ulfs path of p. */
  private String pathOf(Path p) {
    checkPath(p);
    Path abs = p.isAbsolute() ? p : new Path(workingDir, p);
    String s = abs.toUri().getPath();
    return s.isEmpty() ? "/" : s;
  }

  /** stat, or null when the path (or a parent) does not exist. */
  private long[] statOrNull(String path) throws IOException {
    try {
      return mount.stat(path);
    } catch (UlfsException e) {
      if (e.errno() == UlfsErrno.ENOENT || e.errno() == UlfsErrno.ENOTDIR) {
        return null;
      }
      throw e;
    }
  }

  private static boolean isDir(long[] st) {
    return (st[1] & 0170000) == 0040000;
  }

  private FileStatus toStatus(Path qualified, long[] st) {
    long mtimeMs = st[5] / 1_000_000L;
    return new FileStatus(isDir(st) ? 0 : st[3], isDir(st), 1, blockSize, mtimeMs, mtimeMs,
      new FsPermission((short) (st[1] & 0777)), user, user, qualified);
  }

  @Override
  public FSDataInputStream open(Path f, int bufSize) throws IOException {
    String p = pathOf(f);
    long[] st = statOrNull(p);
    if (st == null) {
      throw new FileNotFoundException(f.toString());
    }
    if (isDir(st)) {
      throw new FileNotFoundException("Cannot open directory " + f + " to read");
    }
    UlfsFile file;
    try {
      file = UlfsFile.open(mount, p, UlfsFile.OPEN_READ, 0);
    } catch (UlfsException e) {
      throw UlfsErrno.forPath(e, f);
    }
    return new FSDataInputStream(
      new UlfsInputStream(file, bufSize > 0 ? bufSize : bufferSize, statistics));
  }

  private FSDataOutputStream create(Path f, FsPermission perm, boolean overwrite,
    boolean recursive, int bufSize) throws IOException {
    String p = pathOf(f);
    long[] st = statOrNull(p);
    if (st != null) {
      if (isDir(st)) {
        throw new FileAlreadyExistsException("Cannot create file " + f + ": is a directory");
      }
      if (!overwrite) {
        throw new FileAlreadyExistsException("File already exists: " + f);
      }
    }
    Path parent = f.getParent();
    if (parent != null) {
      long[] pst = statOrNull(pathOf(parent));
      if (pst == null) {
        if (!recursive) {
          throw new FileNotFoundException("Parent directory of " + f + " does not exist");
        }
        mkdirs(parent, FsPermission.getDirDefault());
      } else if (!isDir(pst)) {
        throw new ParentNotDirectoryException("Parent of " + f + " is a file");
      }
    }
    int flags = UlfsFile.OPEN_WRITE | UlfsFile.OPEN_CREATE
      | (overwrite ? UlfsFile.OPEN_TRUNC : UlfsFile.OPEN_EXCL);
    short mode = (perm == null ? FsPermission.getFileDefault() : perm)
      .applyUMask(FsPermission.getUMask(getConf())).toShort();
    UlfsFile file;
    try {
      file = UlfsFile.open(mount, p, flags, mode & 0777);
    } catch (UlfsException e) {
      throw UlfsErrno.forPath(e, f);
    }
    FileKind kind = UlfsPathClassifier.classify(p);
    if (kind != null) {
      try {
        mount.hintPath(p, kind.code(), FileKind.NO_LEVEL);
      } catch (IOException e) {
        file.close();
        throw e;
      }
    }
    return new FSDataOutputStream(
      new UlfsOutputStream(file, bufSize > 0 ? bufSize : bufferSize), statistics);
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite,
    int bufSize, short replication, long blkSize, Progressable progress) throws IOException {
    return create(f, permission, overwrite, true, bufSize);
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission,
    java.util.EnumSet<org.apache.hadoop.fs.CreateFlag> flags, int bufSize, short replication,
    long blkSize, Progressable progress) throws IOException {
    boolean overwrite = flags.contains(org.apache.hadoop.fs.CreateFlag.OVERWRITE);
    return create(f, permission, overwrite, false, bufSize);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufSize, Progressable progress)
    throws IOException {
    String p = pathOf(f);
    long[] st = statOrNull(p);
    if (st == null) {
      throw new FileNotFoundException(f.toString());
    }
    if (isDir(st)) {
      throw new FileAlreadyExistsException("Cannot append to directory " + f);
    }
    UlfsFile file;
    try {
      file = UlfsFile.open(mount, p, UlfsFile.OPEN_WRITE | UlfsFile.OPEN_APPEND, 0);
    } catch (UlfsException e) {
      throw UlfsErrno.forPath(e, f);
    }
    return new FSDataOutputStream(
      new UlfsOutputStream(file, bufSize > 0 ? bufSize : bufferSize), statistics, st[3]);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    String s = pathOf(src);
    String d = pathOf(dst);
    if (s.equals("/")) {
      return false;
    }
    long[] sst = statOrNull(s);
    if (sst == null) {
      return false;
    }
    if (s.equals(d)) {
      return !isDir(sst); // renaming a file onto itself is a no-op success
    }
    long[] dst0 = statOrNull(d);
    if (dst0 != null) {
      if (!isDir(dst0)) {
        return false; // never overwrites
      }
      Path into = new Path(dst, src.getName());
      d = pathOf(into);
      if (statOrNull(d) != null) {
        return false;
      }
    } else {
      Path parent = dst.getParent();
      long[] pst = parent == null ? null : statOrNull(pathOf(parent));
      if (pst == null || !isDir(pst)) {
        return false;
      }
    }
    if (isDir(sst) && (d + "/").startsWith(s + "/")) {
      return false; // into itself
    }
    try {
      mount.rename(s, d);
      if (!isDir(sst)) {
        FileKind kind = UlfsPathClassifier.classify(d);
        if (kind == FileKind.WAL) {
          mount.hintPath(d, kind.code(), FileKind.NO_LEVEL); // e.g. a WAL archived to oldWALs
        } else if (kind == null) {
          mount.hintCommit(d); // a temporary output reached its final name
        }
        if (UlfsPathClassifier.isArchive(d)) {
          mount.dropCache(d); // a compacted store file: the store never reads it again
        }
      }
      return true;
    } catch (UlfsException e) {
      if (e.errno() == UlfsErrno.ENOENT || e.errno() == UlfsErrno.EINVAL
        || e.errno() == UlfsErrno.ENOTDIR || e.errno() == UlfsErrno.EISDIR
        || e.errno() == UlfsErrno.ENOTEMPTY || e.errno() == UlfsErrno.EEXIST) {
        return false;
      }
      throw e;
    }
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    String p = pathOf(f);
    long[] st = statOrNull(p);
    if (st == null) {
      return false;
    }
    try {
      if (!isDir(st)) {
        mount.unlink(p);
        return true;
      }
      String[] children = mount.list(p);
      if (children.length > 0 && !recursive) {
        throw new PathIsNotEmptyDirectoryException(f.toString());
      }
      for (String c : children) {
        delete(new Path(f, c), true);
      }
      if (p.equals("/")) {
        return true; // the root itself stays: it is emptied
      }
      mount.rmdir(p);
      return true;
    } catch (UlfsException e) {
      if (e.errno() == UlfsErrno.ENOENT) {
        return false; // removed concurrently
      }
      throw UlfsErrno.forPath(e, f);
    }
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    String p = pathOf(f);
    long[] st = statOrNull(p);
    if (st == null) {
      throw new FileNotFoundException(f.toString());
    }
    Path q = makeQualified(f);
    if (!isDir(st)) {
      return new FileStatus[] { toStatus(q, st) };
    }
    String[] names;
    try {
      names = mount.list(p);
    } catch (UlfsException e) {
      throw UlfsErrno.forPath(e, f);
    }
    List<FileStatus> out = new ArrayList<>(names.length);
    for (String n : names) {
      Path child = new Path(q, n);
      long[] cst = statOrNull(pathOf(child));
      if (cst != null) { // skip entries removed since the listing
        out.add(toStatus(child, cst));
      }
    }
    return out.toArray(new FileStatus[0]);
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDir = makeQualified(dir.isAbsolute() ? dir : new Path(workingDir, dir));
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    String p = pathOf(f);
    short mode = (permission == null ? FsPermission.getDirDefault() : permission)
      .applyUMask(FsPermission.getUMask(getConf())).toShort();
    StringBuilder cur = new StringBuilder();
    String[] parts = p.split("/");
    for (int i = 0; i < parts.length; i++) {
      if (parts[i].isEmpty()) {
        continue;
      }
      cur.append('/').append(parts[i]);
      String c = cur.toString();
      boolean last = c.length() == p.length() || i == parts.length - 1;
      long[] st = statOrNull(c);
      if (st != null) {
        if (!isDir(st)) {
          if (last) {
            throw new FileAlreadyExistsException("Path is a file: " + f);
          }
          throw new ParentNotDirectoryException("Parent path is not a directory: " + c);
        }
        continue;
      }
      try {
        mount.mkdir(c, (mode & 0777) | 0700);
      } catch (UlfsException e) {
        if (e.errno() != UlfsErrno.EEXIST) { // created concurrently: fine
          throw UlfsErrno.forPath(e, new Path(c));
        }
      }
    }
    return true;
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    long[] st = statOrNull(pathOf(f));
    if (st == null) {
      throw new FileNotFoundException("File does not exist: " + f);
    }
    return toStatus(makeQualified(f), st);
  }

  @Override
  public boolean hasPathCapability(Path path, String capability) throws IOException {
    switch (validatePathCapabilityArgs(makeQualified(path), capability)) {
      case CommonPathCapabilities.FS_APPEND:
      case CommonPathCapabilities.FS_PERMISSIONS:
        return true;
      case CommonPathCapabilities.FS_CONCAT:
      case CommonPathCapabilities.FS_SYMLINKS:
      case CommonPathCapabilities.FS_CHECKSUMS:
        return false;
      default:
        return super.hasPathCapability(path, capability);
    }
  }

  @Override
  public long getDefaultBlockSize() {
    return blockSize;
  }

  @Override
  public FsStatus getStatus(Path p) throws IOException {
    long[] s = mount.statfs();
    long capacity = s[0] * s[1];
    long remaining = s[0] * s[2];
    return new FsStatus(capacity, capacity - remaining, remaining);
  }

  @Override
  public synchronized void close() throws IOException {
    try {
      super.close();
    } finally {
      if (!closed && mount != null) {
        closed = true;
        // The mount logs its counters when it unmounts, but a stream its caller never closed
        // keeps it mounted until the JVM exits (HBase's standalone server ends so): log them
        // when the file system closes too, or its run leaves no counters behind.
        LOG.info("Closing ulfs file system {}: {}", getUri(), mount.cacheStats());
        mount.release();
      }
    }
  }
}
