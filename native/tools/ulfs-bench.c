/* ulfs-bench -- micro-benchmark of the ulfs data path against the kernel file system on the same
 * disk: sequential write, random 4 KB and 64 KB preads, 4 KB appends each followed by fsync, and
 * 4 KB and 200-byte appends (a WAL's entries) each followed by hflush (for the kernel file: none).
 * ulfs runs on a freshly formatted image through the chosen backend; the kernel baseline uses
 * pread/pwrite/fdatasync on a plain file in the same directory (through the kernel page cache).
 *   ulfs-bench <dir> [file-MiB=512] [cache-MiB=64] [posix|io_uring] [trace-file]
 * With a trace file, ulfs records every page access to it (what tracing costs:
 * bench/scripts/ulfs-trace-cost.sh).
 * Prints one line per (system, test) with throughput and latency percentiles. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <time.h>

#include "common.h"
#include <unistd.h>

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void die(const char *what) {
  fprintf(stderr, "ulfs-bench: %s failed\n", what);
  exit(1);
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void report(const char *sys, const char *test, double *lat, int n, double total_us,
                   double bytes) {
  qsort(lat, (size_t)n, sizeof *lat, cmp_d);
  printf("%-14s %-22s %8.0f ops/s %9.1f MB/s  p50 %7.1f us  p99 %8.1f us  p99.9 %8.1f us\n",
         sys, test, n / (total_us / 1e6), bytes / total_us, lat[n / 2], lat[n * 99 / 100],
         lat[n * 999 / 1000]);
}

static uint64_t rnd_state = 88172645463325252ull;
static uint64_t rnd(void) {
  rnd_state ^= rnd_state << 13;
  rnd_state ^= rnd_state >> 7;
  rnd_state ^= rnd_state << 17;
  return rnd_state;
}

typedef struct target {
  const char *name;
  ulfs *fs; /* NULL: kernel file */
  int fd;
} target;

static ssize_t t_pwrite(target *t, const void *b, size_t n, uint64_t off) {
  return t->fs ? ulfs_pwrite(t->fs, t->fd, b, n, off) : pwrite(t->fd, b, n, (off_t)off);
}
static ssize_t t_pread(target *t, void *b, size_t n, uint64_t off) {
  return t->fs ? ulfs_pread(t->fs, t->fd, b, n, off) : pread(t->fd, b, n, (off_t)off);
}
static int t_sync(target *t) { return t->fs ? ulfs_fsync(t->fs, t->fd) : fdatasync(t->fd); }
/* HDFS's hflush: for the kernel file the write itself (the data is then in the kernel). */
static int t_hflush(target *t) { return t->fs ? ulfs_hflush(t->fs, t->fd) : 0; }

/* n appends of len bytes at off, each followed by fsync (hsync) or hflush; returns the end. */
static uint64_t appends(target *t, const uint8_t *buf, uint64_t off, size_t len, int n,
                        bool hsync, double *lat) {
  double t0 = now_us();
  for (int i = 0; i < n; i++) {
    double s = now_us();
    if (t_pwrite(t, buf, len, off) != (ssize_t)len || (hsync ? t_sync(t) : t_hflush(t)) != 0)
      die("append");
    off += len;
    lat[i] = now_us() - s;
  }
  char test[32];
  snprintf(test, sizeof test, "append %zuB + %s", len, hsync ? "fsync" : "hflush");
  report(t->name, test, lat, n, now_us() - t0, (double)n * (double)len);
  return off;
}

static void run(target *t, uint64_t file_bytes) {
  static double lat[200000];
  size_t chunk = 1 << 20;
  uint8_t *buf = aligned_alloc(4096, chunk);
  for (size_t i = 0; i < chunk; i++) buf[i] = (uint8_t)rnd();
  double t0 = now_us();
  int n = 0;
  for (uint64_t off = 0; off < file_bytes; off += chunk) {
    double s = now_us();
    if (t_pwrite(t, buf, chunk, off) != (ssize_t)chunk) die("write");
    lat[n++] = now_us() - s;
  }
  if (t_sync(t) != 0) die("fsync");
  report(t->name, "seq write 1MB + fsync", lat, n, now_us() - t0, (double)file_bytes);

  size_t sizes[2] = {4096, 65536};
  int counts[2] = {20000, 4000};
  for (int k = 0; k < 2; k++) {
    t0 = now_us();
    for (int i = 0; i < counts[k]; i++) {
      uint64_t off = rnd() % (file_bytes / sizes[k]) * sizes[k];
      double s = now_us();
      if (t_pread(t, buf, sizes[k], off) != (ssize_t)sizes[k]) die("read");
      lat[i] = now_us() - s;
    }
    report(t->name, k ? "random pread 64KB" : "random pread 4KB", lat, counts[k], now_us() - t0,
           (double)counts[k] * (double)sizes[k]);
  }
  uint64_t end = appends(t, buf, file_bytes, 4096, 2000, true, lat);
  end = appends(t, buf, end, 4096, 20000, false, lat);
  appends(t, buf, end, 200, 50000, false, lat);
  free(buf);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: ulfs-bench <dir> [file-MiB=512] [cache-MiB=64] [posix|io_uring] "
                    "[trace-file]\n");
    return 2;
  }
  uint64_t file_bytes = (argc > 2 ? strtoull(argv[2], NULL, 10) : 512) << 20;
  uint64_t cache_bytes = (argc > 3 ? strtoull(argv[3], NULL, 10) : 64) << 20;
  int ok = 1;
  ulfs_backend b = argc > 4 ? parse_backend(argv[4], &ok) : ULFS_BACKEND_IO_URING;
  if (!ok) return 2;
  char img[4096], plain[4096];
  snprintf(img, sizeof img, "%s/ulfs-bench.img", argv[1]);
  snprintf(plain, sizeof plain, "%s/ulfs-bench.plain", argv[1]);
  unlink(img);
  int rc = ulfs_image_create(img, file_bytes * 2 + (256u << 20));
  ulfs_dev *dev = NULL;
  if (!rc) rc = ulfs_dev_open(img, b, 0, &dev);
  if (!rc) rc = ulfs_mkfs(dev, NULL);
  ulfs *fs = NULL;
  ulfs_mount_opts mo = {.cache_bytes = cache_bytes, .flush_interval_ms = 1000,
                        .cache_policy = NULL, .trace_path = argc > 5 ? argv[5] : NULL};
  if (!rc) rc = ulfs_mount(dev, &mo, &fs);
  if (rc) {
    fprintf(stderr, "ulfs-bench: %s: %s\n", img, strerror(-rc));
    return 1;
  }
  char name[64];
  snprintf(name, sizeof name, "ulfs/%s%s", ulfs_backend_name(ulfs_dev_backend(dev)),
           ulfs_dev_is_direct(dev) ? "" : "(buf)");
  target u = {name, fs, ulfs_open(fs, "/bench", O_CREAT | O_RDWR, 0644)};
  if (u.fd < 0) return 1;
  printf("file %llu MiB, ulfs cache %llu MiB, kernel page cache unrestricted\n",
         (unsigned long long)(file_bytes >> 20), (unsigned long long)(cache_bytes >> 20));
  run(&u, file_bytes);
  ulfs_counters c;
  ulfs_get_counters(fs, &c);
  printf("ulfs cache: %llu hits, %llu misses; device: %llu reads, %llu writes, %llu flushes\n",
         (unsigned long long)c.cache_hits, (unsigned long long)c.cache_misses,
         (unsigned long long)c.dev_reads, (unsigned long long)c.dev_writes,
         (unsigned long long)c.dev_flushes);
  ulfs_close(fs, u.fd);
  ulfs_unmount(fs);
  ulfs_dev_close(dev);
  unlink(img);

  target k = {"kernel", NULL, open(plain, O_CREAT | O_RDWR | O_TRUNC, 0644)};
  if (k.fd < 0) return 1;
  run(&k, file_bytes);
  close(k.fd);
  unlink(plain);
  return 0;
}
