package org.apache.hadoop.hbase.regionserver;

import java.util.Collection;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionPolicy;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Compaction decisions of the RLSM engine. This version selects no work: Level-0 files are
 * served as they are (hash index plus Bloom filter per file), so the store stays correct, only
 * reads probe more files as flushes accumulate.
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
