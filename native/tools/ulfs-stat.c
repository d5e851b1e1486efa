/* ulfs-stat -- prints usage, cache and I/O counters of a device (ulfs_stats_write).
 *
 * An unmounted device is mounted here for the report (its counters then include the mount itself:
 * journal replay and superblock writes); with a policy name, with that page-cache policy. A
 * device another process has mounted is locked against a second mount: then the report that
 * process publishes while mounted (ulfs_mount_opts.stats_path, by default <device>.stats; -p
 * names another file) is printed instead. docs/ulfs.md "Counters while mounted". */
#include <errno.h>

#include "common.h"

static int print_published(const char *device, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "ulfs-stat: %s is mounted by another process, which publishes no counters "
                    "to %s (%s)\n", device, path, strerror(errno));
    return 1;
  }
  printf("device           %s (mounted by another process; its report from %s)\n", device, path);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, stdout);
  fclose(f);
  return 0;
}

int main(int argc, char **argv) {
  const char *published = NULL;
  int argi = 1;
  if (argc > 2 && !strcmp(argv[1], "-p")) {
    published = argv[2];
    argi = 3;
  }
  if (argc <= argi) {
    fprintf(stderr, "usage: ulfs-stat [-p <stats-file>] <device-or-image> [posix|io_uring] "
                    "[lru|lru-level|arc|lsm-arc]\n");
    return 2;
  }
  const char *device = argv[argi];
  ulfs_backend b = ULFS_BACKEND_POSIX;
  int ok = 1;
  if (argc > argi + 1) b = parse_backend(argv[argi + 1], &ok);
  if (!ok) {
    fprintf(stderr, "ulfs-stat: unknown backend %s\n", argv[argi + 1]);
    return 2;
  }
  ulfs_dev *dev;
  int rc = ulfs_dev_open(device, b, 0, &dev);
  if (rc == -EBUSY) {
    char path[ULFS_PATH_MAX];
    if (!published) {
      snprintf(path, sizeof path, "%s.stats", device);
      published = path;
    }
    return print_published(device, published);
  }
  if (rc) {
    fprintf(stderr, "ulfs-stat: %s: %s\n", device, strerror(-rc));
    return 1;
  }
  ulfs *fs;
  ulfs_mount_opts o = {.cache_policy = argc > argi + 2 ? argv[argi + 2] : NULL};
  if ((rc = ulfs_mount(dev, &o, &fs)) != 0) {
    fprintf(stderr, "ulfs-stat: mount %s: %s\n", device, strerror(-rc));
    ulfs_dev_close(dev);
    return 1;
  }
  printf("device           %s\n", device);
  rc = ulfs_stats_write(fs, stdout);
  int urc = ulfs_unmount(fs);
  ulfs_dev_close(dev);
  return rc || urc ? 1 : 0;
}
