package org.apache.hadoop.hbase.rlsm.ulfs;

import java.util.Arrays;
import java.util.Locale;
import org.apache.hadoop.hbase.rlsm.cachehint.FileKind;
import org.apache.hadoop.hbase.rlsm.cachehint.StreamRole;

/**
 * A snapshot of the ulfs page cache counters since mount (ulfs_cache_stats in ulfs.h): hits and
 * misses per file kind, level and stream role, prefetcher and readahead pages issued and used,
 * evictions and pages per policy list, dirty write-backs, and ARC's adaptive state.
 */
public final class UlfsCacheStats {
  /** Levels told apart (ULFS_HINT_LEVELS); one more slot counts files without a level. */
  public static final int LEVELS = 8;
  static final int KINDS = FileKind.values().length;
  static final int LISTS = 8;
  static final int ROLES = StreamRole.values().length;
  /** Layout of the array filled by the bridge (native/jni/UlfsMount.c, nativeCacheStats). */
  static final int LENGTH = 2 * KINDS + 2 * (LEVELS + 1) + 2 + 2 * LISTS + 6 + 2 * ROLES;

  private final String policy;
  private final String[] lists;
  private final long[] v;

  UlfsCacheStats(String policy, String[] lists, long[] values) {
    this.policy = policy;
    this.lists = lists;
    this.v = values;
  }

  public String policy() {
    return policy;
  }

  public long hits(FileKind kind) {
    return v[kind.code()];
  }

  public long misses(FileKind kind) {
    return v[KINDS + kind.code()];
  }

  /** level: 0..7, or {@link FileKind#NO_LEVEL} for files without one. */
  public long hitsAtLevel(int level) {
    return v[2 * KINDS + slot(level)];
  }

  public long missesAtLevel(int level) {
    return v[2 * KINDS + LEVELS + 1 + slot(level)];
  }

  private static int slot(int level) {
    return level == FileKind.NO_LEVEL ? LEVELS : Math.min(level, LEVELS - 1);
  }

  private int base() {
    return 2 * KINDS + 2 * (LEVELS + 1);
  }

  public long prefetchIssued() {
    return v[base()];
  }

  public long prefetchUsed() {
    return v[base() + 1];
  }

  /** Names of the policy's lists (lru: lru; arc: T1, T2; lsm-arc: T1, T2, WAL; ...). */
  public String[] lists() {
    return lists.clone();
  }

  public long evictions(int list) {
    return v[base() + 2 + list];
  }

  public long listPages(int list) {
    return v[base() + 2 + LISTS + list];
  }

  public long dirtyWritebacks() {
    return v[base() + 2 + 2 * LISTS];
  }

  /** ARC's target size of T1 in pages (arc, lsm-arc). */
  public long arcP() {
    return v[base() + 3 + 2 * LISTS];
  }

  public long ghostB1() {
    return v[base() + 4 + 2 * LISTS];
  }

  public long ghostB2() {
    return v[base() + 5 + 2 * LISTS];
  }

  /** Pages read ahead of sequential streams (docs/ulfs.md "Readahead"). */
  public long readaheadIssued() {
    return v[base() + 6 + 2 * LISTS];
  }

  /** Of {@link #readaheadIssued()}, pages later read by a demand access. */
  public long readaheadUsed() {
    return v[base() + 7 + 2 * LISTS];
  }

  /** Demand hits of accesses through streams of this role (ulfs_hint_fd, ulfs_pread_as). */
  public long hits(StreamRole role) {
    return v[base() + 8 + 2 * LISTS + role.code()];
  }

  public long misses(StreamRole role) {
    return v[base() + 8 + 2 * LISTS + ROLES + role.code()];
  }

  public long totalHits() {
    return Arrays.stream(v, 0, KINDS).sum();
  }

  public long totalMisses() {
    return Arrays.stream(v, KINDS, 2 * KINDS).sum();
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("cache policy ").append(policy).append(": hits/misses");
    for (FileKind k : FileKind.values()) {
      b.append(' ').append(k.name().toLowerCase(Locale.ROOT)).append(' ')
        .append(hits(k)).append('/').append(misses(k));
    }
    b.append("; L0 ").append(hitsAtLevel(0)).append('/').append(missesAtLevel(0));
    b.append(", L1 ").append(hitsAtLevel(1)).append('/').append(missesAtLevel(1));
    b.append("; roles");
    for (StreamRole r : StreamRole.values()) {
      b.append(' ').append(r.name().toLowerCase(Locale.ROOT)).append(' ')
        .append(hits(r)).append('/').append(misses(r));
    }
    b.append("; prefetch ").append(prefetchIssued()).append(" issued ").append(prefetchUsed())
      .append(" used; readahead ").append(readaheadIssued()).append(" issued ")
      .append(readaheadUsed()).append(" used; evictions");
    for (int i = 0; i < lists.length; i++) {
      b.append(' ').append(lists[i]).append(' ').append(evictions(i));
    }
    return b.append("; dirty write-backs ").append(dirtyWritebacks()).toString();
  }
}
