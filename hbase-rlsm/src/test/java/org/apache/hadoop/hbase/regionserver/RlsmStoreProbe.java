package org.apache.hadoop.hbase.regionserver;

import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.util.Bytes;

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

  /**
   * Level-1 segments holding rows outside every partition that lists them (rows the manifest
   * hides: a segment left to one partition after an index split and a rewrite of the other).
   * Looks at each segment's first and last row.
   */
  public static int segmentsWithHiddenRows(HStore store) {
    Map<HStoreFile, byte[][]> span = new IdentityHashMap<>();
    for (RlsmStoreFileManager.Partition p : state(store).partitions) {
      for (HStoreFile seg : p.segments) {
        byte[][] s = span.computeIfAbsent(seg, k -> new byte[][] { p.low, p.high });
        s[0] = Bytes.compareTo(p.low, s[0]) < 0 ? p.low : s[0];
        s[1] = Bytes.compareTo(p.high, s[1]) > 0 ? p.high : s[1];
      }
    }
    int hidden = 0;
    for (Map.Entry<HStoreFile, byte[][]> e : span.entrySet()) {
      byte[] first = CellUtil.cloneRow(e.getKey().getFirstKey().get());
      byte[] last = CellUtil.cloneRow(e.getKey().getLastKey().get());
      byte[][] s = e.getValue();
      if (Bytes.compareTo(first, s[0]) < 0 || Bytes.compareTo(last, s[1]) > 0) {
        hidden++;
      }
    }
    return hidden;
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

  /**
   * Walks every row of {@code f} with the row cursor of partition summaries and planner row
   * sources, and returns the most buffers of {@code pool} in use at once meanwhile, less those
   * in use before.
   */
  public static int poolBuffersHeldByRowCursor(HStoreFile f,
    org.apache.hadoop.hbase.io.ByteBuffAllocator pool) throws java.io.IOException {
    // the pool counts the buffers it ever made and those handed back and free
    int before = pool.getUsedBufferCount() - pool.getFreeBufferCount();
    int most = 0;
    try (RlsmRowCursor c = RlsmRowCursor.open(f, null, null)) {
      while (c.next() != null) {
        most = Math.max(most, pool.getUsedBufferCount() - pool.getFreeBufferCount() - before);
      }
    }
    return most;
  }
}
