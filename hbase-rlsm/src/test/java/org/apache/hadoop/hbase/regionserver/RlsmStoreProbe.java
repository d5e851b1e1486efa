package org.apache.hadoop.hbase.regionserver;

import org.apache.hadoop.hbase.client.CompactionState;

/**
 * What tests read of an RLSM store and its region that HBase keeps package-private: the Level-1
 * layout and whether the region has compactions queued or running.
 */
public final class RlsmStoreProbe {
  private RlsmStoreProbe() {
  }

  private static RlsmStoreFileManager.State state(HStore store) {
    return ((RlsmStoreFileManager) store.getStoreEngine().getStoreFileManager()).state();
  }

  public static int level0Files(HStore store) {
    return state(store).level0.size();
  }

  /** Low keys of the Level-1 partitions, ascending. */
  public static java.util.List<byte[]> partitionLows(HStore store) {
    java.util.List<byte[]> out = new java.util.ArrayList<>();
    state(store).partitions.forEach(p -> out.add(p.low));
    return out;
  }

  /** Segments of the deepest Level-1 partition (0 without partitions). */
  public static int deepestPartition(HStore store) {
    int deepest = 0;
    for (RlsmStoreFileManager.Partition p : state(store).partitions) {
      deepest = Math.max(deepest, p.segments.size());
    }
    return deepest;
  }

  public static int partitions(HStore store) {
    return state(store).partitions.size();
  }

  /** Level-1 segments listed by more than one partition (an index split shares them). */
  public static int sharedSegments(HStore store) {
    java.util.Map<HStoreFile, Integer> listed = new java.util.IdentityHashMap<>();
    for (RlsmStoreFileManager.Partition p : state(store).partitions) {
      p.segments.forEach(seg -> listed.merge(seg, 1, Integer::sum));
    }
    return (int) listed.values().stream().filter(n -> n > 1).count();
  }

  /**
   * True when no compaction of the region is queued, selected or running. HBase counts a request
   * as queued before the requesting call returns (a user flush's request inside the flush RPC, a
   * re-enqueue before the finished compaction leaves its runner), so once the call that caused a
   * request has returned, this turns true only after that request, and every one it led to, ran.
   * (HBase increments the count just after handing a runner to its pool; a runner that finishes
   * before that increment makes the count dip, a window no reader of the count can close.)
   */
  public static boolean compactionsIdle(HRegion region) {
    return region.compactionsQueued.sum() == 0
      && region.getCompactionState() == CompactionState.NONE;
  }
}
