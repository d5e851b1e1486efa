package org.apache.hadoop.hbase.rlsm.ulfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;

/**
 * The errno values of the native layer and the one place they become the exceptions callers
 * see (docs/ulfs.md, "Errors"). The JNI bridge throws only {@link UlfsException}, which carries
 * the errno; nothing in Java looks at its message text. An errno not mapped here reaches the
 * caller as the {@link UlfsException} itself (an {@link IOException}), e.g. EIO or ENOSPC from
 * a write, or EBADF.
 */
final class UlfsErrno {
  // Linux values (asm-generic: x86-64 and aarch64 alike).
  static final int ENOENT = 2;
  static final int EBUSY = 16;
  static final int EEXIST = 17;
  static final int ENOTDIR = 20;
  static final int EISDIR = 21;
  static final int EINVAL = 22;
  static final int ENOTEMPTY = 39;
  static final int EPROTONOSUPPORT = 93;
  static final int EOPNOTSUPP = 95;

  private UlfsErrno() {
  }

  /**
   * What a file system operation on p throws for e: Hadoop's exception type for the errno values
   * Hadoop callers distinguish (ENOENT, EEXIST, ENOTDIR, ENOTEMPTY), with e as the cause; e
   * itself otherwise.
   */
  static IOException forPath(UlfsException e, Path p) {
    IOException out;
    switch (e.errno()) {
      case ENOENT:
        out = new FileNotFoundException(p + ": " + e.getMessage());
        break;
      case EEXIST:
        out = new FileAlreadyExistsException(p + ": " + e.getMessage());
        break;
      case ENOTDIR:
        out = new ParentNotDirectoryException(p + ": " + e.getMessage());
        break;
      case ENOTEMPTY:
        out = new PathIsNotEmptyDirectoryException(p + ": " + e.getMessage());
        break;
      default:
        return e;
    }
    out.initCause(e);
    return out;
  }

  /**
   * What opening the device or mounting the file system on it throws for e: no valid superblock
   * (EINVAL, EPROTONOSUPPORT) and a device mounted elsewhere (EBUSY: the device's flock) say so
   * and what to do; e itself otherwise.
   */
  static IOException forMount(UlfsException e, String device) {
    switch (e.errno()) {
      case EINVAL:
      case EPROTONOSUPPORT:
        return new IOException(device + " is not a ulfs device of a supported format version "
          + "(no valid superblock): format it with ulfs-mkfs, or remove the image file to have "
          + "it created", e);
      case EBUSY:
        return new IOException(device + " is mounted by another process (a ulfs device has one "
          + "mount at a time; only the server may open hbase.rootdir on it)", e);
      default:
        return e;
    }
  }

  /**
   * What putting the fault device in front of the device throws for e: a library without it
   * (EOPNOTSUPP) and a malformed spec (EINVAL) name the cause; e itself otherwise.
   */
  static IOException forFaultDevice(UlfsException e) {
    switch (e.errno()) {
      case EOPNOTSUPP:
        return new IOException("fs.ulfs.fault.* ask for the fault device, but this libulfsjni ("
          + NativeLoader.loadedFrom() + ") was built without the fault device "
          + "(ULFS_FAULT_DEVICE=OFF): only " + NativeLoader.FAULT_LIB_FILE + " from the build "
          + "directory has it, for tests and the kill loop; the server's library never does", e);
      case EINVAL:
        return new IOException("invalid ulfs fault settings (" + UlfsConfig.FAULT_ERRORS_KEY
          + ", " + UlfsConfig.FAULT_SEED_KEY + ")", e);
      default:
        return e;
    }
  }
}
