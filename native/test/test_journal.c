/* test_journal -- the records' CRC32C (the CPU's and the table's), journal replay at mount and
 * by fsck, torn tails ignored, journal wrap with the quarantine of freed directory blocks,
 * orphan cleanup after a crash. */
#include "t.h"
#include "internal.h"

static ulfs_dev *dev;

/* Runs `op` with only its first journal write reaching the device (home writes lost). */
static void crash_after_journal_write(ulfs *fs, void (*op)(ulfs *)) {
  OK(ulfs_dev_mem_freeze_after(dev, op ? 1 : 0));
  if (op) op(fs);
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
  uint64_t jpos = fs->jbyte / BS, jstart = fs->sb.journal_start;
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

/* ulfs_crc32c (the crc32 instruction where the CPU has it) and the portable table give the
 * standard check value and agree on every length and alignment, also when chained. */
static void crc32c_implementations_agree(void) {
  CHECK(ulfs_crc32c(0, "123456789", 9) == 0xE3069283u);
  CHECK(ulfs_crc32c_table(0, "123456789", 9) == 0xE3069283u);
  uint8_t buf[300];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 131 + 7);
  for (size_t off = 0; off < 9; off++)
    for (size_t len = 0; off + len <= sizeof buf; len += 1 + len / 4) {
      uint32_t want = ulfs_crc32c_table(0, buf + off, len);
      CHECK(ulfs_crc32c(0, buf + off, len) == want);
      size_t half = len / 2;
      CHECK(ulfs_crc32c(ulfs_crc32c(0, buf + off, half), buf + off + half, len - half) == want);
    }
}

/* A fresh memory device (in `dev`) mounted, with file `path` open as descriptor 0 holding
 * "abc", fsync'ed. */
static ulfs *new_image_with_abc(const char *path) {
  dev = t_memdev(8u << 20, NULL);
  ulfs *fs = t_mount(dev, 1u << 20);
  CHECK(ulfs_open(fs, path, O_CREAT | O_RDWR, 0644) == 0);
  CHECK_RC(ulfs_pwrite(fs, 0, "abc", 3, 0), 3);
  OK(ulfs_fsync(fs, 0));
  return fs;
}

/* A version 2 image (written by the previous release) is checked by fsck as it is, and mounted:
 * the mount replays its journal and rewrites the superblock as the current version, so an
 * older reader refuses the inode records that follow. Versions out of range are refused. */
static void version_2_image_upgraded_at_mount(void) {
  ulfs *fs = new_image_with_abc("/f");
  OK(ulfs_close(fs, 0));
  OK(ulfs_unmount(fs));
  superblock sb;
  OK(sb_read_best(dev, &sb));
  uint32_t refused[2] = {1, ULFS_VERSION + 1}, v2 = 2;
  for (int i = 0; i < 3; i++) {
    sb.version = i < 2 ? refused[i] : v2; /* both slots: no older generation to fall back to */
    OK(sb_write(dev, &sb));
    OK(sb_write(dev, &sb));
    if (i == 2) break;
    ulfs_mount_opts o = {.cache_bytes = 1u << 20, .flush_interval_ms = 3600000u};
    ulfs *m = NULL;
    CHECK_RC(ulfs_mount(dev, &o, &m), -EPROTONOSUPPORT);
  }
  t_fsck_clean(dev);
  OK(sb_read_best(dev, &sb));
  CHECK(sb.version == 2);
  fs = t_mount(dev, 1u << 20);
  OK(ulfs_unmount(fs));
  OK(sb_read_best(dev, &sb));
  CHECK(sb.version == ULFS_VERSION);
  fs = t_mount(dev, 1u << 20);
  char buf[4] = {0};
  int fd = ulfs_open(fs, "/f", O_RDONLY, 0);
  CHECK(fd >= 0);
  CHECK_RC(ulfs_pread(fs, fd, buf, 3, 0), 3);
  CHECK(memcmp(buf, "abc", 3) == 0);
  OK(ulfs_close(fs, fd));
  OK(ulfs_unmount(fs));
  ulfs_dev_close(dev);
}

/* A version 3 image whose journal still holds an inode record (the process died after an
 * hflush) is replayed by this version and upgraded. Version 3 counted an inode record's length
 * in blocks and ended it at a block's end (version 4: 64-byte units, J7): the record this
 * version wrote is rewritten here in that layout, and the superblock marked version 3. */
static void version_3_record_replayed(void) {
  ulfs *fs = new_image_with_abc("/w");
  int fd = 0;
  uint64_t at = (fs->sb.journal_start + fs->jbyte / BS) * BS; /* after a block record */
  CHECK(fs->jbyte % BS == 0);
  CHECK_RC(ulfs_pwrite(fs, fd, "defgh", 5, 3), 5);
  OK(ulfs_hflush(fs, fd));
  crash_after_journal_write(fs, NULL);
  uint8_t *rec = ulfs_alloc_aligned(BS);
  OK(ulfs_dev_read(dev, rec, at, BS));
  uint32_t units, nd;
  memcpy(&units, rec + 20, 4);
  memcpy(&nd, rec + 16, 4);
  CHECK(units * IREC_ALIGN < BS);
  uint8_t trailer[12];
  memcpy(trailer, rec + units * IREC_ALIGN - 16, 12);
  memset(rec + units * IREC_ALIGN - 16, 0, 16);
  uint32_t one = 1;
  memcpy(rec + 20, &one, 4);
  memcpy(rec + BS - 16, trailer, 12);
  uint32_t crc = ulfs_crc32c(0, rec, BS - 4);
  memcpy(rec + BS - 4, &crc, 4);
  OK(ulfs_dev_write(dev, rec, at, BS));
  free(rec);
  superblock sb;
  OK(sb_read_best(dev, &sb));
  sb.version = 3;
  OK(sb_write(dev, &sb));
  ulfs_fsck_report r;
  OK(ulfs_fsck(dev, 0, &r));
  CHECK(r.replayed_txns == 3); /* the create's and the fsync's records, the inode record */
  fs = t_mount(dev, 1u << 20);
  OK(sb_read_best(dev, &sb));
  CHECK(sb.version == ULFS_VERSION);
  char buf[9] = {0};
  fd = ulfs_open(fs, "/w", O_RDONLY, 0);
  CHECK(fd >= 0);
  CHECK_RC(ulfs_pread(fs, fd, buf, sizeof buf, 0), 8);
  CHECK(memcmp(buf, "abcdefgh", 8) == 0);
  OK(ulfs_close(fs, fd));
  t_unmount_fsck_close(fs, dev);
}

int main(void) {
  crc32c_implementations_agree();
  version_2_image_upgraded_at_mount();
  version_3_record_replayed();
  replay_and_torn_tail();
  wrap_and_quarantine();
  orphans_freed_after_crash();
  printf("6 passed, 0 failed\n");
  return 0;
}
