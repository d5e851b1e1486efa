/* test_readahead -- the read path adapts to the access pattern (docs/ulfs.md "Readahead"): a
 * random pread miss reads exactly the pages it asks for, a sequential stream through one
 * descriptor gets a growing readahead window, a jump collapses it, and posix_fadvise overrides
 * the detection. Measured by the device's read counters and the cache's readahead counters. */
#include "t.h"

#define FILE_PAGES 1024u /* 4 MiB, half the cache: nothing is evicted */

typedef struct snap {
  uint64_t read_bytes, reads, ra_issued, ra_used;
} snap;

static snap take(ulfs *fs) {
  ulfs_counters c;
  ulfs_cache_stats st;
  ulfs_get_counters(fs, &c);
  ulfs_get_cache_stats(fs, &st);
  return (snap){c.dev_read_bytes, c.dev_reads, st.readahead_issued, st.readahead_used};
}

/* Device pages read since `before`. */
static uint64_t pages_read(ulfs *fs, snap before) {
  return (take(fs).read_bytes - before.read_bytes) / ULFS_BLOCK_SIZE;
}

static int open_cold(ulfs *fs) {
  OK(ulfs_drop_cache(fs, "/f"));
  int fd = ulfs_open(fs, "/f", O_RDONLY, 0);
  CHECK(fd >= 0);
  return fd;
}

/* Each page holds its own index, so a read proves it got the right page. */
static void check_page(const uint8_t *buf, uint64_t idx) {
  uint64_t got;
  memcpy(&got, buf, sizeof got);
  CHECK(got == idx);
}

static void random_reads_read_what_they_ask(ulfs *fs) {
  int fd = open_cold(fs);
  uint8_t buf[16 * ULFS_BLOCK_SIZE];
  snap s = take(fs);
  for (uint64_t i = 0; i < 64; i++) { /* 4 KB Gets, never adjacent to the previous one */
    uint64_t idx = (i * 97 + 5) % FILE_PAGES;
    CHECK_RC(ulfs_pread(fs, fd, buf, ULFS_BLOCK_SIZE, idx * ULFS_BLOCK_SIZE), ULFS_BLOCK_SIZE);
    check_page(buf, idx);
  }
  CHECK_RC(pages_read(fs, s), 64);
  CHECK_RC(take(fs).ra_issued - s.ra_issued, 0);
  /* a 64 KB block read (an HFile block) at a random place: its 16 pages, no more */
  OK(ulfs_drop_cache(fs, "/f"));
  s = take(fs);
  CHECK_RC(ulfs_pread(fs, fd, buf, sizeof buf, 700 * ULFS_BLOCK_SIZE), sizeof buf);
  CHECK_RC(pages_read(fs, s), 16);
  /* an unaligned 4 KB read spanning two pages, far from the last read: two pages */
  OK(ulfs_drop_cache(fs, "/f"));
  s = take(fs);
  CHECK_RC(ulfs_pread(fs, fd, buf, ULFS_BLOCK_SIZE, 300 * ULFS_BLOCK_SIZE + 100),
           ULFS_BLOCK_SIZE);
  CHECK_RC(pages_read(fs, s), 2);
  OK(ulfs_close(fs, fd));
}

static void sequential_stream_reads_ahead(ulfs *fs) {
  int fd = open_cold(fs);
  uint8_t buf[ULFS_BLOCK_SIZE];
  snap s = take(fs);
  for (uint64_t idx = 0; idx < 256; idx++) { /* 1 MiB in 4 KB reads */
    CHECK_RC(ulfs_pread(fs, fd, buf, sizeof buf, idx * ULFS_BLOCK_SIZE), sizeof buf);
    check_page(buf, idx);
  }
  snap e = take(fs);
  /* The window grows 8, 16, 32, 64 pages: the 256 reads miss only a handful of times. */
  CHECK(e.reads - s.reads <= 8);
  CHECK(e.ra_issued - s.ra_issued >= 200);
  CHECK(e.ra_used - s.ra_used >= 200);
  /* readahead stays within one window of the stream's end */
  CHECK(pages_read(fs, s) <= 256 + 64);
  /* a jump collapses the window: the next miss reads only its page */
  s = take(fs);
  CHECK_RC(ulfs_pread(fs, fd, buf, sizeof buf, 900 * ULFS_BLOCK_SIZE), sizeof buf);
  check_page(buf, 900);
  CHECK_RC(pages_read(fs, s), 1);
  /* HBase's block reads overlap by the next block's header: a read starting on the page where
   * the previous one ended continues the stream */
  uint8_t blk[2 * ULFS_BLOCK_SIZE];
  s = take(fs);
  CHECK_RC(ulfs_pread(fs, fd, blk, sizeof blk, 900 * ULFS_BLOCK_SIZE + 4000), sizeof blk);
  CHECK(pages_read(fs, s) > 2);
  OK(ulfs_close(fs, fd));
}

static void advice_overrides_detection(ulfs *fs) {
  uint8_t buf[ULFS_BLOCK_SIZE];
  int fd = open_cold(fs);
  OK(ulfs_fadvise(fs, fd, 0, 0, POSIX_FADV_SEQUENTIAL));
  snap s = take(fs);
  CHECK_RC(ulfs_pread(fs, fd, buf, sizeof buf, 500 * ULFS_BLOCK_SIZE), sizeof buf);
  CHECK_RC(pages_read(fs, s), 64); /* the full window from the first read on */
  OK(ulfs_close(fs, fd));
  fd = open_cold(fs);
  OK(ulfs_fadvise(fs, fd, 0, 0, POSIX_FADV_RANDOM));
  s = take(fs);
  for (uint64_t idx = 0; idx < 32; idx++)
    CHECK_RC(ulfs_pread(fs, fd, buf, sizeof buf, idx * ULFS_BLOCK_SIZE), sizeof buf);
  CHECK_RC(pages_read(fs, s), 32); /* sequential, but told it is random */
  OK(ulfs_close(fs, fd));
}

int main(void) {
  ulfs_dev *dev = t_memdev(64u << 20, NULL);
  ulfs *fs = t_mount(dev, 8u << 20);
  int fd = ulfs_open(fs, "/f", O_CREAT | O_WRONLY, 0644);
  CHECK(fd >= 0);
  uint8_t page[ULFS_BLOCK_SIZE] = {0};
  for (uint64_t idx = 0; idx < FILE_PAGES; idx++) {
    memcpy(page, &idx, sizeof idx);
    CHECK_RC(ulfs_write(fs, fd, page, sizeof page), sizeof page);
  }
  OK(ulfs_fsync(fs, fd)); /* clean pages, so drop_cache empties the cache of them */
  OK(ulfs_close(fs, fd));
  random_reads_read_what_they_ask(fs);
  sequential_stream_reads_ahead(fs);
  advice_overrides_detection(fs);
  OK(ulfs_unmount(fs));
  ulfs_dev_close(dev);
  printf("3 passed, 0 failed\n");
  return 0;
}
