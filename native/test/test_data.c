/* test_data -- the data path against a shadow copy: random pwrite/pread through a cache much
 * smaller than the file (evictions and write-back on eviction), truncate and fallocate zeroing,
 * O_APPEND and lseek, fadvise, write-back failures (never marked clean, reported at the next
 * fsync), and concurrent writers/readers. */

#include "t.h"

static uint32_t rng = 12345;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static void random_io_vs_shadow(void) {
  ulfs_dev *dev = t_memdev(64u << 20, NULL);
  ulfs *fs = t_mount(dev, 256u << 10); /* 64 pages */
  const uint64_t max = 3u << 20;
  uint8_t *shadow = calloc(1, max), *buf = malloc(200000);
  uint64_t size = 0;
  int fd = ulfs_open(fs, "/r", O_CREAT | O_RDWR, 0644);
  CHECK(fd >= 0);
  for (int it = 0; it < 3000; it++) {
    uint32_t what = rnd() % 10;
    uint64_t off = rnd() % (max - 200000), len = 1 + rnd() % (what < 2 ? 200000 : 9000);
    if (what < 5) {
      for (uint64_t i = 0; i < len; i++) buf[i] = shadow[off + i] = (uint8_t)rnd();
      CHECK_RC(ulfs_pwrite(fs, fd, buf, len, off), len);
      if (off + len > size) size = off + len;
    } else if (what < 9) {
      ssize_t want = off >= size ? 0 : (ssize_t)(size - off < len ? size - off : len);
      CHECK_RC(ulfs_pread(fs, fd, buf, len, off), want);
      CHECK(memcmp(buf, shadow + off, (size_t)want) == 0);
    } else if (rnd() % 4 == 0) {
      uint64_t ns = rnd() % max;
      OK(ulfs_ftruncate(fs, fd, ns));
      if (ns < size) memset(shadow + ns, 0, size - ns);
      size = ns;
    } else {
      OK(ulfs_fsync(fs, fd));
    }
  }
  ulfs_counters c;
  ulfs_get_counters(fs, &c);
  CHECK(c.cache_evictions > 0 && c.cache_writebacks > 0);
  OK(ulfs_close(fs, fd));
  OK(ulfs_unmount(fs));
  t_fsck_clean(dev);
  fs = t_mount(dev, 1u << 20);
  fd = ulfs_open(fs, "/r", O_RDONLY, 0);
  ulfs_stat st;
  OK(ulfs_fstat(fs, fd, &st));
  CHECK(st.size == size);
  for (uint64_t off = 0; off < size; off += 200000) {
    ssize_t n = ulfs_pread(fs, fd, buf, 200000, off);
    CHECK(n > 0 && memcmp(buf, shadow + off, (size_t)n) == 0);
  }
  OK(ulfs_close(fs, fd));
  OK(ulfs_unmount(fs));
  ulfs_dev_close(dev);
  free(shadow);
  free(buf);
}

static void sequential_api(void) {
  ulfs_dev *dev = t_memdev(16u << 20, NULL);
  ulfs *fs = t_mount(dev, 1u << 20);
  int fd = ulfs_open(fs, "/s", O_CREAT | O_RDWR | O_APPEND, 0644);
  CHECK(fd >= 0);
  CHECK_RC(ulfs_write(fs, fd, "hello ", 6), 6);
  CHECK_RC(ulfs_lseek(fs, fd, 0, SEEK_SET), 0);
  CHECK_RC(ulfs_write(fs, fd, "world", 5), 5); /* O_APPEND ignores the offset */
  CHECK_RC(ulfs_lseek(fs, fd, 0, SEEK_SET), 0);
  char b[32] = {0};
  CHECK_RC(ulfs_read(fs, fd, b, sizeof b), 11);
  CHECK(memcmp(b, "hello world", 11) == 0);
  CHECK_RC(ulfs_read(fs, fd, b, sizeof b), 0);
  CHECK_RC(ulfs_lseek(fs, fd, -5, SEEK_END), 6);
  CHECK_RC(ulfs_lseek(fs, fd, -100, SEEK_CUR), -EINVAL);
  CHECK_RC(ulfs_read(fs, fd, b, 5), 5);
  CHECK(memcmp(b, "world", 5) == 0);
  /* grow by truncate: a hole of zeros; shrink then grow: the cut bytes read as zeros */
  OK(ulfs_ftruncate(fs, fd, 10000));
  CHECK_RC(ulfs_pread(fs, fd, b, 8, 9000), 8);
  CHECK(memcmp(b, "\0\0\0\0\0\0\0\0", 8) == 0);
  OK(ulfs_ftruncate(fs, fd, 3));
  OK(ulfs_ftruncate(fs, fd, 11));
  CHECK_RC(ulfs_pread(fs, fd, b, 11, 0), 11);
  CHECK(memcmp(b, "hel\0\0\0\0\0\0\0\0", 11) == 0);
  /* fallocate: size grows, content zero; KEEP_SIZE leaves the size */
  OK(ulfs_fallocate(fs, fd, 0, 0, 50000)); /* cached pages get their blocks at write-back */
  OK(ulfs_fsync(fs, fd));
  ulfs_stat st;
  OK(ulfs_fstat(fs, fd, &st));
  CHECK(st.size == 50000 && st.blocks == 13);
  OK(ulfs_fallocate(fs, fd, FALLOC_FL_KEEP_SIZE, 50000, 100000));
  OK(ulfs_fstat(fs, fd, &st));
  CHECK(st.size == 50000);
  CHECK_RC(ulfs_pread(fs, fd, b, 8, 40000), 8);
  CHECK(memcmp(b, "\0\0\0\0\0\0\0\0", 8) == 0);
  OK(ulfs_fadvise(fs, fd, 0, 0, POSIX_FADV_SEQUENTIAL));
  OK(ulfs_fadvise(fs, fd, 0, 0, POSIX_FADV_WILLNEED));
  OK(ulfs_fsync(fs, fd));
  OK(ulfs_fadvise(fs, fd, 0, 0, POSIX_FADV_DONTNEED));
  CHECK_RC(ulfs_fadvise(fs, fd, 0, 0, 99), -EINVAL);
  CHECK_RC(ulfs_pread(fs, fd, b, 3, 0), 3);
  CHECK(memcmp(b, "hel", 3) == 0);
  OK(ulfs_close(fs, fd));
  CHECK_RC(ulfs_close(fs, fd), -EBADF);
  fd = ulfs_open(fs, "/s", O_RDONLY, 0);
  CHECK_RC(ulfs_write(fs, fd, "x", 1), -EBADF);
  OK(ulfs_close(fs, fd));
  t_unmount_fsck_close(fs, dev);
}

static void writeback_errors(void) {
  ulfs_dev *dev = t_memdev(16u << 20, NULL);
  ulfs_mount_opts o = {.cache_bytes = 1u << 20, .flush_interval_ms = 20, .cache_policy = NULL};
  ulfs *fs;
  OK(ulfs_mount(dev, &o, &fs));
  t_write_file(fs, "/w", 1, 40000, 1);
  int fd = ulfs_open(fs, "/w", O_RDWR, 0);
  CHECK(fd >= 0);
  uint8_t b[8192];
  memset(b, 0xab, sizeof b);
  OK(ulfs_dev_mem_fail_writes(dev, -EIO));
  CHECK_RC(ulfs_pwrite(fs, fd, b, sizeof b, 4096), sizeof b);
  /* the flusher tries (and fails) in the background, every 20 ms: wait for its first attempt
   * (the bound of 10 minutes is only a hang guard; ctest's TIMEOUT is the same) */
  ulfs_counters c;
  for (int i = 0; i < 600000; i++) {
    ulfs_get_counters(fs, &c);
    if (c.cache_wb_errors > 0) break;
    usleep(1000);
  }
  CHECK(c.cache_wb_errors > 0);
  CHECK(c.cache_dirty_pages == 2); /* never marked clean */
  OK(ulfs_dev_mem_fail_writes(dev, 0));
  CHECK_RC(ulfs_fsync(fs, fd), -EIO); /* the flusher's error, reported once */
  OK(ulfs_fsync(fs, fd));
  ulfs_get_counters(fs, &c);
  CHECK(c.cache_dirty_pages == 0);
  OK(ulfs_close(fs, fd));
  OK(ulfs_unmount(fs));
  fs = t_mount(dev, 1u << 20);
  fd = ulfs_open(fs, "/w", O_RDONLY, 0);
  uint8_t r[8192];
  CHECK_RC(ulfs_pread(fs, fd, r, sizeof r, 4096), sizeof r);
  CHECK(memcmp(r, b, sizeof r) == 0); /* the retried write-back reached the device */
  OK(ulfs_close(fs, fd));
  t_unmount_fsck_close(fs, dev);
}

static void rewrite_own_file(int id, void *fs) {
  char p[32];
  snprintf(p, sizeof p, "/t/%d", id);
  t_rewrite_rounds(fs, p, (uint32_t)id * 100, 300000 + (uint64_t)id * 999, 5);
}

static void concurrent(void) {
  ulfs_dev *dev = t_memdev(64u << 20, NULL);
  ulfs_mount_opts o = {.cache_bytes = 512u << 10, .flush_interval_ms = 5, .cache_policy = NULL};
  ulfs *fs;
  OK(ulfs_mount(dev, &o, &fs));
  OK(ulfs_mkdir(fs, "/t", 0755));
  t_run_workers(4, rewrite_own_file, fs);
  t_unmount_fsck_close(fs, dev);
}

int main(void) {
  random_io_vs_shadow();
  sequential_api();
  writeback_errors();
  concurrent();
  printf("4 passed, 0 failed\n");
  return 0;
}
