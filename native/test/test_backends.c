/* test_backends -- the POSIX and io_uring backends (plain and SQPOLL) on image files in the
 * test data directory (argv[1]), and on /dev/shm (tmpfs refuses O_DIRECT: buffered fallback):
 * format, write, fsync, a second open refused while mounted, remount on another backend, read
 * back, fsck. */

#include "t.h"

static void round_trip(const char *img, ulfs_backend b, int flags, int expect_direct) {
  unlink(img);
  OK(ulfs_image_create(img, 32u << 20));
  ulfs_dev *dev;
  OK(ulfs_dev_open(img, b, flags, &dev));
  CHECK(ulfs_dev_backend(dev) == b);
  if (expect_direct >= 0) CHECK(ulfs_dev_is_direct(dev) == expect_direct);
  printf("%s: %s%s%s, %s I/O\n", img, ulfs_backend_name(b), flags & ULFS_DEV_SQPOLL ? "+sqpoll" : "",
         flags & ULFS_DEV_IOPOLL ? "+iopoll where the queue polls" : "",
         ulfs_dev_is_direct(dev) ? "O_DIRECT" : "buffered");
  OK(ulfs_mkfs(dev, NULL));
  ulfs *fs = t_mount(dev, 1u << 20);
  OK(ulfs_mkdir(fs, "/d", 0755));
  t_write_file(fs, "/d/f", 42, 3u << 20, 1);
  CHECK(t_file_matches(fs, "/d/f", 42, 3u << 20));
  ulfs_counters c;
  ulfs_get_counters(fs, &c);
  CHECK(c.dev_writes > 0 && c.dev_flushes > 0);
  /* one mount per device: a second open of the image, on either backend, is refused */
  ulfs_dev *second;
  CHECK_RC(ulfs_dev_open(img, ULFS_BACKEND_POSIX, 0, &second), -EBUSY);
  CHECK_RC(ulfs_dev_open(img, ULFS_BACKEND_IO_URING, 0, &second), -EBUSY);
  OK(ulfs_unmount(fs));
  ulfs_dev_close(dev);
  /* the same image through the other backend */
  ulfs_backend other = b == ULFS_BACKEND_POSIX ? ULFS_BACKEND_IO_URING : ULFS_BACKEND_POSIX;
  OK(ulfs_dev_open(img, other, 0, &dev));
  fs = t_mount(dev, 256u << 10);
  CHECK(t_file_matches(fs, "/d/f", 42, 3u << 20));
  t_unmount_fsck_close(fs, dev);
  unlink(img);
}

static void rewrite_own_file(int id, void *fs) {
  char p[32];
  snprintf(p, sizeof p, "/w%d", id);
  t_rewrite_rounds(fs, p, (uint32_t)id * 10, 1u << 20, 3);
}

/* Several threads through io_uring: each gets its own ring (and the flusher thread another). */
static void uring_threads(const char *img) {
  unlink(img);
  OK(ulfs_image_create(img, 64u << 20));
  ulfs_dev *dev;
  OK(ulfs_dev_open(img, ULFS_BACKEND_IO_URING, 0, &dev));
  OK(ulfs_mkfs(dev, NULL));
  ulfs_mount_opts o = {.cache_bytes = 1u << 20, .flush_interval_ms = 5, .cache_policy = NULL};
  ulfs *fs;
  OK(ulfs_mount(dev, &o, &fs));
  t_run_workers(4, rewrite_own_file, fs);
  t_unmount_fsck_close(fs, dev);
  unlink(img);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  char img[4096];
  snprintf(img, sizeof img, "%s/backend.img", dir);
  round_trip(img, ULFS_BACKEND_POSIX, 0, -1);
  round_trip(img, ULFS_BACKEND_POSIX, ULFS_DEV_NO_DIRECT, 0);
  round_trip(img, ULFS_BACKEND_IO_URING, 0, -1);
  round_trip(img, ULFS_BACKEND_IO_URING, ULFS_DEV_SQPOLL, -1);
  /* polled where the disk's queue polls, interrupt-driven (logged) where it does not */
  round_trip(img, ULFS_BACKEND_IO_URING, ULFS_DEV_IOPOLL, -1);
  round_trip(img, ULFS_BACKEND_IO_URING, ULFS_DEV_IOPOLL | ULFS_DEV_SQPOLL, -1);
  uring_threads(img);
  if (access("/dev/shm", W_OK) == 0) {
    snprintf(img, sizeof img, "/dev/shm/ulfs-test-%d.img", (int)getpid());
    /* tmpfs: O_DIRECT is refused by older kernels (logged buffered fallback), accepted by
     * newer ones; either way the round trip must hold */
    round_trip(img, ULFS_BACKEND_POSIX, 0, -1);
  }
  ulfs_dev *dev;
  CHECK_RC(ulfs_dev_open("/nonexistent/ulfs.img", ULFS_BACKEND_POSIX, 0, &dev), -ENOENT);
  printf("1 passed, 0 failed\n");
  return 0;
}
