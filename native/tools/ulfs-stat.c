/* ulfs-stat -- mounts a device and prints usage, cache and I/O counters of the mount (the
 * counters include the mount itself: journal replay and superblock writes). With a policy name,
 * mounts with that page-cache policy; the page cache counters (per file kind and level,
 * prefetcher, evictions per policy list) are printed too. */
#include "common.h"

static const char *const kind_names[ULFS_KIND_COUNT] = {"other", "wal", "L0", "L1-segment",
                                                        "manifest", "tmp"};

static void print_cache_stats(ulfs *fs) {
  ulfs_cache_stats st;
  ulfs_get_cache_stats(fs, &st);
  printf("cache policy     %s, p %llu, ghosts B1 %llu B2 %llu\n", ulfs_cache_policy(fs),
         (unsigned long long)st.arc_p, (unsigned long long)st.ghost_b1,
         (unsigned long long)st.ghost_b2);
  printf("hits/misses kind");
  for (int k = 0; k < ULFS_KIND_COUNT; k++)
    printf(" %s %llu/%llu", kind_names[k], (unsigned long long)st.hits_kind[k],
           (unsigned long long)st.misses_kind[k]);
  printf("\nhits/misses lvl ");
  for (unsigned l = 0; l <= ULFS_HINT_LEVELS; l++) {
    if (!(st.hits_level[l] || st.misses_level[l] || l < 2 || l == ULFS_HINT_LEVELS)) continue;
    char name[8];
    snprintf(name, sizeof name, l == ULFS_HINT_LEVELS ? "none" : "L%u", l);
    printf(" %s %llu/%llu", name, (unsigned long long)st.hits_level[l],
           (unsigned long long)st.misses_level[l]);
  }
  printf("\nprefetch         %llu pages issued, %llu used; %llu dirty write-backs\n",
         (unsigned long long)st.prefetch_issued, (unsigned long long)st.prefetch_used,
         (unsigned long long)st.dirty_writebacks);
  printf("lists            ");
  for (unsigned i = 0; ulfs_cache_list_name(fs, i); i++)
    printf("%s%s %llu pages %llu evictions", i ? ", " : "", ulfs_cache_list_name(fs, i),
           (unsigned long long)st.list_pages[i], (unsigned long long)st.evictions[i]);
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: ulfs-stat <device-or-image> [posix|io_uring] "
                    "[lru|lru-level|arc|lsm-arc]\n");
    return 2;
  }
  ulfs_backend b = ULFS_BACKEND_POSIX;
  int ok = 1;
  if (argc >= 3) b = parse_backend(argv[2], &ok);
  if (!ok) {
    fprintf(stderr, "ulfs-stat: unknown backend %s\n", argv[2]);
    return 2;
  }
  ulfs_dev *dev;
  int rc = ulfs_dev_open(argv[1], b, 0, &dev);
  if (rc) {
    fprintf(stderr, "ulfs-stat: %s: %s\n", argv[1], strerror(-rc));
    return 1;
  }
  ulfs *fs;
  ulfs_mount_opts o = {.cache_bytes = 0, .flush_interval_ms = 0,
                       .cache_policy = argc >= 4 ? argv[3] : NULL, .trace_path = NULL};
  if ((rc = ulfs_mount(dev, &o, &fs)) != 0) {
    fprintf(stderr, "ulfs-stat: mount %s: %s\n", argv[1], strerror(-rc));
    ulfs_dev_close(dev);
    return 1;
  }
  ulfs_statfs s;
  ulfs_counters c;
  ulfs_statfs_get(fs, &s);
  ulfs_get_counters(fs, &c);
  printf("device           %s (%s%s)\n", argv[1], ulfs_backend_name(ulfs_dev_backend(dev)),
         ulfs_dev_is_direct(dev) ? ", O_DIRECT" : ", buffered");
  printf("data blocks      %llu used / %llu (%.1f%%), block size %llu\n",
         (unsigned long long)(s.blocks - s.blocks_free), (unsigned long long)s.blocks,
         s.blocks ? 100.0 * (double)(s.blocks - s.blocks_free) / (double)s.blocks : 0.0,
         (unsigned long long)s.block_size);
  printf("inodes           %llu used / %llu\n", (unsigned long long)(s.inodes - s.inodes_free),
         (unsigned long long)s.inodes);
  printf("cache            %llu pages, %llu dirty, %llu hits, %llu misses, %llu evictions, "
         "%llu writebacks, %llu write-back errors\n",
         (unsigned long long)c.cache_pages, (unsigned long long)c.cache_dirty_pages,
         (unsigned long long)c.cache_hits, (unsigned long long)c.cache_misses,
         (unsigned long long)c.cache_evictions, (unsigned long long)c.cache_writebacks,
         (unsigned long long)c.cache_wb_errors);
  print_cache_stats(fs);
  printf("device I/O       %llu reads (%llu B), %llu writes (%llu B), %llu flushes\n",
         (unsigned long long)c.dev_reads, (unsigned long long)c.dev_read_bytes,
         (unsigned long long)c.dev_writes, (unsigned long long)c.dev_write_bytes,
         (unsigned long long)c.dev_flushes);
  printf("journal          %llu commits, %llu blocks, %llu replayed at mount, %llu wraps\n",
         (unsigned long long)c.journal_commits, (unsigned long long)c.journal_blocks,
         (unsigned long long)c.journal_replayed_txns, (unsigned long long)c.journal_wraps);
  rc = ulfs_unmount(fs);
  ulfs_dev_close(dev);
  return rc ? 1 : 0;
}
