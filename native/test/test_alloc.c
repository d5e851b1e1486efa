/* test_alloc -- block and inode allocation: contiguous placement of sequential writes, extent
 * overflow blocks for fragmented files (remount and verify), free-space accounting across
 * unlink, ENOSPC for blocks (reported at fsync, data stays dirty) and for inodes. */
#include "t.h"
#include "internal.h"

static void sequential_is_contiguous(void) {
  ulfs_dev *dev = t_memdev(64u << 20, NULL);
  ulfs *fs = t_mount(dev, 4u << 20);
  t_write_file(fs, "/seq", 7, 8u << 20, 1);
  int err = 0;
  ulfs_stat st;
  OK(ulfs_stat_path(fs, "/seq", &st));
  inode_m *ip = iget(fs, st.ino, &err);
  CHECK(ip != NULL);
  CHECK(ip->next == 1); /* one extent for a file written front to back */
  CHECK(st.blocks == (8u << 20) / 4096);
  t_unmount_fsck_close(fs, dev);
}

static void fragmented_uses_overflow_blocks(void) {
  ulfs_dev *dev = t_memdev(64u << 20, NULL);
  ulfs *fs = t_mount(dev, 4u << 20);
  int a = ulfs_open(fs, "/a", O_CREAT | O_RDWR, 0644);
  int b = ulfs_open(fs, "/b", O_CREAT | O_RDWR, 0644);
  CHECK(a >= 0 && b >= 0);
  uint8_t blk[4096];
  const int n = 600; /* interleaved single-block write-backs: 600 extents per file */
  for (int i = 0; i < n; i++) {
    for (size_t k = 0; k < sizeof blk; k++) blk[k] = t_byte(1, (uint64_t)i * 4096 + k);
    CHECK_RC(ulfs_pwrite(fs, a, blk, sizeof blk, (uint64_t)i * 4096), 4096);
    OK(ulfs_fsync(fs, a));
    for (size_t k = 0; k < sizeof blk; k++) blk[k] = t_byte(2, (uint64_t)i * 4096 + k);
    CHECK_RC(ulfs_pwrite(fs, b, blk, sizeof blk, (uint64_t)i * 4096), 4096);
    OK(ulfs_fsync(fs, b));
  }
  int err = 0;
  ulfs_stat st;
  OK(ulfs_fstat(fs, a, &st));
  inode_m *ip = iget(fs, st.ino, &err);
  CHECK(ip->next == (uint32_t)n);
  CHECK(ip->nchain == (n - INLINE_EXTENTS + XBLK_EXTENTS - 1) / XBLK_EXTENTS);
  OK(ulfs_close(fs, a));
  OK(ulfs_close(fs, b));
  OK(ulfs_unmount(fs));
  t_fsck_clean(dev);
  fs = t_mount(dev, 1u << 20); /* a small cache: reads really come from the device */
  CHECK(t_file_matches(fs, "/a", 1, (uint64_t)n * 4096));
  CHECK(t_file_matches(fs, "/b", 2, (uint64_t)n * 4096));
  /* shrinking releases overflow blocks */
  OK(ulfs_truncate(fs, "/a", 4096 * 5));
  OK(ulfs_stat_path(fs, "/a", &st));
  ip = iget(fs, st.ino, &err);
  CHECK(ip->next == 5 && ip->nchain == 0);
  t_unmount_fsck_close(fs, dev);
}

static void free_space_accounting(void) {
  ulfs_dev *dev = t_memdev(32u << 20, NULL);
  ulfs *fs = t_mount(dev, 4u << 20);
  ulfs_statfs s0, s1, s2;
  t_write_file(fs, "/pre", 1, 0, 1); /* gives the root directory its first block */
  OK(ulfs_statfs_get(fs, &s0));
  t_write_file(fs, "/x", 3, 1u << 20, 1);
  OK(ulfs_statfs_get(fs, &s1));
  CHECK(s0.blocks_free - s1.blocks_free == 256);
  CHECK(s0.inodes_free - s1.inodes_free == 1);
  OK(ulfs_unlink(fs, "/x"));
  OK(ulfs_statfs_get(fs, &s2));
  CHECK(s2.blocks_free == s0.blocks_free);
  CHECK(s2.inodes_free == s0.inodes_free);
  OK(ulfs_unmount(fs));
  fs = t_mount(dev, 1u << 20);
  OK(ulfs_statfs_get(fs, &s2));
  CHECK(s2.blocks_free == s0.blocks_free);
  t_unmount_fsck_close(fs, dev);
}

static void enospc(void) {
  ulfs_dev *dev = t_memdev(8u << 20, NULL);
  ulfs *fs = t_mount(dev, 16u << 20);
  ulfs_statfs s;
  OK(ulfs_statfs_get(fs, &s));
  int fd = ulfs_open(fs, "/fill", O_CREAT | O_WRONLY, 0644);
  CHECK(fd >= 0);
  static uint8_t buf[1 << 16];
  memset(buf, 7, sizeof buf);
  uint64_t want = (s.blocks_free + 64) * 4096; /* more than fits */
  for (uint64_t off = 0; off < want; off += sizeof buf)
    CHECK_RC(ulfs_pwrite(fs, fd, buf, sizeof buf, off), sizeof buf); /* cached: delayed alloc */
  CHECK_RC(ulfs_fsync(fs, fd), -ENOSPC);
  ulfs_counters c;
  ulfs_get_counters(fs, &c);
  CHECK(c.cache_dirty_pages > 0); /* what did not fit stays dirty, never marked clean */
  OK(ulfs_ftruncate(fs, fd, 1u << 20));
  OK(ulfs_fsync(fs, fd));
  OK(ulfs_close(fs, fd));
  t_unmount_fsck_close(fs, dev);

  ulfs_mkfs_opts mo = {.inode_count = 1024, .journal_blocks = 0};
  dev = t_memdev(8u << 20, &mo);
  fs = t_mount(dev, 1u << 20);
  char p[32];
  int made = 0, rc = 0;
  for (;;) {
    snprintf(p, sizeof p, "/i%d", made);
    rc = ulfs_open(fs, p, O_CREAT | O_WRONLY, 0644);
    if (rc < 0) break;
    OK(ulfs_close(fs, rc));
    made++;
  }
  CHECK_RC(rc, -ENOSPC);
  CHECK(made == 1023); /* every inode but the root */
  t_unmount_fsck_close(fs, dev);
}

int main(void) {
  sequential_is_contiguous();
  fragmented_uses_overflow_blocks();
  free_space_accounting();
  enospc();
  printf("4 passed, 0 failed\n");
  return 0;
}
