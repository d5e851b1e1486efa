/* t.h -- the minimal test harness shared by the ulfs C tests: CHECK macros that report file,
 * line and the failing expression, helpers to format, mount and snapshot trees, and
 * t_run_workers, the one way the tests run threads. */
#ifndef ULFS_TEST_H
#define ULFS_TEST_H
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ulfs.h"

static int t_failures;

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
      t_failures++;                                                              \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

#define CHECK_RC(expr, want)                                                             \
  do {                                                                                   \
    long long got_ = (long long)(expr);                                                  \
    if (got_ != (long long)(want)) {                                                     \
      fprintf(stderr, "%s:%d: %s returned %lld (%s), expected %lld\n", __FILE__, __LINE__, \
              #expr, got_, got_ < 0 ? strerror((int)-got_) : "-", (long long)(want));    \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

#define OK(expr) CHECK_RC(expr, 0)

static inline ulfs *t_mount(ulfs_dev *dev, uint64_t cache_bytes) {
  ulfs_mount_opts o = {.cache_bytes = cache_bytes, .flush_interval_ms = 3600000u,
                       .cache_policy = NULL};
  ulfs *fs = NULL;
  OK(ulfs_mount(dev, &o, &fs));
  return fs;
}

static inline ulfs_dev *t_memdev(uint64_t bytes, const ulfs_mkfs_opts *mo) {
  ulfs_dev *dev;
  OK(ulfs_dev_open_memory(bytes, &dev));
  OK(ulfs_mkfs(dev, mo));
  return dev;
}

static inline void t_fsck_clean(ulfs_dev *dev) {
  ulfs_fsck_report r;
  OK(ulfs_fsck(dev, 1, &r));
  if (r.errors) {
    fprintf(stderr, "fsck: %llu errors, first: %s\n", (unsigned long long)r.errors,
            r.first_error);
    exit(1);
  }
}

/* The end of a test's device: unmounts fs, checks that fsck finds the device clean, closes it. */
static inline void t_unmount_fsck_close(ulfs *fs, ulfs_dev *dev) {
  OK(ulfs_unmount(fs));
  t_fsck_clean(dev);
  ulfs_dev_close(dev);
}

/* Deterministic content for (seed, offset). */
static inline uint8_t t_byte(uint32_t seed, uint64_t off) {
  uint64_t x = (off + 1) * 0x9E3779B97F4A7C15ull ^ seed * 0xBF58476D1CE4E5B9ull;
  x ^= x >> 31;
  return (uint8_t)(x * 0x94D049BB133111EBull >> 56);
}

static inline void t_write_file(ulfs *fs, const char *path, uint32_t seed, uint64_t len,
                                int sync) {
  int fd = ulfs_open(fs, path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  CHECK(fd >= 0);
  uint8_t buf[8192];
  for (uint64_t off = 0; off < len;) {
    size_t n = len - off < sizeof buf ? (size_t)(len - off) : sizeof buf;
    for (size_t i = 0; i < n; i++) buf[i] = t_byte(seed, off + i);
    CHECK_RC(ulfs_write(fs, fd, buf, n), n);
    off += n;
  }
  if (sync) OK(ulfs_fsync(fs, fd));
  OK(ulfs_close(fs, fd));
}

/* Returns 1 if the file has exactly len bytes of content `seed`. */
static inline int t_file_matches(ulfs *fs, const char *path, uint32_t seed, uint64_t len) {
  ulfs_stat st;
  if (ulfs_stat_path(fs, path, &st) != 0 || st.size != len) return 0;
  int fd = ulfs_open(fs, path, O_RDONLY, 0);
  if (fd < 0) return 0;
  uint8_t buf[8192];
  int ok = 1;
  for (uint64_t off = 0; off < len && ok;) {
    ssize_t n = ulfs_pread(fs, fd, buf, sizeof buf, off);
    if (n <= 0) {
      ok = 0;
      break;
    }
    for (ssize_t i = 0; i < n; i++)
      if (buf[i] != t_byte(seed, off + (uint64_t)i)) ok = 0;
    off += (uint64_t)n;
  }
  ulfs_close(fs, fd);
  return ok;
}

/* Rewrites `path` `rounds` times with len bytes of content seed, seed+1, ..., each fsync'ed and
 * read back: the work of the tests' concurrent writers. */
static inline void t_rewrite_rounds(ulfs *fs, const char *path, uint32_t seed, uint64_t len,
                                    int rounds) {
  for (int round = 0; round < rounds; round++) {
    t_write_file(fs, path, seed + (uint32_t)round, len, 1);
    CHECK(t_file_matches(fs, path, seed + (uint32_t)round, len));
  }
}

/* One thread of t_run_workers. */
typedef struct t_worker {
  pthread_t thread;
  int id;
  void (*fn)(int id, void *arg);
  void *arg;
  pthread_barrier_t *start;
} t_worker;

static void *t_worker_main(void *p) {
  t_worker *w = p;
  pthread_barrier_wait(w->start); /* all start together, so their calls interleave */
  w->fn(w->id, w->arg);
  return NULL;
}

/* Runs fn(id, arg) for id = 0..n-1, each in its own thread, started together behind a
 * barrier, and returns when all have returned. A failing CHECK in fn ends the process. */
static inline void t_run_workers(int n, void (*fn)(int id, void *arg), void *arg) {
  t_worker *w = calloc((size_t)n, sizeof *w);
  pthread_barrier_t start;
  CHECK(w != NULL);
  CHECK(pthread_barrier_init(&start, NULL, (unsigned)n) == 0);
  for (int i = 0; i < n; i++) {
    w[i] = (t_worker){.id = i, .fn = fn, .arg = arg, .start = &start};
    CHECK(pthread_create(&w[i].thread, NULL, t_worker_main, &w[i]) == 0);
  }
  for (int i = 0; i < n; i++) CHECK(pthread_join(w[i].thread, NULL) == 0);
  pthread_barrier_destroy(&start);
  free(w);
}

/* Appends a canonical description of the tree under `path` (sorted names, types, sizes and a
 * content checksum) to out. */
static int t_cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline void t_tree(ulfs *fs, const char *path, char *out, size_t cap) {
  char *names[1024];
  int n = 0;
  uint64_t cookie = 0;
  char buf[4096];
  int got;
  while ((got = ulfs_getdents(fs, path, &cookie, buf, sizeof buf)) > 0) {
    for (int off = 0; off < got;) {
      ulfs_dirent *d = (ulfs_dirent *)(buf + off);
      CHECK(n < 1024);
      names[n++] = strdup(d->name);
      off += d->reclen;
    }
  }
  CHECK(got == 0);
  qsort(names, (size_t)n, sizeof *names, t_cmp_str);
  for (int i = 0; i < n; i++) {
    char child[ULFS_PATH_MAX];
    snprintf(child, sizeof child, "%s%s%s", path, strcmp(path, "/") ? "/" : "", names[i]);
    ulfs_stat st;
    OK(ulfs_stat_path(fs, child, &st));
    char line[ULFS_PATH_MAX + 64];
    if (S_ISDIR(st.mode)) {
      snprintf(line, sizeof line, "%s/\n", child);
      strncat(out, line, cap - strlen(out) - 1);
      t_tree(fs, child, out, cap);
    } else {
      uint32_t sum = 0;
      int fd = ulfs_open(fs, child, O_RDONLY, 0);
      CHECK(fd >= 0);
      uint8_t b[4096];
      ssize_t r;
      uint64_t off = 0;
      while ((r = ulfs_pread(fs, fd, b, sizeof b, off)) > 0) {
        for (ssize_t k = 0; k < r; k++) sum = sum * 31 + b[k];
        off += (uint64_t)r;
      }
      CHECK(r == 0);
      OK(ulfs_close(fs, fd));
      snprintf(line, sizeof line, "%s %llu %08x\n", child, (unsigned long long)st.size, sum);
      strncat(out, line, cap - strlen(out) - 1);
    }
    free(names[i]);
  }
}
#endif
