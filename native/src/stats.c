/* stats.c -- the counters report (ulfs_stats_write) and its publisher, a thread that rewrites
 * the report to a file while the file system is mounted, so that ulfs-stat can show the counters
 * of a device another process holds (the device lock keeps ulfs-stat from mounting it).
 * docs/ulfs.md "Counters while mounted"; the file: docs/format/ulfs-stats.md.
 *
 * The file is replaced atomically (written to <path>.tmp, then renamed), so a reader sees one
 * whole report; its first line names the publishing process and the time. The publisher takes
 * no lock of its own while it formats: the getters it calls take the mount's lock briefly each. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static const char *const kind_names[ULFS_KIND_COUNT] = {"other", "wal", "L0", "L1-segment",
                                                        "manifest", "tmp"};
static const char *const role_names[ULFS_ROLE_COUNT] = {"user", "compaction-in",
                                                        "compaction-out", "flush-out"};

static void print_cache_stats(ulfs *fs, FILE *out) {
  ulfs_cache_stats st;
  ulfs_get_cache_stats(fs, &st);
  fprintf(out, "cache policy     %s, p %llu, ghosts B1 %llu B2 %llu\n", ulfs_cache_policy(fs),
          (unsigned long long)st.arc_p, (unsigned long long)st.ghost_b1,
          (unsigned long long)st.ghost_b2);
  fprintf(out, "hits/misses kind");
  for (int k = 0; k < ULFS_KIND_COUNT; k++)
    fprintf(out, " %s %llu/%llu", kind_names[k], (unsigned long long)st.hits_kind[k],
            (unsigned long long)st.misses_kind[k]);
  fprintf(out, "\nhits/misses lvl ");
  for (unsigned l = 0; l <= ULFS_HINT_LEVELS; l++) {
    if (!(st.hits_level[l] || st.misses_level[l] || l < 2 || l == ULFS_HINT_LEVELS)) continue;
    char name[8];
    snprintf(name, sizeof name, l == ULFS_HINT_LEVELS ? "none" : "L%u", l);
    fprintf(out, " %s %llu/%llu", name, (unsigned long long)st.hits_level[l],
            (unsigned long long)st.misses_level[l]);
  }
  fprintf(out, "\nhits/misses role");
  for (int r = 0; r < ULFS_ROLE_COUNT; r++)
    fprintf(out, " %s %llu/%llu", role_names[r], (unsigned long long)st.hits_role[r],
            (unsigned long long)st.misses_role[r]);
  fprintf(out, "\nprefetch         %llu pages issued, %llu used; readahead %llu pages issued, "
               "%llu used; %llu dirty write-backs\n",
          (unsigned long long)st.prefetch_issued, (unsigned long long)st.prefetch_used,
          (unsigned long long)st.readahead_issued, (unsigned long long)st.readahead_used,
          (unsigned long long)st.dirty_writebacks);
  fprintf(out, "lists            ");
  for (unsigned i = 0; ulfs_cache_list_name(fs, i); i++)
    fprintf(out, "%s%s %llu pages %llu evictions", i ? ", " : "", ulfs_cache_list_name(fs, i),
            (unsigned long long)st.list_pages[i], (unsigned long long)st.evictions[i]);
  fprintf(out, "\n");
}

int ulfs_stats_write(ulfs *fs, FILE *out) {
  ulfs_statfs s;
  ulfs_counters c;
  int rc = ulfs_statfs_get(fs, &s);
  if (rc) return rc;
  ulfs_get_counters(fs, &c);
  fprintf(out, "backend          %s%s\n", ulfs_backend_name(ulfs_dev_backend(fs->dev)),
          ulfs_dev_is_direct(fs->dev) ? ", O_DIRECT" : ", buffered");
  fprintf(out, "data blocks      %llu used / %llu (%.1f%%), block size %llu\n",
          (unsigned long long)(s.blocks - s.blocks_free), (unsigned long long)s.blocks,
          s.blocks ? 100.0 * (double)(s.blocks - s.blocks_free) / (double)s.blocks : 0.0,
          (unsigned long long)s.block_size);
  fprintf(out, "inodes           %llu used / %llu\n",
          (unsigned long long)(s.inodes - s.inodes_free), (unsigned long long)s.inodes);
  fprintf(out, "cache            %llu pages, %llu dirty, %llu hits, %llu misses, %llu evictions, "
               "%llu writebacks, %llu write-back errors\n",
          (unsigned long long)c.cache_pages, (unsigned long long)c.cache_dirty_pages,
          (unsigned long long)c.cache_hits, (unsigned long long)c.cache_misses,
          (unsigned long long)c.cache_evictions, (unsigned long long)c.cache_writebacks,
          (unsigned long long)c.cache_wb_errors);
  print_cache_stats(fs, out);
  fprintf(out, "device I/O       %llu reads (%llu B), %llu writes (%llu B), %llu flushes\n",
          (unsigned long long)c.dev_reads, (unsigned long long)c.dev_read_bytes,
          (unsigned long long)c.dev_writes, (unsigned long long)c.dev_write_bytes,
          (unsigned long long)c.dev_flushes);
  fprintf(out, "journal          %llu commits, %llu blocks, %llu replayed at mount, %llu wraps\n",
          (unsigned long long)c.journal_commits, (unsigned long long)c.journal_blocks,
          (unsigned long long)c.journal_replayed_txns, (unsigned long long)c.journal_wraps);
  return ferror(out) ? -EIO : 0;
}

struct stats_pub {
  ulfs *fs;
  char *path, *tmp;
  uint32_t interval_ms;
  pthread_t thread;
  pthread_mutex_t mu; /* guards stop and serialises publications */
  pthread_cond_t cv;
  bool stop, warned;
};

/* REQUIRES: p->mu held. */
static int publish_locked(stats_pub *p) {
  FILE *f = fopen(p->tmp, "w");
  if (!f) return -errno;
  char when[32];
  time_t now = time(NULL);
  struct tm tm;
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
  fprintf(f, "# ulfs counters published by pid %d at %s, every %u ms\n", (int)getpid(), when,
          p->interval_ms);
  int rc = ulfs_stats_write(p->fs, f);
  if (fclose(f) != 0 && rc == 0) rc = -errno;
  if (rc == 0 && rename(p->tmp, p->path) != 0) rc = -errno;
  if (rc && !p->warned) {
    p->warned = true; /* once: a full disk must not flood the log */
    ulfs_log(ULFS_LOG_WARN, "cannot publish counters to %s: %s", p->path, strerror(-rc));
  }
  return rc;
}

static void *publisher_main(void *arg) {
  stats_pub *p = arg;
  pthread_mutex_lock(&p->mu);
  while (!p->stop) {
    struct timespec ts = ulfs_deadline_ms(p->interval_ms);
    pthread_cond_timedwait(&p->cv, &p->mu, &ts);
    if (!p->stop) (void)publish_locked(p);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

int stats_pub_start(ulfs *fs, const char *path, uint32_t interval_ms, stats_pub **out) {
  stats_pub *p = calloc(1, sizeof *p);
  size_t n = strlen(path);
  if (!p || !(p->path = strdup(path)) || !(p->tmp = malloc(n + 5))) {
    if (p) free(p->path);
    free(p);
    return -ENOMEM;
  }
  memcpy(p->tmp, path, n);
  memcpy(p->tmp + n, ".tmp", 5);
  p->fs = fs;
  p->interval_ms = interval_ms ? interval_ms : 1000u;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  pthread_mutex_lock(&p->mu);
  int rc = publish_locked(p); /* the first report exists when the mount returns */
  pthread_mutex_unlock(&p->mu);
  if (rc == 0 && pthread_create(&p->thread, NULL, publisher_main, p) != 0) rc = -EAGAIN;
  if (rc) {
    unlink(p->path);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p->tmp);
    free(p->path);
    free(p);
    return rc;
  }
  *out = p;
  return 0;
}

int stats_pub_now(stats_pub *p) {
  pthread_mutex_lock(&p->mu);
  int rc = p->stop ? -ESHUTDOWN : publish_locked(p);
  pthread_mutex_unlock(&p->mu);
  return rc;
}

void stats_pub_stop(stats_pub *p) {
  pthread_mutex_lock(&p->mu);
  bool was = p->stop;
  p->stop = true;
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
  if (was) return;
  pthread_join(p->thread, NULL);
  unlink(p->path); /* the device is no longer mounted: ulfs-stat mounts it itself */
  unlink(p->tmp);
}

void stats_pub_free(stats_pub *p) {
  stats_pub_stop(p);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  free(p->tmp);
  free(p->path);
  free(p);
}
