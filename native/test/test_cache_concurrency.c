/* test_cache_concurrency.c -- many threads reading and writing through a small page cache
 * (64 frames, so nearly every access evicts) with the flusher running every few milliseconds
 * and the prefetcher serving compaction inputs, once per policy. Checks: no lost update (every
 * page holds the last version its writer wrote, read back during the run and after a remount)
 * and consistent counters (hits + misses per kind and per level add up to the totals, evictions
 * per list to the total, prefetch used <= issued, resident pages within the cache). */
#include "t.h"

#define THREADS 8
#define PAGES 48 /* per file: 8 files x 48 pages = 6x the cache */
#define OPS 3000

typedef struct worker {
  ulfs *fs;
  int id;
  uint32_t version[PAGES]; /* last version written to each page */
  uint64_t accesses;       /* demand page accesses made (each counts one hit or miss) */
  int failed;
} worker;

static void page_image(uint8_t *buf, int id, int page, uint32_t version) {
  for (int i = 0; i < 4096; i += 4) {
    uint32_t v = (uint32_t)id * 0x01000193u ^ (uint32_t)page * 0x9E3779B1u ^ version ^ (uint32_t)i;
    memcpy(buf + i, &v, 4);
  }
}

/* Worker id of t_run_workers; workers is the array of every worker's state. */
static void work(int id, void *workers) {
  worker *w = (worker *)workers + id;
  char path[32];
  snprintf(path, sizeof path, "/f%d", w->id);
  int fd = ulfs_open(w->fs, path, O_RDWR | O_CREAT, 0644);
  if (fd < 0) {
    w->failed = 1;
    return;
  }
  /* a mix of kinds and roles: WAL files, Level-0 and Level-1 files read as compaction inputs */
  int kind = w->id % 3 == 0 ? ULFS_KIND_WAL : w->id % 3 == 1 ? ULFS_KIND_L0 : ULFS_KIND_L1_SEGMENT;
  int level = kind == ULFS_KIND_WAL ? (int)ULFS_LEVEL_NONE : kind == ULFS_KIND_L0 ? 0 : 1;
  if (ulfs_hint_path(w->fs, path, kind, level) != 0) w->failed = 1;
  if (kind == ULFS_KIND_L1_SEGMENT && ulfs_hint_fd(w->fs, fd, ULFS_ROLE_COMPACTION_INPUT) != 0)
    w->failed = 1;
  uint8_t buf[4096], want[4096];
  uint32_t rnd = 12345u + (uint32_t)w->id;
  for (int p = 0; p < PAGES; p++) {
    page_image(buf, w->id, p, 0);
    if (ulfs_pwrite(w->fs, fd, buf, 4096, (uint64_t)p * 4096) != 4096) w->failed = 1;
    w->accesses++;
  }
  for (int op = 0; op < OPS && !w->failed; op++) {
    rnd = rnd * 1103515245u + 12345u;
    int p = (int)((rnd >> 8) % PAGES);
    if ((rnd >> 20) % 3 == 0) {
      w->version[p]++;
      page_image(buf, w->id, p, w->version[p]);
      if (ulfs_pwrite(w->fs, fd, buf, 4096, (uint64_t)p * 4096) != 4096) w->failed = 1;
    } else {
      page_image(want, w->id, p, w->version[p]);
      if (ulfs_pread(w->fs, fd, buf, 4096, (uint64_t)p * 4096) != 4096) w->failed = 1;
      else if (memcmp(buf, want, 4096) != 0) w->failed = 2; /* a lost update */
    }
    w->accesses++;
  }
  if (ulfs_close(w->fs, fd) != 0) w->failed = 1;
}

static uint64_t sum(const uint64_t *v, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; i++) s += v[i];
  return s;
}

static void run(const char *policy) {
  ulfs_dev *dev = t_memdev(64u << 20, NULL);
  ulfs_mount_opts o = {.cache_bytes = 64 * 4096, .flush_interval_ms = 3, .cache_policy = policy,
                       .trace_path = NULL};
  ulfs *fs;
  OK(ulfs_mount(dev, &o, &fs));
  CHECK(strcmp(ulfs_cache_policy(fs), policy) == 0);
  static worker w[THREADS];
  for (int i = 0; i < THREADS; i++) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].fs = fs;
    w[i].id = i;
  }
  t_run_workers(THREADS, work, w);
  uint64_t accesses = 0;
  for (int i = 0; i < THREADS; i++) {
    if (w[i].failed) fprintf(stderr, "%s: worker %d failed (%d)\n", policy, i, w[i].failed);
    CHECK(w[i].failed == 0);
    accesses += w[i].accesses;
  }
  ulfs_counters c;
  ulfs_cache_stats st;
  ulfs_get_counters(fs, &c);
  ulfs_get_cache_stats(fs, &st);
  uint64_t by_kind = sum(st.hits_kind, ULFS_KIND_COUNT) + sum(st.misses_kind, ULFS_KIND_COUNT);
  uint64_t by_level = sum(st.hits_level, ULFS_HINT_LEVELS + 1) +
                      sum(st.misses_level, ULFS_HINT_LEVELS + 1);
  /* every demand access of the workers (and nothing else: no directory page goes through the
   * cache) counted exactly once, under its kind and its level */
  CHECK(c.cache_hits + c.cache_misses == accesses);
  CHECK(by_kind == accesses && by_level == accesses);
  CHECK(sum(st.hits_kind, ULFS_KIND_COUNT) == c.cache_hits);
  CHECK(st.misses_kind[ULFS_KIND_WAL] > 0 && st.misses_kind[ULFS_KIND_L0] > 0);
  CHECK(st.misses_level[0] > 0 && st.misses_level[1] > 0 && st.misses_level[ULFS_HINT_LEVELS] > 0);
  CHECK(sum(st.evictions, ULFS_CACHE_LISTS) == c.cache_evictions && c.cache_evictions > 0);
  CHECK(sum(st.list_pages, ULFS_CACHE_LISTS) <= c.cache_pages);
  CHECK(st.prefetch_used <= st.prefetch_issued);
  CHECK(st.dirty_writebacks == c.cache_writebacks && c.cache_writebacks > 0);
  printf("%-9s accesses %llu hits %llu evictions %llu prefetched %llu used %llu writebacks %llu\n",
         policy, (unsigned long long)accesses, (unsigned long long)c.cache_hits,
         (unsigned long long)c.cache_evictions, (unsigned long long)st.prefetch_issued,
         (unsigned long long)st.prefetch_used, (unsigned long long)c.cache_writebacks);
  OK(ulfs_unmount(fs));
  /* after a remount every page still holds its writer's last version */
  fs = t_mount(dev, 1u << 20);
  uint8_t buf[4096], want[4096];
  for (int i = 0; i < THREADS; i++) {
    char path[32];
    snprintf(path, sizeof path, "/f%d", i);
    int fd = ulfs_open(fs, path, O_RDONLY, 0);
    CHECK(fd >= 0);
    for (int p = 0; p < PAGES; p++) {
      page_image(want, i, p, w[i].version[p]);
      CHECK_RC(ulfs_pread(fs, fd, buf, 4096, (uint64_t)p * 4096), 4096);
      CHECK(memcmp(buf, want, 4096) == 0);
    }
    OK(ulfs_close(fs, fd));
  }
  t_unmount_fsck_close(fs, dev);
}

int main(void) {
  const char *policies[] = {"lru", "lru-level", "arc", "lsm-arc"};
  for (int i = 0; i < 4; i++) run(policies[i]);
  printf("test_cache_concurrency: ok\n");
  return 0;
}
