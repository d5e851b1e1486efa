package org.apache.hadoop.hbase.regionserver;

import org.apache.yetus.audience.InterfaceAudience;

/** JMX view of {@link RlsmStoreStats}: bytes written by source, compaction work, layout. */
@InterfaceAudience.Private
public interface RlsmStoreStatsMXBean {
  long getFlushBytes();

  long getAppendBytes();

  long getManifestBytes();

  long getSplitBytes();

  long getMergeBytes();

  long getCleanupBytes();

  long getMajorBytes();

  long getCompactionReadBytes();

  long getCompactions();

  long getLinkedFiles();

  long getCompactionMillis();

  /** Bytes of data files compactions retired minus bytes they wrote (purged data), summed. */
  long getFreedBytes();

  /** Segments of the deepest Level-1 partition (bounded by the planner). */
  int getDeepestPartition();

  int getPartitions();

  int getSegments();
}
