package org.apache.hadoop.hbase.regionserver;

import org.apache.hadoop.fs.FileSystem;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The bytes the calling thread has read through Hadoop file systems (every scheme: HDFS, local,
 * ulfs), from Hadoop's per-thread {@link FileSystem.Statistics}. A compaction reads its inputs
 * on its own thread, so the difference across it is what it read from the file system: only
 * the range of a segment it shares with a neighbour partition, and no block HBase's BlockCache
 * served. The sum of whole input lengths would count a shared segment's other ranges too.
 */
@InterfaceAudience.Private
final class FileSystemReads {
  private FileSystemReads() {
  }

  /** Bytes read by this thread since it started, over all file-system schemes. */
  @SuppressWarnings("deprecation") // the per-thread figures are only on FileSystem.Statistics
  static long byThisThread() {
    long n = 0;
    for (FileSystem.Statistics s : FileSystem.getAllStatistics()) {
      n += s.getThreadStatistics().getBytesRead();
    }
    return n;
  }
}
