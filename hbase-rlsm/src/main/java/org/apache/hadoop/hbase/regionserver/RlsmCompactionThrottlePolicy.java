package org.apache.hadoop.hbase.regionserver;

import java.util.Collection;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionPolicy;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * What fills HBase's compaction-policy slot of the engine. It decides nothing about what to
 * compact ({@code RlsmCompactionPlanner} does, asked by {@link RlsmCompactionContext}); it only
 * answers HBase's two generic questions: whether a compaction is large enough for the throttled
 * (long-compactions) thread pool, by HBase's usual throttle point, and whether a periodic major
 * compaction is due (never: a user {@code major_compact} still rewrites everything).
 */
@InterfaceAudience.Private
public class RlsmCompactionThrottlePolicy extends CompactionPolicy {
  public RlsmCompactionThrottlePolicy(Configuration conf, StoreConfigInformation storeConfigInfo) {
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
