/* ulfs-fsck -- verifies an unmounted device; replays the journal unless -n is given.
 * Exit status: 0 clean, 1 inconsistencies found, 2 usage error, 8 could not check. */
#include "common.h"

int main(int argc, char **argv) {
  int replay = 1, argi = 1;
  if (argc > 1 && !strcmp(argv[1], "-n")) {
    replay = 0;
    argi++;
  }
  if (argi >= argc) {
    fprintf(stderr, "usage: ulfs-fsck [-n] <device-or-image>\n  -n  do not replay the journal "
                    "(report pending transactions)\n");
    return 2;
  }
  ulfs_dev *dev;
  int rc = ulfs_dev_open(argv[argi], ULFS_BACKEND_POSIX, 0, &dev);
  if (rc) {
    fprintf(stderr, "ulfs-fsck: %s: %s\n", argv[argi], strerror(-rc));
    return 8;
  }
  ulfs_fsck_report r;
  rc = ulfs_fsck(dev, replay, &r);
  ulfs_dev_close(dev);
  if (rc) {
    fprintf(stderr, "ulfs-fsck: %s: %s\n", argv[argi], strerror(-rc));
    return 8;
  }
  printf("%s: %llu inodes (%llu dirs, %llu files), %llu blocks used, %llu journal txns %s, %s\n",
         argv[argi], (unsigned long long)r.inodes_used, (unsigned long long)r.dirs,
         (unsigned long long)r.files, (unsigned long long)r.blocks_used,
         (unsigned long long)r.replayed_txns, replay ? "replayed" : "pending",
         r.clean_unmount ? "unmounted cleanly" : "not unmounted cleanly");
  if (r.errors) {
    printf("%llu error(s); first: %s\n", (unsigned long long)r.errors, r.first_error);
    return 1;
  }
  printf("clean\n");
  return 0;
}
