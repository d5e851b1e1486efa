/* test_durability -- hflush against hsync (fsync), and the group commit (docs/ulfs.md
 * "Durability").
 *  - hflush makes appended data visible to a second descriptor at once, and needs no device
 *    flush (the counters say so); its journal record is an inode record (the inode's slot and
 *    the appended bytes, not whole block images) of at most one new journal block for an
 *    append that fits one;
 *  - packing (format version 4): the inode records of successive small hflushes share journal
 *    blocks, 32 records of a 200-byte append in at most 5 blocks, and so do those of 8 threads
 *    hflushing their own files at once (160 records in at most 23 blocks), all replayed after
 *    the process dies;
 *  - the death of the process: the memory device stops applying writes after the k-th one
 *    (what a process killed at that instant leaves in the kernel), for every k over a run of
 *    appends each followed by hflush, with appends of 3,000 bytes and of 200 bytes (records
 *    that rewrite a journal block holding earlier ones). After remount fsck is clean and the
 *    file holds at least what the last returned hflush covered, and only the appended bytes;
 *  - I/O errors: for every k, the k-th device write of a run of small hflushed appends fails
 *    (EIO, or a short write storing a prefix of its sectors); then the process dies. What the
 *    hflushes that returned 0 covered survives, and fsck is clean;
 *  - power loss (the fault device's volatile writes): data only hflushed is lost when every
 *    unflushed write is dropped, data hsynced is not; with random subsets of the unflushed
 *    blocks (whole or torn) persisting, the file is always a prefix of what was written, at
 *    least up to the last hsync, and fsck is clean; both append sizes;
 *  - the flusher's device flush (which makes hflushed records power-loss safe) runs without the
 *    mount's lock: while the memory device holds that flush, another append and hflush
 *    complete, and stay pending for the next flush;
 *  - group commit: 8 threads append and fsync their own files at the same time; the memory
 *    device holds the first commit's flush until the 7 others wait behind it, so their syncs
 *    overlap by construction, and all 7 must share one commit. Then the same writers on the
 *    power-loss device without holding: nothing fsync'ed is lost, with fewer commits than syncs.
 */
#include <sched.h>
#include <time.h>

#include "t.h"
#include "internal.h" /* the device's flush counter, read without the mount's lock */

#define DEV_BYTES (16u << 20)
#define WRITERS 8
#define ROUNDS 20
#define CHUNK 3000 /* not a multiple of 4096: each hflush leaves a partial tail page */
#define SMALL 200  /* a WAL-sized append: several inode records fit one journal block */

static uint64_t chunk = CHUNK; /* the append size of kill_run, power_loss_run and error_run */

static ulfs_counters counters(ulfs *fs) {
  ulfs_counters c;
  ulfs_get_counters(fs, &c);
  return c;
}

static void append(ulfs *fs, int fd, uint32_t seed, uint64_t off, uint64_t n) {
  uint8_t buf[2 * BS];
  CHECK(n <= sizeof buf);
  for (uint64_t i = 0; i < n; i++) buf[i] = t_byte(seed, off + i);
  CHECK_RC(ulfs_pwrite(fs, fd, buf, n, off), n);
}

/* The file's size, and whether its bytes are the first `size` bytes of content seed. */
static uint64_t prefix_size(ulfs *fs, const char *path, uint32_t seed) {
  ulfs_stat st;
  OK(ulfs_stat_path(fs, path, &st));
  CHECK(t_file_matches(fs, path, seed, st.size));
  return st.size;
}

static void test_visible_without_flush(void) {
  ulfs_dev *dev = t_memdev(DEV_BYTES, NULL);
  ulfs *fs = t_mount(dev, 1u << 20);
  int w = ulfs_open(fs, "/wal", O_CREAT | O_WRONLY, 0644);
  CHECK(w >= 0);
  int r = ulfs_open(fs, "/wal", O_RDONLY, 0);
  CHECK(r >= 0);
  for (int i = 0; i < 10; i++) {
    append(fs, w, 1, (uint64_t)i * CHUNK, CHUNK);
    ulfs_counters before = counters(fs);
    OK(ulfs_hflush(fs, w));
    ulfs_counters after = counters(fs);
    CHECK(after.dev_flushes == before.dev_flushes);       /* no device flush on its path */
    CHECK(after.journal_commits == before.journal_commits + 1); /* one record */
    CHECK(after.journal_blocks <= before.journal_blocks + 1);   /* at most one new block */
    uint8_t buf[CHUNK];
    CHECK_RC(ulfs_pread(fs, r, buf, CHUNK, (uint64_t)i * CHUNK), CHUNK);
    for (int k = 0; k < CHUNK; k++) CHECK(buf[k] == t_byte(1, (uint64_t)i * CHUNK + k));
    ulfs_stat st;
    OK(ulfs_fstat(fs, r, &st));
    CHECK(st.size == (uint64_t)(i + 1) * CHUNK);
  }
  /* nothing new: an hflush writes nothing */
  ulfs_counters before = counters(fs);
  OK(ulfs_hflush(fs, w));
  CHECK(counters(fs).dev_writes == before.dev_writes);
  OK(ulfs_close(fs, r));
  OK(ulfs_close(fs, w));
  t_unmount_fsck_close(fs, dev);
}

static void test_records_share_blocks(void) {
  ulfs_dev *dev = t_memdev(DEV_BYTES, NULL);
  ulfs *fs = t_mount(dev, 1u << 20);
  int w = ulfs_open(fs, "/wal", O_CREAT | O_WRONLY, 0644);
  CHECK(w >= 0);
  append(fs, w, 4, 0, SMALL);
  OK(ulfs_fsync(fs, w)); /* the file's first block is allocated and committed */
  ulfs_counters before = counters(fs);
  for (int i = 1; i <= 32; i++) {
    append(fs, w, 4, (uint64_t)i * SMALL, SMALL);
    OK(ulfs_hflush(fs, w));
  }
  ulfs_counters after = counters(fs);
  CHECK(after.journal_commits == before.journal_commits + 32);
  CHECK(after.dev_flushes == before.dev_flushes);
  /* 576 bytes each (the 288-byte head, one range, 200 bytes, the trailer, rounded to 64) */
  CHECK(after.journal_blocks - before.journal_blocks <= 5);
  printf("32 hflushed 200-byte appends: %llu journal blocks\n",
         (unsigned long long)(after.journal_blocks - before.journal_blocks));
  OK(ulfs_close(fs, w));
  t_unmount_fsck_close(fs, dev);
}

/* Two files appended in turn, a block each time with hflush: the allocator puts each file's
 * block next to the other's, so every block is an extent of its own, and past 12 the file has
 * an extent overflow block. On a device that stops applying writes after k of them (k < 0:
 * never), or that loses power (`power`: volatile writes, the crash mode and seed), then after
 * remount both files hold at least what their last returned hflush covered. Returns the writes
 * issued; `blocks` (when not NULL) gets the journal blocks the last 12 hflushes began. */
#define TURNS 20
static ulfs_dev *volatile_dev(uint64_t seed);

/* Ends a crash run: a power cut of the volatile device `dev` (power), an unmount, which writes
 * nothing after the cut or once the memory device `mem` froze (k >= 0), the device restored and
 * checked; returns the file system mounted again with `cache` bytes of page cache. */
static ulfs *crash_and_remount(ulfs *fs, ulfs_dev *dev, ulfs_dev *mem, int power,
                               ulfs_crash_mode mode, int64_t k, uint64_t cache) {
  if (power) OK(ulfs_dev_fault_crash(dev, mode));
  (void)ulfs_unmount(fs); /* after a cut or a crash it writes nothing */
  if (power) OK(ulfs_dev_fault_power_on(dev));
  if (k >= 0) OK(ulfs_dev_mem_freeze_after(mem, -1));
  t_fsck_clean(dev);
  return t_mount(dev, cache);
}

static uint64_t chained_run(int64_t k, int power, ulfs_crash_mode mode, uint64_t seed,
                            uint64_t *blocks) {
  ulfs_dev *dev = power ? volatile_dev(seed) : t_memdev(DEV_BYTES, NULL);
  ulfs *fs = t_mount(dev, 1u << 20);
  const char *names[2] = {"/a", "/b"};
  int fds[2];
  for (int f = 0; f < 2; f++) {
    fds[f] = ulfs_open(fs, names[f], O_CREAT | O_WRONLY, 0644);
    CHECK(fds[f] >= 0);
  }
  uint64_t start = ulfs_dev_write_count(dev), acked[2] = {0, 0};
  if (k >= 0) OK(ulfs_dev_mem_freeze_after(dev, k));
  ulfs_counters before = counters(fs);
  for (int r = 0; r < TURNS; r++) {
    if (r == TURNS - 6) before = counters(fs);
    for (int f = 0; f < 2; f++) {
      for (uint64_t off = 0; off < 4096; off += CHUNK / 2) /* the append in two writes */
        append(fs, fds[f], 30 + (uint32_t)f, (uint64_t)r * 4096 + off,
               off + CHUNK / 2 <= 4096 ? CHUNK / 2 : 4096 - off);
      OK(ulfs_hflush(fs, fds[f]));
      if (k < 0 || ulfs_dev_write_count(dev) - start <= (uint64_t)k)
        acked[f] = (uint64_t)(r + 1) * 4096;
    }
  }
  if (blocks) *blocks = counters(fs).journal_blocks - before.journal_blocks;
  uint64_t issued = ulfs_dev_write_count(dev) - start;
  /* power and k >= 0 never meet here, so with k >= 0 `dev` is the memory device */
  fs = crash_and_remount(fs, dev, dev, power, mode, k, 1u << 20);
  for (int f = 0; f < 2; f++) {
    uint64_t size = prefix_size(fs, names[f], 30 + (uint32_t)f);
    CHECK(size >= (power ? 0 : acked[f]));
    CHECK(size <= TURNS * 4096);
  }
  if (k < 0 && !power) { /* the run made the overflow block it is about */
    ulfs_stat st;
    OK(ulfs_stat_path(fs, "/a", &st));
    superblock sb;
    OK(sb_read_best(dev, &sb));
    uint8_t *tb = ulfs_alloc_aligned(BS);
    OK(ulfs_dev_read(dev, tb, (sb.itable_start + (st.ino - 1) / INODES_PER_BLOCK) * BS, BS));
    uint32_t next, nchain;
    memcpy(&next, tb + ((st.ino - 1) % INODES_PER_BLOCK) * INODE_SIZE + 32, 4);
    memcpy(&nchain, tb + ((st.ino - 1) % INODES_PER_BLOCK) * INODE_SIZE + 36, 4);
    CHECK(next > INLINE_EXTENTS && nchain == 1);
    free(tb);
  }
  t_unmount_fsck_close(fs, dev);
  return issued;
}

/* Files with an extent overflow block keep the inode record (format 4: the overflow block's
 * changed bytes ride along) and stay recoverable at every write and after power loss. */
static void test_chained_files(void) {
  uint64_t blocks, writes = chained_run(-1, 0, ULFS_CRASH_DROP, 0, &blocks);
  /* 12 records of a 4 KB block each (and a few bytes of an overflow block): a whole-image
   * record took 6 blocks each (header, inode table, bitmap, overflow and data block, commit) */
  CHECK(blocks <= 12 * 2);
  for (uint64_t k = 0; k <= writes; k++) chained_run((int64_t)k, 0, ULFS_CRASH_DROP, 0, NULL);
  for (uint64_t seed = 1; seed <= 20; seed++) {
    chained_run(-1, 1, ULFS_CRASH_SUBSET, seed, NULL);
    chained_run(-1, 1, ULFS_CRASH_TORN, seed, NULL);
  }
  printf("two files past 12 extents: last 12 hflushes in %llu journal blocks; process death "
         "after each of %llu writes and 40 power losses: nothing lost\n",
         (unsigned long long)blocks, (unsigned long long)writes);
}

/* One run of appends with hflush on a fresh memory device that stops applying writes after
 * `k` of them; returns the number of writes the run issued. */
static uint64_t kill_run(int64_t k, int appends) {
  ulfs_dev *dev = t_memdev(DEV_BYTES, NULL);
  ulfs *fs = t_mount(dev, 1u << 20);
  int fd = ulfs_open(fs, "/wal", O_CREAT | O_WRONLY, 0644);
  CHECK(fd >= 0);
  uint64_t start = ulfs_dev_write_count(dev);
  if (k >= 0) OK(ulfs_dev_mem_freeze_after(dev, k));
  uint64_t acked = 0; /* size covered by the last hflush that returned before the cut */
  for (int i = 0; i < appends; i++) {
    append(fs, fd, 2, (uint64_t)i * chunk, chunk);
    OK(ulfs_hflush(fs, fd));
    if (k < 0 || ulfs_dev_write_count(dev) - start <= (uint64_t)k)
      acked = (uint64_t)(i + 1) * chunk;
  }
  uint64_t issued = ulfs_dev_write_count(dev) - start;
  if (k < 0) {
    OK(ulfs_close(fs, fd));
    t_unmount_fsck_close(fs, dev);
    return issued;
  }
  /* the process is gone: nothing the mount writes from here on reaches the device */
  (void)ulfs_unmount(fs);
  OK(ulfs_dev_mem_freeze_after(dev, -1));
  t_fsck_clean(dev); /* replays the journal */
  fs = t_mount(dev, 1u << 20);
  uint64_t size = prefix_size(fs, "/wal", 2);
  CHECK(size >= acked);
  CHECK(size <= (uint64_t)appends * chunk);
  t_unmount_fsck_close(fs, dev);
  return issued;
}

static void test_hflush_survives_process_death(void) {
  const int appends = 12;
  uint64_t sizes[2] = {CHUNK, SMALL};
  for (int s = 0; s < 2; s++) {
    chunk = sizes[s];
    uint64_t writes = kill_run(-1, appends);
    CHECK(writes >= (uint64_t)appends);
    for (uint64_t k = 0; k <= writes; k++) kill_run((int64_t)k, appends);
    printf("process death after each of %llu writes of %d hflushed %llu-byte appends: "
           "nothing lost\n", (unsigned long long)writes, appends, (unsigned long long)chunk);
  }
  chunk = CHUNK;
}

/* `appends` small appends each followed by hflush, the k-th device write failing with err;
 * the appends stop at the first failed hflush. Then the process dies (the device takes no
 * more writes): after remount the file is a prefix at least as long as the last successful
 * hflush covered. Returns the number of writes issued. */
static uint64_t error_run(uint64_t k, int err, int appends) {
  ulfs_dev *mem = t_memdev(DEV_BYTES, NULL), *dev;
  OK(ulfs_dev_fault_wrap(mem, k, &dev));
  ulfs *fs = t_mount(dev, 1u << 20);
  int fd = ulfs_open(fs, "/wal", O_CREAT | O_WRONLY, 0644);
  CHECK(fd >= 0);
  append(fs, fd, 5, 0, chunk);
  OK(ulfs_fsync(fs, fd));
  uint64_t start = ulfs_dev_write_count(dev), acked = chunk;
  if (k) OK(ulfs_dev_fault_inject(dev, ULFS_FAULT_WRITE, err, k, 0, 0));
  int i = 1;
  for (; i <= appends; i++) {
    append(fs, fd, 5, (uint64_t)i * chunk, chunk);
    if (ulfs_hflush(fs, fd) != 0) break;
    acked = (uint64_t)(i + 1) * chunk;
  }
  CHECK(k == 0 ? i > appends : i <= appends); /* every write of the run belongs to an hflush */
  uint64_t issued = ulfs_dev_write_count(dev) - start;
  OK(ulfs_dev_fault_crash(dev, ULFS_CRASH_DROP)); /* not volatile: every write stays */
  (void)ulfs_unmount(fs);
  OK(ulfs_dev_fault_inject(dev, ULFS_FAULT_WRITE, 0, 0, 0, 0));
  OK(ulfs_dev_fault_power_on(dev));
  t_fsck_clean(dev);
  fs = t_mount(dev, 1u << 20);
  uint64_t size = prefix_size(fs, "/wal", 5);
  CHECK(size >= acked);
  CHECK(size <= (uint64_t)(appends + 1) * chunk);
  t_unmount_fsck_close(fs, dev);
  return issued;
}

static void test_hflush_write_errors(void) {
  const int appends = 12, errs[2] = {-EIO, ULFS_FAULT_SHORT};
  chunk = SMALL;
  uint64_t writes = error_run(0, 0, appends);
  for (int e = 0; e < 2; e++)
    for (uint64_t k = 1; k <= writes; k++) error_run(k, errs[e], appends);
  printf("EIO and short write at each of %llu writes of %d hflushed appends: nothing lost\n",
         (unsigned long long)writes, appends);
  chunk = CHUNK;
}

/* Journal-only pages (PG_JLOG, journal.c J5): an hflush writes only its record and leaves the
 * pages dirty; they go home before every ORDERED record, before a journal wrap, when the file
 * has too many of them, and by fsync. One run mixes all of these on a 256-block journal (it
 * wraps several times) and a 48-page cache: appends of 4096, 200, 3000 and 5000 bytes to /wal,
 * each hflushed; every 13th step rewrites a range of /wal already hflushed (same bytes: a
 * logged page changed again) before the hflush; every 5th an fsync'ed append to /b and every
 * 7th a create (ORDERED records of other files); every 11th an fsync of /wal. The device
 * stops applying writes after the k-th (process death), or, with `power`, loses power at the
 * end (volatile writes, crash mode and seed). After remount fsck is clean, /wal and /b are
 * prefixes of their content at least as long as the last hflush (process death) or fsync
 * (power loss) that returned covered, and every create that returned is there. Returns the
 * writes issued; `wraps` (when not NULL) gets the journal wraps of the run. */
#define JSTEPS 300
static uint64_t jlog_run(int64_t k, int power, ulfs_crash_mode mode, uint64_t seed,
                         uint64_t *wraps) {
  ulfs_mkfs_opts mo = {.journal_blocks = 256};
  ulfs_dev *mem = t_memdev(DEV_BYTES, &mo), *dev = mem;
  if (power) {
    OK(ulfs_dev_fault_wrap(mem, seed, &dev));
    OK(ulfs_dev_fault_set_volatile(dev, 1));
  }
  ulfs *fs = t_mount(dev, 48 * BS);
  int w = ulfs_open(fs, "/wal", O_CREAT | O_WRONLY, 0644);
  int b = ulfs_open(fs, "/b", O_CREAT | O_WRONLY, 0644);
  CHECK(w >= 0 && b >= 0);
  static const uint64_t sizes[4] = {4096, 200, 3000, 5000};
  uint64_t start = ulfs_dev_write_count(dev), wsize = 0, bsize = 0;
  uint64_t wal_acked = 0, b_acked = 0, creates = 0;
  if (k >= 0) OK(ulfs_dev_mem_freeze_after(mem, k));
  ulfs_counters before = counters(fs);
  for (int i = 0; i < JSTEPS; i++) {
    bool sync_wal = i % 11 == 10;
    uint64_t n = sizes[i % 4];
    append(fs, w, 40, wsize, n);
    wsize += n;
    if (i % 13 == 12) append(fs, w, 40, wsize / 3, 1500);
    OK(sync_wal ? ulfs_fsync(fs, w) : ulfs_hflush(fs, w));
    bool in = k < 0 || ulfs_dev_write_count(dev) - start <= (uint64_t)k;
    if (in && (sync_wal || !power)) wal_acked = wsize;
    if (i % 5 == 4) {
      append(fs, b, 41, bsize, 1000);
      bsize += 1000;
      OK(ulfs_fsync(fs, b));
      if (k < 0 || ulfs_dev_write_count(dev) - start <= (uint64_t)k) b_acked = bsize;
    }
    if (i % 7 == 6) {
      char name[32];
      snprintf(name, sizeof name, "/n%d", i);
      int fd = ulfs_open(fs, name, O_CREAT | O_WRONLY, 0644);
      CHECK(fd >= 0);
      OK(ulfs_close(fs, fd));
      if (k < 0 || ulfs_dev_write_count(dev) - start <= (uint64_t)k) creates = (uint64_t)i + 1;
    }
  }
  if (wraps) *wraps = counters(fs).journal_wraps - before.journal_wraps;
  uint64_t issued = ulfs_dev_write_count(dev) - start;
  fs = crash_and_remount(fs, dev, mem, power, mode, k, 48 * BS);
  uint64_t size = prefix_size(fs, "/wal", 40);
  CHECK(size >= wal_acked && size <= wsize);
  size = prefix_size(fs, "/b", 41);
  CHECK(size >= b_acked && size <= bsize);
  for (uint64_t i = 6; i < creates; i += 7) {
    char name[32];
    ulfs_stat st;
    snprintf(name, sizeof name, "/n%llu", (unsigned long long)i);
    OK(ulfs_stat_path(fs, name, &st));
  }
  t_unmount_fsck_close(fs, dev);
  return issued;
}

static void test_journal_only_pages(void) {
  /* an hflush of a 4 KB append writes its record and nothing else */
  ulfs_dev *dev = t_memdev(DEV_BYTES, NULL);
  ulfs *fs = t_mount(dev, 1u << 20);
  int w = ulfs_open(fs, "/wal", O_CREAT | O_WRONLY, 0644);
  CHECK(w >= 0);
  for (int i = 0; i < 8; i++) {
    append(fs, w, 6, (uint64_t)i * BS, BS);
    ulfs_counters c0 = counters(fs);
    OK(ulfs_hflush(fs, w));
    ulfs_counters c1 = counters(fs);
    CHECK(c1.dev_writes == c0.dev_writes + 1 && c1.dev_flushes == c0.dev_flushes);
  }
  OK(ulfs_close(fs, w));
  t_unmount_fsck_close(fs, dev);

  uint64_t wraps, writes = jlog_run(-1, 0, ULFS_CRASH_DROP, 0, &wraps);
  CHECK(wraps >= 2);
  for (uint64_t k = 0; k <= writes; k++) jlog_run((int64_t)k, 0, ULFS_CRASH_DROP, 0, NULL);
  for (uint64_t seed = 1; seed <= 20; seed++) {
    jlog_run(-1, 1, ULFS_CRASH_DROP, seed, NULL);
    jlog_run(-1, 1, ULFS_CRASH_SUBSET, seed, NULL);
    jlog_run(-1, 1, ULFS_CRASH_TORN, seed, NULL);
  }
  printf("journal-only pages: process death after each of %llu writes (%llu journal wraps), "
         "60 power losses: nothing hflushed resp. fsync'ed lost\n",
         (unsigned long long)writes, (unsigned long long)wraps);
}

static ulfs_dev *volatile_dev(uint64_t seed) {
  ulfs_dev *mem = t_memdev(DEV_BYTES, NULL), *dev;
  OK(ulfs_dev_fault_wrap(mem, seed, &dev));
  OK(ulfs_dev_fault_set_volatile(dev, 1));
  return dev;
}

/* hsync `synced` appends, hflush `flushed` more, lose power; returns the size after remount. */
static uint64_t power_loss_run(uint64_t seed, ulfs_crash_mode mode, int synced, int flushed) {
  ulfs_dev *dev = volatile_dev(seed);
  ulfs *fs = t_mount(dev, 1u << 20);
  int fd = ulfs_open(fs, "/wal", O_CREAT | O_WRONLY, 0644);
  CHECK(fd >= 0);
  int i = 0;
  for (; i < synced; i++) {
    append(fs, fd, 3, (uint64_t)i * chunk, chunk);
    OK(ulfs_fsync(fs, fd));
  }
  for (; i < synced + flushed; i++) {
    append(fs, fd, 3, (uint64_t)i * chunk, chunk);
    OK(ulfs_hflush(fs, fd));
  }
  OK(ulfs_dev_fault_crash(dev, mode));
  (void)ulfs_unmount(fs);
  OK(ulfs_dev_fault_power_on(dev));
  t_fsck_clean(dev);
  fs = t_mount(dev, 1u << 20);
  uint64_t size = prefix_size(fs, "/wal", 3);
  CHECK(size >= (uint64_t)synced * chunk);
  CHECK(size <= (uint64_t)(synced + flushed) * chunk);
  t_unmount_fsck_close(fs, dev);
  return size;
}

static void test_power_loss(void) {
  uint64_t sizes[2] = {CHUNK, SMALL};
  for (int s = 0; s < 2; s++) {
    chunk = sizes[s];
    /* every unflushed write dropped: the hflushed appends are gone, the hsynced ones stay */
    CHECK(power_loss_run(1, ULFS_CRASH_DROP, 0, 5) == 0);
    CHECK(power_loss_run(1, ULFS_CRASH_DROP, 3, 5) == 3 * chunk);
    CHECK(power_loss_run(1, ULFS_CRASH_DROP, 8, 0) == 8 * chunk);
    /* random subsets, whole or torn: always a consistent prefix */
    int longer = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
      if (power_loss_run(seed, ULFS_CRASH_SUBSET, 3, 5) > 3 * chunk) longer++;
      power_loss_run(seed, ULFS_CRASH_TORN, 3, 5);
    }
    printf("power loss after hflush of %llu-byte appends: %d of 40 subset crashes kept "
           "hflushed appends\n", (unsigned long long)chunk, longer);
  }
  chunk = CHUNK;
}

typedef struct harden_arg {
  ulfs *fs;
  ulfs_dev *dev;
  int fd;
  pthread_barrier_t in_flush; /* crossed once the flusher waits in its held flush */
  _Atomic int done;
} harden_arg;

static void spin_until(_Atomic int *flag, _Atomic uint64_t *counter, uint64_t from, int secs) {
  struct timespec t0, now;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (flag ? !atomic_load(flag) : atomic_load(counter) == from) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    CHECK(now.tv_sec - t0.tv_sec < secs); /* hang guard only */
    sched_yield();
  }
}

/* Worker 0 holds the device's flushes, hflushes a record for the flusher to harden and waits
 * until the flusher is in its flush; worker 1 then appends and hflushes, which must complete
 * while the flush is still held. */
static void harden_worker(int id, void *p) {
  harden_arg *h = p;
  if (id == 0) {
    OK(ulfs_dev_mem_hold_flushes(h->dev, 1));
    uint64_t flushes = atomic_load(&h->dev->flushes);
    append(h->fs, h->fd, 4, 0, CHUNK);
    OK(ulfs_hflush(h->fs, h->fd));
    spin_until(NULL, &h->dev->flushes, flushes, 600);
    pthread_barrier_wait(&h->in_flush);
    spin_until(&h->done, NULL, 0, 60); /* fails when the hflush waits for the held flush */
    OK(ulfs_dev_mem_hold_flushes(h->dev, 0));
    return;
  }
  pthread_barrier_wait(&h->in_flush);
  append(h->fs, h->fd, 4, CHUNK, CHUNK);
  OK(ulfs_hflush(h->fs, h->fd));
  atomic_store(&h->done, 1);
}

static void test_hflush_during_flusher_flush(void) {
  ulfs_dev *dev = t_memdev(DEV_BYTES, NULL);
  ulfs_mount_opts o = {.cache_bytes = 1u << 20, .flush_interval_ms = 1};
  ulfs *fs = NULL;
  OK(ulfs_mount(dev, &o, &fs));
  harden_arg h = {.fs = fs, .dev = dev, .fd = ulfs_open(fs, "/wal", O_CREAT | O_WRONLY, 0644)};
  CHECK(h.fd >= 0);
  OK(ulfs_fsync(fs, h.fd));
  CHECK(pthread_barrier_init(&h.in_flush, NULL, 2) == 0);
  t_run_workers(2, harden_worker, &h);
  pthread_barrier_destroy(&h.in_flush);
  OK(ulfs_close(fs, h.fd));
  CHECK(prefix_size(fs, "/wal", 4) == 2 * CHUNK);
  t_unmount_fsck_close(fs, dev);
  printf("hflush during the flusher's held device flush: completed\n");
}

typedef struct group_arg {
  ulfs *fs;
  int round;
  pthread_barrier_t *synced; /* crossed by the writers after their fsync of a round */
} group_arg;

static void group_writer(int id, void *p) {
  group_arg *g = p;
  char path[32];
  snprintf(path, sizeof path, "/w%d", id);
  int fd = ulfs_open(g->fs, path, O_CREAT | O_WRONLY, 0644);
  CHECK(fd >= 0);
  for (int r = 0; r < ROUNDS; r++) {
    append(g->fs, fd, 10 + (uint32_t)id, (uint64_t)r * CHUNK, CHUNK);
    OK(ulfs_fsync(g->fs, fd));
    if (g->synced) pthread_barrier_wait(g->synced);
  }
  OK(ulfs_close(g->fs, fd));
}

typedef struct held_arg {
  group_arg g;
  ulfs_dev *dev;
  pthread_barrier_t round_start;
} held_arg;

/* Worker WRITERS is the conductor: per round it holds the device's flushes, lets the writers go,
 * waits until all but one sync wait behind the held commit, and releases the flushes. */
static void held_worker(int id, void *p) {
  held_arg *h = p;
  if (id == WRITERS) {
    for (int r = 0; r < ROUNDS; r++) {
      OK(ulfs_dev_mem_hold_flushes(h->dev, 1));
      pthread_barrier_wait(&h->round_start);
      struct timespec t0, now;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      while (counters(h->g.fs).sync_waiters < WRITERS - 1) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        CHECK(now.tv_sec - t0.tv_sec < 600); /* hang guard only */
        sched_yield();
      }
      OK(ulfs_dev_mem_hold_flushes(h->dev, 0));
      pthread_barrier_wait(h->g.synced);
    }
    return;
  }
  char path[32];
  snprintf(path, sizeof path, "/w%d", id);
  int fd = ulfs_open(h->g.fs, path, O_CREAT | O_WRONLY, 0644);
  CHECK(fd >= 0);
  for (int r = 0; r < ROUNDS; r++) {
    pthread_barrier_wait(&h->round_start);
    append(h->g.fs, fd, 10 + (uint32_t)id, (uint64_t)r * CHUNK, CHUNK);
    OK(ulfs_fsync(h->g.fs, fd));
    pthread_barrier_wait(h->g.synced);
  }
  OK(ulfs_close(h->g.fs, fd));
}

static void check_writers(ulfs *fs) {
  for (int id = 0; id < WRITERS; id++) {
    char path[32];
    snprintf(path, sizeof path, "/w%d", id);
    CHECK(t_file_matches(fs, path, 10 + (uint32_t)id, (uint64_t)ROUNDS * CHUNK));
  }
}

/* One of WRITERS threads: ROUNDS 200-byte appends to its own file, each followed by hflush. */
static void hflush_writer(int id, void *p) {
  group_arg *g = p;
  char path[32];
  snprintf(path, sizeof path, "/h%d", id);
  int fd = ulfs_open(g->fs, path, O_WRONLY, 0);
  CHECK(fd >= 0);
  for (int r = 0; r < ROUNDS; r++) {
    append(g->fs, fd, 20 + (uint32_t)id, (uint64_t)r * SMALL, SMALL);
    OK(ulfs_hflush(g->fs, fd));
  }
}

/* The records of 8 writers' concurrent hflushes share journal blocks whatever their order, and
 * all of them are replayed after the process dies (the files stay open: nothing is closed). */
static void test_hflush_writers_share_blocks(void) {
  ulfs_dev *dev = t_memdev(DEV_BYTES, NULL);
  ulfs *fs = t_mount(dev, 4u << 20);
  char path[32];
  for (int id = 0; id < WRITERS; id++) { /* created (committed) first: only hflushes follow */
    snprintf(path, sizeof path, "/h%d", id);
    t_write_file(fs, path, 0, 0, 1);
  }
  group_arg g = {.fs = fs};
  ulfs_counters before = counters(fs);
  t_run_workers(WRITERS, hflush_writer, &g);
  ulfs_counters after = counters(fs);
  uint64_t records = (uint64_t)WRITERS * ROUNDS;
  CHECK(after.journal_commits - before.journal_commits == records);
  CHECK(after.dev_flushes == before.dev_flushes);
  uint64_t blocks = after.journal_blocks - before.journal_blocks;
  CHECK(blocks <= (records * 576 + 4095) / 4096); /* 576 bytes each: 22.5 blocks */
  OK(ulfs_dev_mem_freeze_after(dev, 0)); /* the process dies */
  (void)ulfs_unmount(fs);
  OK(ulfs_dev_mem_freeze_after(dev, -1));
  t_fsck_clean(dev);
  fs = t_mount(dev, 1u << 20);
  for (int id = 0; id < WRITERS; id++) {
    snprintf(path, sizeof path, "/h%d", id);
    CHECK(t_file_matches(fs, path, 20 + (uint32_t)id, (uint64_t)ROUNDS * SMALL));
  }
  printf("%d writers' concurrent hflushes: %llu records in %llu journal blocks\n", WRITERS,
         (unsigned long long)(after.journal_commits - before.journal_commits),
         (unsigned long long)blocks);
  t_unmount_fsck_close(fs, dev);
}

static void test_group_commit_held(void) {
  ulfs_dev *dev = t_memdev(DEV_BYTES, NULL);
  ulfs *fs = t_mount(dev, 4u << 20);
  /* the files exist first, so a round's commits hold only the fsyncs */
  for (int id = 0; id < WRITERS; id++) {
    char path[32];
    snprintf(path, sizeof path, "/w%d", id);
    int fd = ulfs_open(fs, path, O_CREAT | O_WRONLY, 0644);
    CHECK(fd >= 0);
    OK(ulfs_close(fs, fd));
  }
  pthread_barrier_t synced;
  held_arg h = {.g = {.fs = fs, .synced = &synced}, .dev = dev};
  CHECK(pthread_barrier_init(&synced, NULL, WRITERS + 1) == 0);
  CHECK(pthread_barrier_init(&h.round_start, NULL, WRITERS + 1) == 0);
  ulfs_counters before = counters(fs);
  t_run_workers(WRITERS + 1, held_worker, &h);
  ulfs_counters after = counters(fs);
  pthread_barrier_destroy(&synced);
  pthread_barrier_destroy(&h.round_start);
  uint64_t syncs = after.syncs - before.syncs;
  uint64_t commits = after.journal_commits - before.journal_commits;
  printf("group commit, overlapping: %llu syncs, %llu journal commits, %llu device flushes\n",
         (unsigned long long)syncs, (unsigned long long)commits,
         (unsigned long long)(after.dev_flushes - before.dev_flushes));
  /* per round the first sync commits alone, the 7 that queued behind it share the next commit */
  CHECK(syncs == (uint64_t)WRITERS * ROUNDS);
  CHECK(commits == 2u * ROUNDS);
  check_writers(fs);
  OK(ulfs_unmount(fs));
  fs = t_mount(dev, 4u << 20);
  check_writers(fs);
  t_unmount_fsck_close(fs, dev);
}

static void test_group_commit_power_loss(void) {
  ulfs_dev *dev = volatile_dev(7);
  ulfs *fs = t_mount(dev, 4u << 20);
  group_arg g = {.fs = fs};
  ulfs_counters before = counters(fs);
  t_run_workers(WRITERS, group_writer, &g);
  ulfs_counters after = counters(fs);
  OK(ulfs_dev_fault_crash(dev, ULFS_CRASH_DROP));
  (void)ulfs_unmount(fs);
  OK(ulfs_dev_fault_power_on(dev));
  t_fsck_clean(dev);
  fs = t_mount(dev, 4u << 20);
  check_writers(fs);
  printf("group commit, free running: %llu syncs, %llu journal commits, %llu device flushes\n",
         (unsigned long long)(after.syncs - before.syncs),
         (unsigned long long)(after.journal_commits - before.journal_commits),
         (unsigned long long)(after.dev_flushes - before.dev_flushes));
  t_unmount_fsck_close(fs, dev);
}

int main(void) {
  test_visible_without_flush();
  test_records_share_blocks();
  test_hflush_survives_process_death();
  test_hflush_write_errors();
  test_chained_files();
  test_power_loss();
  test_journal_only_pages();
  test_hflush_during_flusher_flush();
  test_hflush_writers_share_blocks();
  test_group_commit_held();
  test_group_commit_power_loss();
  printf("test_durability: OK\n");
  return 0;
}
