/* test_journal -- journal replay at mount and by fsck, torn tails ignored, journal wrap with
 * the quarantine of freed directory blocks, orphan cleanup after a crash. */
#include "t.h"
#include "internal.h"

static ulfs_dev *dev;

/* Runs `op` with only its first journal write reaching the device (home writes lost). */
static void crash_after_journal_write(ulfs *fs, void (*op)(ulfs *)) {
  OK(ulfs_dev_mem_freeze_after(dev, 1));
  op(fs);
  ulfs_unmount(fs);
  OK(ulfs_dev_mem_freeze_after(dev, -1));
}

static void mk_b(ulfs *fs) { OK(ulfs_mkdir(fs, "/b", 0755)); }
static void mk_c(ulfs *fs) { OK(ulfs_mkdir(fs, "/c", 0755)); }

static void replay_and_torn_tail(void) {
  dev = t_memdev(16u << 20, NULL);
  ulfs *fs = t_mount(dev, 1u << 20);
  OK(ulfs_mkdir(fs, "/a", 0755));
  crash_after_journal_write(fs, mk_b);
  /* fsck without replay sees the pending transactions: both since the mount (replaying the
   * checkpointed first one again is harmless, J2) */
  ulfs_fsck_report r;
  OK(ulfs_fsck(dev, 0, &r));
  CHECK(r.replayed_txns == 2 && r.errors == 1);
  fs = t_mount(dev, 1u << 20);
  ulfs_counters c;
  ulfs_get_counters(fs, &c);
  CHECK(c.journal_replayed_txns == 2);
  ulfs_stat st;
  OK(ulfs_stat_path(fs, "/b", &st));
  uint64_t jpos = fs->jpos, jstart = fs->sb.journal_start;
  crash_after_journal_write(fs, mk_c);
  /* tear the last transaction: one flipped byte in a logged block image */
  uint8_t *blk = ulfs_alloc_aligned(4096);
  OK(ulfs_dev_read(dev, blk, (jstart + jpos + 1) * 4096, 4096));
  blk[100] ^= 0xff;
  OK(ulfs_dev_write(dev, blk, (jstart + jpos + 1) * 4096, 4096));
  free(blk);
  fs = t_mount(dev, 1u << 20);
  ulfs_get_counters(fs, &c);
  CHECK(c.journal_replayed_txns == 0);
  CHECK_RC(ulfs_stat_path(fs, "/c", &st), -ENOENT);
  OK(ulfs_stat_path(fs, "/b", &st));
  OK(ulfs_unmount(fs));
  t_fsck_clean(dev);
  /* fsck replays a pending transaction itself */
  fs = t_mount(dev, 1u << 20);
  crash_after_journal_write(fs, mk_c);
  OK(ulfs_fsck(dev, 1, &r));
  CHECK(r.replayed_txns == 1 && r.errors == 0);
  fs = t_mount(dev, 1u << 20);
  OK(ulfs_stat_path(fs, "/c", &st));
  OK(ulfs_unmount(fs));
  ulfs_dev_close(dev);
}

static void wrap_and_quarantine(void) {
  ulfs_mkfs_opts mo = {.inode_count = 0, .journal_blocks = 256};
  dev = t_memdev(16u << 20, &mo);
  ulfs *fs = t_mount(dev, 1u << 20);
  char p[64];
  /* directories created and removed over and over: their blocks are freed journaled metadata,
   * reused for file data only after a wrap */
  for (int i = 0; i < 400; i++) {
    snprintf(p, sizeof p, "/d%d", i % 7);
    OK(ulfs_mkdir(fs, p, 0755));
    char q[80];
    snprintf(q, sizeof q, "%s/f", p);
    t_write_file(fs, q, (uint32_t)i, 4096 * 3, 1);
    OK(ulfs_unlink(fs, q));
    OK(ulfs_rmdir(fs, p));
    snprintf(p, sizeof p, "/keep%d", i % 13);
    t_write_file(fs, p, (uint32_t)i, 4096 * 2 + 17, 1);
  }
  ulfs_counters c;
  ulfs_get_counters(fs, &c);
  CHECK(c.journal_wraps > 5);
  /* crash right now: replay covers the transactions since the last wrap */
  OK(ulfs_dev_mem_freeze_after(dev, 0));
  ulfs_unmount(fs);
  OK(ulfs_dev_mem_freeze_after(dev, -1));
  fs = t_mount(dev, 1u << 20);
  for (int i = 400 - 13; i < 400; i++) {
    snprintf(p, sizeof p, "/keep%d", i % 13);
    CHECK(t_file_matches(fs, p, (uint32_t)i, 4096 * 2 + 17));
  }
  t_unmount_fsck_close(fs, dev);
}

static void orphans_freed_after_crash(void) {
  dev = t_memdev(16u << 20, NULL);
  ulfs *fs = t_mount(dev, 1u << 20);
  t_write_file(fs, "/o", 1, 100000, 1);
  ulfs_statfs s0, s1;
  int fd = ulfs_open(fs, "/o", O_RDONLY, 0);
  CHECK(fd >= 0);
  OK(ulfs_unlink(fs, "/o"));
  CHECK(t_file_matches(fs, "/o", 1, 100000) == 0);
  uint8_t b[100];
  CHECK_RC(ulfs_pread(fs, fd, b, sizeof b, 50000), sizeof b); /* still readable while open */
  CHECK(b[0] == t_byte(1, 50000));
  OK(ulfs_dev_mem_freeze_after(dev, 0)); /* crash with the orphan open */
  ulfs_unmount(fs);
  OK(ulfs_dev_mem_freeze_after(dev, -1));
  ulfs_fsck_report r;
  OK(ulfs_fsck(dev, 1, &r));
  CHECK(r.errors == 0 && r.files == 1); /* the orphan is counted, not an error */
  fs = t_mount(dev, 1u << 20);
  OK(ulfs_statfs_get(fs, &s0));
  CHECK(s0.inodes - s0.inodes_free == 1); /* only the root remains */
  OK(ulfs_unmount(fs));
  OK(ulfs_fsck(dev, 1, &r));
  CHECK(r.errors == 0 && r.files == 0);
  fs = t_mount(dev, 1u << 20);
  OK(ulfs_statfs_get(fs, &s1));
  CHECK(s1.blocks_free == s0.blocks_free);
  OK(ulfs_unmount(fs));
  ulfs_dev_close(dev);
}

int main(void) {
  replay_and_torn_tail();
  wrap_and_quarantine();
  orphans_freed_after_crash();
  printf("3 passed, 0 failed\n");
  return 0;
}
