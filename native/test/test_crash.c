/* test_crash -- crash sweep over a sequence of metadata and fsync'ed data operations.
 * For every k, power is lost after the k-th write issued by the sequence. Then: fsck (with
 * journal replay) must be clean, and the remounted tree must equal the model after the
 * operations that had returned, or after one more (the operation in flight is atomic: all of it
 * or nothing). Two device models:
 *  - the memory device that stops applying writes (writes are durable on return, in order); at
 *    every RECOVERY_EVERY-th crash point the recovery (journal replay and superblock update at
 *    mount) is itself crashed after each of its writes, and the next recovery must reach the
 *    same result;
 *  - the fault device's power-loss model (dev_fault.c): writes since the last device flush are
 *    volatile, and at the crash they are all dropped, or a random subset of their blocks
 *    persists in random order, or that with torn 512-byte sectors; SEEDS seeds per random mode
 *    (ULFS_CRASH_SEEDS=N for more), and each crash point draws its own device seed from it. */
#include "t.h"
#include "internal.h" /* ulfs_dev_read/ulfs_dev_write: raw image access */

#define DEV_BYTES (16u << 20)
#define TREE_CAP 65536
#define SEEDS 1
#define RECOVERY_EVERY 25 /* bounds the run time: each costs ~(replayed blocks) recoveries */
#define LONGNAME "a-rather-long-file-name-for-the-directory"

/* One operation = one call the file system promises to make atomic and durable on return. */
typedef enum { MKDIR, RMDIR, CREATE, WRITE_SYNC, APPEND_SYNC, RENAME, UNLINK, TRUNCATE,
               FALLOCATE } kind;
typedef struct { kind k; const char *a, *b; uint64_t n; uint32_t seed; } op;

static op ops[128];
static int nops;
static char names[40][80];

static void add(kind k, const char *a, const char *b, uint64_t n, uint32_t seed) {
  ops[nops++] = (op){k, a, b, n, seed};
}

static void build_ops(void) {
  add(MKDIR, "/a", NULL, 0, 0);
  add(CREATE, "/a/f1", NULL, 0, 0);
  add(WRITE_SYNC, "/a/f1", NULL, 10000, 1);
  add(CREATE, "/a/f2", NULL, 0, 0);
  add(WRITE_SYNC, "/a/f2", NULL, 70000, 2);
  add(RENAME, "/a/f1", "/a/g1", 0, 0);
  add(TRUNCATE, "/a/f2", NULL, 5000, 0);
  add(MKDIR, "/a/b", NULL, 0, 0);
  add(RENAME, "/a/b", "/c", 0, 0);
  add(UNLINK, "/a/g1", NULL, 0, 0);
  add(RENAME, "/a/f2", "/c/f2", 0, 0);
  add(CREATE, "/c/big", NULL, 0, 0);
  add(WRITE_SYNC, "/c/big", NULL, 300000, 3); /* > 12 blocks: several extents possible */
  for (int k = 0; k < 40; k++) { /* enough names to need a second directory block */
    snprintf(names[k], sizeof names[k], "/c/%s-%02d", LONGNAME, k);
    add(CREATE, names[k], NULL, 0, 0);
  }
  add(RENAME, "/c/big", "/c/f2", 0, 0); /* replaces a file */
  add(MKDIR, "/d", NULL, 0, 0);
  add(RMDIR, "/d", NULL, 0, 0);
  add(APPEND_SYNC, "/c/f2", NULL, 3000, 0);
  add(TRUNCATE, "/c/f2", NULL, 123456, 0);
  for (int k = 0; k < 40; k += 2) add(UNLINK, names[k], NULL, 0, 0);
  add(CREATE, "/e", NULL, 0, 0);
  add(WRITE_SYNC, "/e", NULL, 50000, 4);
  add(FALLOCATE, "/e", NULL, 100000, 0);
  add(RENAME, "/c", "/a/c", 0, 0);
  add(UNLINK, "/e", NULL, 0, 0);
  add(TRUNCATE, "/a/c/f2", NULL, 0, 0);
  add(WRITE_SYNC, "/a/c/f2", NULL, 8000, 5);
}

static void run_op(ulfs *fs, int i) {
  const op *o = &ops[i];
  int fd;
  uint8_t b[3000];
  switch (o->k) {
    case MKDIR: OK(ulfs_mkdir(fs, o->a, 0755)); break;
    case RMDIR: OK(ulfs_rmdir(fs, o->a)); break;
    case CREATE:
      fd = ulfs_open(fs, o->a, O_CREAT | O_EXCL | O_WRONLY, 0644);
      CHECK(fd >= 0);
      OK(ulfs_close(fs, fd));
      break;
    case WRITE_SYNC: t_write_file(fs, o->a, o->seed, o->n, 1); break; /* file is empty */
    case APPEND_SYNC:
      fd = ulfs_open(fs, o->a, O_WRONLY | O_APPEND, 0);
      CHECK(fd >= 0);
      memset(b, 0x5a, sizeof b);
      CHECK_RC(ulfs_write(fs, fd, b, o->n), o->n);
      OK(ulfs_fsync(fs, fd));
      OK(ulfs_close(fs, fd));
      break;
    case RENAME: OK(ulfs_rename(fs, o->a, o->b)); break;
    case UNLINK: OK(ulfs_unlink(fs, o->a)); break;
    case TRUNCATE: OK(ulfs_truncate(fs, o->a, o->n)); break;
    case FALLOCATE:
      fd = ulfs_open(fs, o->a, O_RDWR, 0);
      CHECK(fd >= 0);
      OK(ulfs_fallocate(fs, fd, 0, 40000, o->n));
      OK(ulfs_close(fs, fd));
      break;
  }
}

/* A fresh, formatted device of the given model: the memory device itself (model < 0) or the
 * memory device behind a fault device with volatile writes. */
static ulfs_dev *new_dev(int model, uint64_t seed) {
  ulfs_dev *mem = t_memdev(DEV_BYTES, NULL);
  if (model < 0) return mem;
  ulfs_dev *dev;
  OK(ulfs_dev_fault_wrap(mem, seed, &dev));
  OK(ulfs_dev_fault_set_volatile(dev, 1));
  return dev;
}

static void crash_after(ulfs_dev *dev, int model, uint64_t k) {
  if (model < 0) OK(ulfs_dev_mem_freeze_after(dev, (int64_t)k));
  else OK(ulfs_dev_fault_crash_after(dev, k, (ulfs_crash_mode)model));
}

static void power_on(ulfs_dev *dev, int model) {
  if (model < 0) OK(ulfs_dev_mem_freeze_after(dev, -1));
  else OK(ulfs_dev_fault_power_on(dev));
}

static char model_tree[129][TREE_CAP];
static ulfs_fault_stats fault_total; /* what the power-loss crashes did, over all sweeps */

/* One sweep over every crash point; returns the number of recoveries checked. */
static uint64_t sweep(int model, uint64_t seed, uint64_t total, int *inflight) {
  const int NOPS = nops;
  static char got[TREE_CAP];
  uint64_t recovery_points = 0;
  uint8_t *image = aligned_alloc(4096, DEV_BYTES);
  CHECK(image != NULL);
  for (uint64_t k = 0; k <= total; k++) {
    ulfs_dev *dev = new_dev(model, seed * 1000003 + k);
    ulfs *fs = t_mount(dev, 1 << 20);
    uint64_t base = ulfs_dev_write_count(dev);
    crash_after(dev, model, k);
    int completed = 0;
    for (int i = 0; i < NOPS; i++) {
      run_op(fs, i);
      if (ulfs_dev_write_count(dev) - base <= k) completed = i + 1;
    }
    ulfs_unmount(fs); /* its writes are dropped: the power is off */
    if (model >= 0) OK(ulfs_dev_fault_crash(dev, (ulfs_crash_mode)model)); /* k = total */
    power_on(dev, model);
    /* With the memory device, at every RECOVERY_EVERY-th crash point, also crash during the
     * recovery itself (journal replay and the superblock update at mount) after each of its
     * writes: replay must be idempotent. */
    int nested = model < 0 && k % RECOVERY_EVERY == 0;
    uint64_t recovery_writes = 0;
    if (nested) {
      OK(ulfs_dev_read(dev, image, 0, DEV_BYTES));
      uint64_t w0 = ulfs_dev_write_count(dev);
      fs = t_mount(dev, 1 << 20);
      recovery_writes = ulfs_dev_write_count(dev) - w0;
      ulfs_dev_mem_freeze_after(dev, 0);
      ulfs_unmount(fs);
      OK(ulfs_dev_mem_freeze_after(dev, -1));
    }
    for (uint64_t j = 0; j <= recovery_writes; j++) {
      if (nested) {
        OK(ulfs_dev_write(dev, image, 0, DEV_BYTES)); /* back to the crashed image */
        if (j < recovery_writes) {
          OK(ulfs_dev_mem_freeze_after(dev, (int64_t)j));
          /* This mount stands for a process that dies after j writes. It keeps running on a
           * device that silently drops its later writes, so it may read back a mixture no real
           * device would show and fail: only the next, real recovery is judged. */
          ulfs_mount_opts o = {.cache_bytes = 1 << 20, .flush_interval_ms = 3600000u,
                               .cache_policy = NULL};
          if (ulfs_mount(dev, &o, &fs) == 0) ulfs_unmount(fs);
          OK(ulfs_dev_mem_freeze_after(dev, -1));
        }
      }
      fs = t_mount(dev, 1 << 20); /* replays the journal */
      got[0] = 0;
      t_tree(fs, "/", got, TREE_CAP);
      int ok = strcmp(got, model_tree[completed]) == 0;
      if (!ok && completed < NOPS && strcmp(got, model_tree[completed + 1]) == 0) {
        ok = 1;
        (*inflight)++;
      }
      if (!ok) {
        fprintf(stderr, "model %d seed %llu k=%llu j=%llu: after %d completed ops the tree is"
                "\n%s\nexpected\n%s\n", model, (unsigned long long)seed,
                (unsigned long long)k, (unsigned long long)j, completed, got,
                model_tree[completed]);
        exit(1);
      }
      OK(ulfs_unmount(fs));
      t_fsck_clean(dev);
      recovery_points++;
    }
    if (model >= 0) {
      ulfs_fault_stats st;
      OK(ulfs_dev_fault_get_stats(dev, &st));
      fault_total.crashes += st.crashes;
      fault_total.blocks_lost += st.blocks_lost;
      fault_total.blocks_persisted += st.blocks_persisted;
      fault_total.blocks_torn += st.blocks_torn;
    }
    ulfs_dev_close(dev);
  }
  free(image);
  return recovery_points;
}

int main(void) {
  /* The model: the tree after each prefix of the sequence, from an uninterrupted run. */
  build_ops();
  const int NOPS = nops;
  ulfs_dev *dev = t_memdev(DEV_BYTES, NULL);
  ulfs *fs = t_mount(dev, 1 << 20);
  uint64_t base = ulfs_dev_write_count(dev);
  model_tree[0][0] = 0;
  t_tree(fs, "/", model_tree[0], TREE_CAP);
  for (int i = 0; i < NOPS; i++) {
    run_op(fs, i);
    model_tree[i + 1][0] = 0;
    t_tree(fs, "/", model_tree[i + 1], TREE_CAP);
  }
  uint64_t total = ulfs_dev_write_count(dev) - base;
  t_unmount_fsck_close(fs, dev);
  printf("crash sweep: %d operations issue %llu device writes\n", NOPS,
         (unsigned long long)total);

  static const char *names_of[] = {"drop", "subset", "torn"};
  int inflight = 0;
  uint64_t n = sweep(-1, 0, total, &inflight);
  printf("crash sweep, stopped memory device: %llu crash points, %llu recoveries checked (%d "
         "showed the in-flight op committed)\n", (unsigned long long)total + 1,
         (unsigned long long)n, inflight);
  /* ULFS_CRASH_SEEDS=N runs N seeds per random mode (a longer run than the default suite's). */
  const char *env = getenv("ULFS_CRASH_SEEDS");
  uint64_t seeds = env && atoi(env) > 0 ? (uint64_t)atoi(env) : SEEDS;
  for (int model = ULFS_CRASH_DROP; model <= ULFS_CRASH_TORN; model++) {
    for (uint64_t seed = 1; seed <= (model == ULFS_CRASH_DROP ? 1 : seeds); seed++) {
      inflight = 0;
      n = sweep(model, seed, total, &inflight);
      printf("crash sweep, power loss (%s, seed %llu): %llu crash points checked (%d showed "
             "the in-flight op committed)\n", names_of[model], (unsigned long long)seed,
             (unsigned long long)n, inflight);
    }
  }
  printf("power-loss crashes: %llu, volatile blocks lost %llu, persisted %llu, torn %llu\n",
         (unsigned long long)fault_total.crashes, (unsigned long long)fault_total.blocks_lost,
         (unsigned long long)fault_total.blocks_persisted,
         (unsigned long long)fault_total.blocks_torn);
  CHECK(fault_total.blocks_persisted > 0 && fault_total.blocks_torn > 0);
  printf("1 passed, 0 failed\n");
  return 0;
}
