package org.apache.hadoop.hbase.rlsm.ulfs;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.hbase.rlsm.cachehint.FileKind;
import org.apache.hadoop.hbase.rlsm.cachehint.StreamRole;

/**
 * {@link UlfsMountMXBean} of one mount: every getter reads the native counters afresh, through
 * {@link UlfsMount#whileMounted}, so a JMX read racing the unmount never touches a freed mount.
 */
final class UlfsMountBean implements UlfsMountMXBean {
  /** Indexes of {@link UlfsMount#counters()} (the order of ulfs_counters). */
  private static final int DEV_FLUSHES = 2;
  private static final int DEV_READ_BYTES = 3;
  private static final int DEV_WRITE_BYTES = 4;
  private static final int HITS = 5;
  private static final int MISSES = 6;
  private static final int EVICTIONS = 7;
  private static final int PAGES = 10;
  private static final int DIRTY_PAGES = 11;
  private static final int JOURNAL_COMMITS = 12;

  private final UlfsMount mount;

  UlfsMountBean(UlfsMount mount) {
    this.mount = mount;
  }

  private long counter(int i) {
    Long v = mount.whileMounted(m -> m.counters()[i]);
    return v == null ? 0 : v;
  }

  private long stat(Function<UlfsCacheStats, Long> f) {
    Long v = mount.whileMounted(m -> f.apply(m.cacheStats()));
    return v == null ? 0 : v;
  }

  private Map<String, Long> map(Function<UlfsCacheStats, Map<String, Long>> f) {
    Map<String, Long> v = mount.whileMounted(m -> f.apply(m.cacheStats()));
    return v == null ? Collections.emptyMap() : v;
  }

  private static String name(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  private static String level(int l) {
    return l == FileKind.NO_LEVEL ? "none" : "L" + l;
  }

  private static Map<String, Long> byKind(Function<FileKind, Long> f) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (FileKind k : FileKind.values()) {
      out.put(name(k), f.apply(k));
    }
    return out;
  }

  private static Map<String, Long> byLevel(Function<Integer, Long> f) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (int l = 0; l < UlfsCacheStats.LEVELS; l++) {
      out.put(level(l), f.apply(l));
    }
    out.put(level(FileKind.NO_LEVEL), f.apply(FileKind.NO_LEVEL));
    return out;
  }

  private static Map<String, Long> byRole(Function<StreamRole, Long> f) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (StreamRole r : StreamRole.values()) {
      out.put(name(r), f.apply(r));
    }
    return out;
  }

  private static Map<String, Long> byList(UlfsCacheStats s, Function<Integer, Long> f) {
    Map<String, Long> out = new LinkedHashMap<>();
    String[] lists = s.lists();
    for (int i = 0; i < lists.length; i++) {
      out.put(lists[i], f.apply(i));
    }
    return out;
  }

  @Override
  public String getDevice() {
    return mount.device();
  }

  @Override
  public String getBackend() {
    return mount.description();
  }

  @Override
  public String getCachePolicy() {
    String p = mount.whileMounted(m -> m.cacheStats().policy());
    return p == null ? "" : p;
  }

  @Override
  public long getCacheHits() {
    return counter(HITS);
  }

  @Override
  public long getCacheMisses() {
    return counter(MISSES);
  }

  @Override
  public long getCacheEvictions() {
    return counter(EVICTIONS);
  }

  @Override
  public long getCachePages() {
    return counter(PAGES);
  }

  @Override
  public long getCacheDirtyPages() {
    return counter(DIRTY_PAGES);
  }

  @Override
  public Map<String, Long> getHitsByKind() {
    return map(s -> byKind(s::hits));
  }

  @Override
  public Map<String, Long> getMissesByKind() {
    return map(s -> byKind(s::misses));
  }

  @Override
  public Map<String, Long> getHitsByLevel() {
    return map(s -> byLevel(s::hitsAtLevel));
  }

  @Override
  public Map<String, Long> getMissesByLevel() {
    return map(s -> byLevel(s::missesAtLevel));
  }

  @Override
  public Map<String, Long> getHitsByRole() {
    return map(s -> byRole(s::hits));
  }

  @Override
  public Map<String, Long> getMissesByRole() {
    return map(s -> byRole(s::misses));
  }

  @Override
  public Map<String, Long> getEvictionsByList() {
    return map(s -> byList(s, s::evictions));
  }

  @Override
  public Map<String, Long> getPagesByList() {
    return map(s -> byList(s, s::listPages));
  }

  @Override
  public long getPrefetchIssued() {
    return stat(UlfsCacheStats::prefetchIssued);
  }

  @Override
  public long getPrefetchUsed() {
    return stat(UlfsCacheStats::prefetchUsed);
  }

  @Override
  public long getReadaheadIssued() {
    return stat(UlfsCacheStats::readaheadIssued);
  }

  @Override
  public long getReadaheadUsed() {
    return stat(UlfsCacheStats::readaheadUsed);
  }

  @Override
  public long getDeviceReadBytes() {
    return counter(DEV_READ_BYTES);
  }

  @Override
  public long getDeviceWriteBytes() {
    return counter(DEV_WRITE_BYTES);
  }

  @Override
  public long getDeviceFlushes() {
    return counter(DEV_FLUSHES);
  }

  @Override
  public long getJournalCommits() {
    return counter(JOURNAL_COMMITS);
  }
}
