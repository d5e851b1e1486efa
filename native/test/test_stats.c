/* test_stats -- counters while mounted and the clean stop (docs/ulfs.md "Counters while mounted",
 * "Clean stop"): a mount publishes its report to the stats file, ulfs-stat prints that report for
 * a device another process holds, ulfs_shutdown removes the file, refuses later calls but keeps
 * the counters, unlocks the device and leaves it as fsck finds unmounted cleanly; a device still
 * mounted is not.
 *   test_stats <scratch-dir> <path of ulfs-stat> */
#include "t.h"

/* Runs `ulfs-stat <image>` and returns its output (static buffer). */
static const char *run_stat(const char *tool, const char *image) {
  static char out[16384];
  char cmd[2 * ULFS_PATH_MAX];
  snprintf(cmd, sizeof cmd, "'%s' '%s' 2>&1", tool, image);
  FILE *p = popen(cmd, "r");
  CHECK(p != NULL);
  size_t n = fread(out, 1, sizeof out - 1, p);
  out[n] = 0;
  CHECK(pclose(p) == 0);
  return out;
}

static void published_while_mounted(const char *dir, const char *tool) {
  char image[ULFS_PATH_MAX], stats[ULFS_PATH_MAX + 8];
  snprintf(image, sizeof image, "%s/stats.img", dir);
  snprintf(stats, sizeof stats, "%s.stats", image);
  unlink(image);
  OK(ulfs_image_create(image, 64u << 20));
  ulfs_dev *dev;
  OK(ulfs_dev_open(image, ULFS_BACKEND_POSIX, ULFS_DEV_NO_DIRECT, &dev));
  OK(ulfs_mkfs(dev, NULL));
  ulfs_mount_opts o = {.flush_interval_ms = 3600000u, .stats_path = stats,
                       .stats_interval_ms = 3600000u}; /* only the explicit publications */
  ulfs *fs;
  OK(ulfs_mount(dev, &o, &fs));
  CHECK(access(stats, R_OK) == 0); /* published at mount */
  uint8_t buf[8192] = {1};
  for (int i = 0; i < 3; i++) {
    char path[32];
    snprintf(path, sizeof path, "/f%d", i);
    int fd = ulfs_open(fs, path, O_CREAT | O_RDWR, 0644);
    CHECK(fd >= 0);
    CHECK_RC(ulfs_write(fs, fd, buf, sizeof buf), sizeof buf);
    CHECK_RC(ulfs_pread(fs, fd, buf, sizeof buf, 0), sizeof buf);
    OK(ulfs_close(fs, fd));
  }
  OK(ulfs_stats_publish(fs));
  const char *out = run_stat(tool, image);
  CHECK(strstr(out, "mounted by another process") != NULL);
  CHECK(strstr(out, "# ulfs counters published by pid") != NULL);
  ulfs_statfs s;
  OK(ulfs_statfs_get(fs, &s));
  char want[96];
  snprintf(want, sizeof want, "inodes           %llu used", (unsigned long long)(s.inodes - s.inodes_free));
  CHECK(strstr(out, want) != NULL); /* the report is the current one: 1 root + 3 files */
  ulfs_counters c;
  ulfs_get_counters(fs, &c);
  snprintf(want, sizeof want, "%llu hits, %llu misses", (unsigned long long)c.cache_hits,
           (unsigned long long)c.cache_misses);
  CHECK(strstr(out, want) != NULL);
  CHECK(strstr(out, "hits/misses role user") != NULL);

  /* the clean stop: the file goes, calls are refused, counters stay */
  int fd = ulfs_open(fs, "/f0", O_RDONLY, 0);
  CHECK(fd >= 0);
  OK(ulfs_shutdown(fs));
  CHECK(access(stats, F_OK) != 0);
  CHECK_RC(ulfs_pread(fs, fd, buf, sizeof buf, 0), -ESHUTDOWN);
  CHECK_RC(ulfs_open(fs, "/g", O_CREAT | O_RDWR, 0644), -ESHUTDOWN);
  CHECK_RC(ulfs_stats_publish(fs), -ESHUTDOWN);
  ulfs_counters after;
  ulfs_get_counters(fs, &after);
  CHECK(after.cache_hits >= c.cache_hits);
  OK(ulfs_shutdown(fs)); /* again: nothing to do */
  ulfs_dev *again; /* the lock is released: the device opens while this one is still open */
  OK(ulfs_dev_open(image, ULFS_BACKEND_POSIX, ULFS_DEV_NO_DIRECT, &again));
  ulfs_dev_close(again);
  ulfs_fsck_report r;
  OK(ulfs_fsck(dev, 0, &r));
  CHECK(r.clean_unmount == 1 && r.replayed_txns == 0 && r.errors == 0);
  OK(ulfs_unmount(fs));
  ulfs_dev_close(dev);
  /* unmounted: ulfs-stat mounts the device itself */
  out = run_stat(tool, image);
  CHECK(strstr(out, "mounted by another process") == NULL);
  CHECK(strstr(out, "inodes           4 used") != NULL);
  unlink(image);
}

static void mounted_device_is_not_clean(void) {
  ulfs_dev *dev = t_memdev(16u << 20, NULL);
  ulfs *fs = t_mount(dev, 0);
  ulfs_fsck_report r;
  OK(ulfs_fsck(dev, 0, &r)); /* as after a crash: the superblock says mounted */
  CHECK(r.clean_unmount == 0);
  OK(ulfs_unmount(fs));
  OK(ulfs_fsck(dev, 0, &r));
  CHECK(r.clean_unmount == 1);
  ulfs_dev_close(dev);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: test_stats <scratch-dir> <ulfs-stat>\n");
    return 2;
  }
  published_while_mounted(argv[1], argv[2]);
  mounted_device_is_not_clean();
  printf("2 passed, 0 failed\n");
  return 0;
}
