package org.apache.hadoop.hbase.rlsm.ulfs;

import java.util.Map;

/**
 * The counters of a mounted ulfs device over JMX, as object
 * {@code org.apache.hadoop.hbase.rlsm:type=UlfsMount,device="<device>"} (docs/ulfs.md "Counters
 * while mounted"). Every value counts since the mount; a bean read after the unmount returns
 * zeros and empty maps.
 */
public interface UlfsMountMXBean {
  String getDevice();

  /** Backend in use, e.g. "io_uring+O_DIRECT". */
  String getBackend();

  String getCachePolicy();

  long getCacheHits();

  long getCacheMisses();

  long getCacheEvictions();

  long getCachePages();

  long getCacheDirtyPages();

  /** Demand hits per file kind (wal, l0, l1_segment, manifest, tmp, other). */
  Map<String, Long> getHitsByKind();

  Map<String, Long> getMissesByKind();

  /** Demand hits per LSM level (L0..L7, none). */
  Map<String, Long> getHitsByLevel();

  Map<String, Long> getMissesByLevel();

  /** Demand hits per stream role (user, compaction_input, compaction_output, flush_output). */
  Map<String, Long> getHitsByRole();

  Map<String, Long> getMissesByRole();

  /** Evictions per list of the policy (lru; T1, T2; ...). */
  Map<String, Long> getEvictionsByList();

  Map<String, Long> getPagesByList();

  /** Pages the compaction prefetcher read, and of those, pages a demand read used. */
  long getPrefetchIssued();

  long getPrefetchUsed();

  /** Pages read ahead of sequential streams, and of those, pages a demand read used. */
  long getReadaheadIssued();

  long getReadaheadUsed();

  long getDeviceReadBytes();

  long getDeviceWriteBytes();

  long getDeviceFlushes();

  long getJournalCommits();
}
