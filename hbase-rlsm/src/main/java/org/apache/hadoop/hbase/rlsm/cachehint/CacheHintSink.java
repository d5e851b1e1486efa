package org.apache.hadoop.hbase.rlsm.cachehint;

import java.io.IOException;
import org.apache.hadoop.fs.Path;

/** A file system whose page cache takes file hints (ulfs: UlfsFileSystem). */
public interface CacheHintSink {
  /**
   * Tells the cache what {@code path} is. The hint follows the file through renames and lasts
   * while the file system is mounted.
   * @param level LSM level, or {@link FileKind#NO_LEVEL}
   */
  void hintFile(Path path, FileKind kind, int level) throws IOException;
}
