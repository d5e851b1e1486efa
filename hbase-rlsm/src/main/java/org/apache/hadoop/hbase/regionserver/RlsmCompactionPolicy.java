package org.apache.hadoop.hbase.regionserver;

import java.util.Collection;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionPolicy;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * HBase's hook for compaction decisions. RLSM decides in {@code RlsmCompactionPlanner} (asked by
 * the engine's compaction context); this policy only answers HBase's generic questions: no
 * time-based major compactions (a user {@code major_compact} still rewrites everything), and
 * HBase's usual throttle point for large compactions.
 */
@InterfaceAudience.Private
public class RlsmCompactionPolicy extends CompactionPolicy {
  public RlsmCompactionPolicy(Configuration conf, StoreConfigInformation storeConfigInfo) {
    super(conf, storeConfigInfo);
  }

  @Override
  public boolean shouldPerformMajorCompaction(Collection<HStoreFile> filesToCompact) {
    return false;
  }

  @Override
  public boolean throttleCompaction(long compactionSize) {
    return compactionSize > comConf.getThrottlePoint();
  }
}
