/* test_cache_trace.c -- the access trace: a mount with trace_path records one record per demand
 * access (as many as the cache counted hits and misses), with the file's hint, the stream's role,
 * the write bit and the real cache's hit bit, and a drop record for a DONTNEED; the trace it
 * leaves in <testdata>/trace.bin is then replayed by the ulfs-cachesim ctest. Also: hints on
 * missing paths and bad values are refused. */
#include "t.h"

static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  char trace[4096];
  snprintf(trace, sizeof trace, "%s/trace.bin", dir);
  ulfs_dev *dev = t_memdev(64u << 20, NULL);
  ulfs_mount_opts o = {.cache_bytes = 2048 * 4096, .flush_interval_ms = 1000,
                       .cache_policy = "lsm-arc", .trace_path = trace};
  ulfs *fs;
  OK(ulfs_mount(dev, &o, &fs));
  CHECK_RC(ulfs_hint_path(fs, "/nope", ULFS_KIND_WAL, 0), -ENOENT);
  OK(ulfs_mkdir(fs, "/d", 0755));
  int wal = ulfs_open(fs, "/d/wal", O_RDWR | O_CREAT, 0644);
  int seg = ulfs_open(fs, "/d/seg", O_RDWR | O_CREAT, 0644);
  CHECK(wal >= 0 && seg >= 0);
  CHECK_RC(ulfs_hint_path(fs, "/d/wal", ULFS_KIND_COUNT, 0), -EINVAL);
  CHECK_RC(ulfs_hint_fd(fs, seg, ULFS_ROLE_COUNT), -EINVAL);
  CHECK_RC(ulfs_hint_fd(fs, 999, ULFS_ROLE_USER), -EBADF);
  OK(ulfs_hint_path(fs, "/d/wal", ULFS_KIND_WAL, (int)ULFS_LEVEL_NONE));
  OK(ulfs_hint_path(fs, "/d/seg", ULFS_KIND_L1_SEGMENT, 1));
  OK(ulfs_hint_fd(fs, seg, ULFS_ROLE_COMPACTION_OUTPUT));
  uint8_t buf[4096];
  memset(buf, 7, sizeof buf);
  for (int i = 0; i < 8; i++) CHECK_RC(ulfs_pwrite(fs, wal, buf, 4096, (uint64_t)i * 4096), 4096);
  /* 4 MB segment, then read back as a compaction input: the prefetcher reads 1 MB units ahead */
  for (int i = 0; i < 1024; i++)
    CHECK_RC(ulfs_pwrite(fs, seg, buf, 4096, (uint64_t)i * 4096), 4096);
  OK(ulfs_fsync(fs, seg));
  OK(ulfs_fadvise(fs, seg, 0, 0, POSIX_FADV_DONTNEED)); /* so that the reads below miss */
  OK(ulfs_hint_fd(fs, seg, ULFS_ROLE_COMPACTION_INPUT));
  for (int i = 0; i < 1024; i++) {
    CHECK_RC(ulfs_pread(fs, seg, buf, 4096, (uint64_t)i * 4096), 4096);
    /* the prefetcher competes for the mount's lock with these reads (the mutex is not fair):
     * let it read what it has queued, so that later reads find prefetched pages */
    if (i % 128 == 0) ulfs_prefetch_wait(fs);
  }
  for (int i = 0; i < 8; i++) CHECK_RC(ulfs_pread(fs, wal, buf, 4096, (uint64_t)i * 4096), 4096);
  ulfs_counters c;
  ulfs_cache_stats st;
  ulfs_get_counters(fs, &c);
  ulfs_get_cache_stats(fs, &st);
  CHECK(st.misses_kind[ULFS_KIND_WAL] == 8 && st.hits_kind[ULFS_KIND_WAL] == 8);
  CHECK(st.hits_kind[ULFS_KIND_L1_SEGMENT] + st.misses_kind[ULFS_KIND_L1_SEGMENT] == 2048);
  CHECK(st.misses_level[1] > 0 && st.hits_level[ULFS_HINT_LEVELS] == 8);
  printf("prefetch issued %llu used %llu\n", (unsigned long long)st.prefetch_issued,
         (unsigned long long)st.prefetch_used);
  CHECK(st.prefetch_issued > 0 && st.prefetch_used > 0 && st.prefetch_used <= st.prefetch_issued);
  CHECK(strcmp(ulfs_cache_list_name(fs, 2), "WAL") == 0 && ulfs_cache_list_name(fs, 3) == NULL);
  uint64_t accesses = c.cache_hits + c.cache_misses;
  OK(ulfs_close(fs, wal));
  OK(ulfs_close(fs, seg));
  OK(ulfs_unmount(fs));
  ulfs_dev_close(dev);

  FILE *f = fopen(trace, "rb");
  CHECK(f != NULL);
  uint8_t h[16], r[24];
  CHECK(fread(h, 1, 16, f) == 16 && memcmp(h, "ULFSTRC1", 8) == 0 && get32(h + 8) == 1 &&
        get32(h + 12) == 24);
  uint64_t n = 0, hits = 0, wal_writes = 0, seg_reads_ci = 0, drops = 0;
  while (fread(r, 1, 24, f) == 24) {
    if (r[19] & 4) { /* a drop: the DONTNEED of the whole segment */
      CHECK(r[19] == 4 && r[16] == ULFS_KIND_L1_SEGMENT && get32(r) == 0 &&
            get32(r + 20) == UINT32_MAX);
      drops++;
      continue;
    }
    n++;
    hits += (r[19] & 2) != 0;
    if (r[16] == ULFS_KIND_WAL && (r[19] & 1)) {
      CHECK(r[17] == ULFS_LEVEL_NONE && r[18] == ULFS_ROLE_USER);
      wal_writes++;
    }
    if (r[16] == ULFS_KIND_L1_SEGMENT && !(r[19] & 1)) {
      CHECK(r[17] == 1 && r[18] == ULFS_ROLE_COMPACTION_INPUT);
      seg_reads_ci++;
    }
  }
  fclose(f);
  CHECK(n == accesses && hits == c.cache_hits);
  CHECK(wal_writes == 8 && seg_reads_ci == 1024 && drops == 1);
  printf("test_cache_trace: ok (%llu records)\n", (unsigned long long)n);
  return 0;
}
