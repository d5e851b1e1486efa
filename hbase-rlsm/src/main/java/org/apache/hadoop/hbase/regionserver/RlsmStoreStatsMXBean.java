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

  int getPartitions();

  int getSegments();
}
