package org.apache.hadoop.hbase.rlsm.bench.cluster;

import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Counts the bytes of the store files compactions archive into one store's archive directory,
 * then deletes them, so a scale run needs the disk space of the live store, not of every byte
 * the engines ever committed (at 16 GB the default engine commits about 90 GB). Only benchmark
 * tables use it: their files are never shared by snapshots, clones or split daughters, so no
 * reader needs an archived file.
 *
 * <p>Archiving moves a file, and a file is counted in the pass that deletes it, so every archived
 * byte is counted exactly once. Not thread-safe: one thread calls {@link #sweep}.
 */
final class ArchiveMeter {
  private final FileSystem fs;
  private final Path dir;
  private long bytes;

  ArchiveMeter(FileSystem fs, Path dir) {
    this.fs = fs;
    this.dir = dir;
  }

  /** Counts and deletes the files now in the archive directory; returns the total so far. */
  long sweep() throws IOException {
    if (fs.exists(dir)) {
      for (FileStatus st : fs.listStatus(dir)) {
        if (st.isFile() && fs.delete(st.getPath(), false)) {
          bytes += st.getLen();
        }
      }
    }
    return bytes;
  }
}
