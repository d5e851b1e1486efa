/* ulfs-mkfs -- formats a device or image file (creating the image when a size is given). */
#include "common.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: ulfs-mkfs <device-or-image> [size, e.g. 4G: create/grow image] "
                    "[inode-count]\n");
    return 2;
  }
  int rc;
  if (argc >= 3) {
    unsigned long long size = parse_size(argv[2]);
    if (!size || size % ULFS_BLOCK_SIZE) {
      fprintf(stderr, "ulfs-mkfs: bad size %s (a multiple of 4096)\n", argv[2]);
      return 2;
    }
    if ((rc = ulfs_image_create(argv[1], size)) != 0) {
      fprintf(stderr, "ulfs-mkfs: %s: %s\n", argv[1], strerror(-rc));
      return 1;
    }
  }
  ulfs_mkfs_opts o = {0, 0};
  if (argc >= 4) o.inode_count = strtoull(argv[3], NULL, 10);
  ulfs_dev *dev;
  if ((rc = ulfs_dev_open(argv[1], ULFS_BACKEND_POSIX, 0, &dev)) != 0) {
    fprintf(stderr, "ulfs-mkfs: %s: %s\n", argv[1], strerror(-rc));
    return 1;
  }
  rc = ulfs_mkfs(dev, &o);
  unsigned long long size = ulfs_dev_size(dev);
  ulfs_dev_close(dev);
  if (rc) {
    fprintf(stderr, "ulfs-mkfs: %s: %s\n", argv[1], strerror(-rc));
    return 1;
  }
  printf("ulfs-mkfs: formatted %s (%llu bytes)\n", argv[1], size);
  return 0;
}
