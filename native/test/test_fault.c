/* test_fault -- I/O error injection through the fault device (dev_fault.c), on top of the
 * power-loss model (volatile writes until a device flush), so every check ends with a real power
 * cut: whatever the file system reported as durable must survive it.
 *  1. spec parsing (the Java keys fs.ulfs.fault.* arrive as a spec);
 *  2. metadata operations (mkdir, rename across directories, unlink): for every k, the k-th
 *     device write of the operation fails with EIO, ENOSPC or a short write. The operation may
 *     fail or succeed; after a power cut fsck is clean and the tree is the one before or after
 *     the operation, and after it whenever the operation reported success;
 *  3. an fsync'ed data write: for every k the k-th device write fails once; if fsync returned 0
 *     the data survives a power cut; if not, the pages stayed dirty and the next fsync stores
 *     them. Then the same with a persistent error: every fsync fails until the error stops
 *     (never a success for data that is not on the device), then one succeeds;
 *  4. device flush errors fail fsync; read errors give -EIO, never data;
 *  5. the fault device over the POSIX backend on an image file (O_DIRECT where the file system
 *     allows it, so the volatile copies must be aligned): what was fsync'ed is on the image;
 *  6. random errors (reads, writes, flushes) over many seeds under a workload of fsync'ed
 *     files, then a power cut with a random subset of volatile blocks persisted: every file
 *     whose fsync returned 0 is intact, fsck is clean. */
#include "t.h"

#define DEV_BYTES (16u << 20)
#define TREE_CAP 16384
#define DATA_LEN 40000
#define RANDOM_SEEDS 20

static const int ERRS[] = {-EIO, -ENOSPC, ULFS_FAULT_SHORT};
static const char *ERR_NAMES[] = {"EIO", "ENOSPC", "short write"};

static ulfs_dev *fault_dev(uint64_t seed) {
  ulfs_dev *mem, *dev;
  OK(ulfs_dev_open_memory(DEV_BYTES, &mem));
  OK(ulfs_mkfs(mem, NULL));
  OK(ulfs_dev_fault_wrap(mem, seed, &dev));
  OK(ulfs_dev_fault_set_volatile(dev, 1));
  return dev;
}

static void clear_rules(ulfs_dev *dev) {
  for (int op = ULFS_FAULT_READ; op <= ULFS_FAULT_FLUSH; op++) {
    OK(ulfs_dev_fault_inject(dev, (ulfs_fault_op)op, 0, 0, 0, 0));
  }
}

/* Power cut (volatile writes handled by `mode`), the old mount dies with the machine, the
 * errors stop, power returns; fsck must be clean; returns the new mount. */
static ulfs *power_cycle(ulfs_dev *dev, ulfs *fs, ulfs_crash_mode mode) {
  OK(ulfs_dev_fault_crash(dev, mode));
  ulfs_unmount(fs); /* writes nothing: the power is off */
  clear_rules(dev);
  OK(ulfs_dev_fault_power_on(dev));
  t_fsck_clean(dev);
  return t_mount(dev, 1 << 20);
}

static void test_spec(void) {
  ulfs_dev *dev = fault_dev(1);
  OK(ulfs_dev_fault_configure(dev, "volatile; seed=7;write:eio:at=3;read:enospc:p=0.5"));
  OK(ulfs_dev_fault_configure(dev, "flush:eio:at=1:persistent;write:short:p=1"));
  const char *bad[] = {"write", "write:eio", "write:eio:at=", "write:eio:at=x", "write:oops:at=1",
                       "disk:eio:at=1", "read:short:at=1", "write:eio:p=2", "seed=",
                       "write:eio:at=1:forever", NULL};
  for (int i = 0; bad[i]; i++) {
    if (ulfs_dev_fault_configure(dev, bad[i]) != -EINVAL) {
      fprintf(stderr, "spec '%s' was accepted\n", bad[i]);
      exit(1);
    }
  }
  ulfs_dev *mem;
  OK(ulfs_dev_open_memory(DEV_BYTES, &mem));
  CHECK_RC(ulfs_dev_fault_configure(mem, "volatile"), -EINVAL); /* not a fault device */
  ulfs_dev_close(mem);
  clear_rules(dev);
  ulfs_dev_close(dev);
}

typedef enum { MKDIR, RENAME, UNLINK } meta_op;
static const char *META_NAMES[] = {"mkdir", "rename", "unlink"};

static int run_meta(ulfs *fs, meta_op op) {
  switch (op) {
    case MKDIR: return ulfs_mkdir(fs, "/d2/sub", 0755);
    case RENAME: return ulfs_rename(fs, "/d1/f", "/d2/g");
    case UNLINK: return ulfs_unlink(fs, "/d1/f");
  }
  return -EINVAL;
}

/* A mount with /d1/f (fsync'ed data) and /d2, durable; fills `before`. */
static ulfs *meta_setup(ulfs_dev *dev, char *before) {
  ulfs *fs = t_mount(dev, 1 << 20);
  OK(ulfs_mkdir(fs, "/d1", 0755));
  OK(ulfs_mkdir(fs, "/d2", 0755));
  t_write_file(fs, "/d1/f", 9, 9000, 1);
  before[0] = 0;
  t_tree(fs, "/", before, TREE_CAP);
  return fs;
}

static void test_metadata(uint64_t *cases, uint64_t *failed_ops) {
  static char before[TREE_CAP], after[TREE_CAP], got[TREE_CAP];
  for (int op = MKDIR; op <= UNLINK; op++) {
    ulfs_dev *dev = fault_dev(11);
    ulfs *fs = meta_setup(dev, before);
    uint64_t w0 = ulfs_dev_write_count(dev);
    OK(run_meta(fs, (meta_op)op));
    uint64_t writes = ulfs_dev_write_count(dev) - w0;
    CHECK(writes > 0);
    after[0] = 0;
    t_tree(fs, "/", after, TREE_CAP);
    OK(ulfs_unmount(fs));
    ulfs_dev_close(dev);
    for (int e = 0; e < 3; e++) {
      for (uint64_t k = 1; k <= writes; k++) {
        dev = fault_dev(100 + k);
        fs = meta_setup(dev, before);
        OK(ulfs_dev_fault_inject(dev, ULFS_FAULT_WRITE, ERRS[e], k, 0, 0));
        int rc = run_meta(fs, (meta_op)op);
        *failed_ops += rc != 0;
        fs = power_cycle(dev, fs, ULFS_CRASH_DROP);
        got[0] = 0;
        t_tree(fs, "/", got, TREE_CAP);
        int ok = strcmp(got, after) == 0 || (rc != 0 && strcmp(got, before) == 0);
        if (!ok) {
          fprintf(stderr, "%s, %s at write %llu of %llu: returned %d, tree after power cut:\n%s"
                  "before:\n%s\nafter:\n%s", META_NAMES[op], ERR_NAMES[e],
                  (unsigned long long)k, (unsigned long long)writes, rc, got, before, after);
          exit(1);
        }
        OK(ulfs_unmount(fs));
        ulfs_dev_close(dev);
        (*cases)++;
      }
    }
  }
}

static int write_data(ulfs *fs, int fd, uint32_t seed) {
  uint8_t buf[DATA_LEN];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = t_byte(seed, i);
  CHECK_RC(ulfs_pwrite(fs, fd, buf, sizeof buf, 0), sizeof buf); /* into the cache */
  return ulfs_fsync(fs, fd);
}

static void test_data_write(uint64_t *cases, uint64_t *failed_syncs) {
  ulfs_dev *dev = fault_dev(21);
  ulfs *fs = t_mount(dev, 1 << 20);
  t_write_file(fs, "/f", 1, 0, 1);
  int fd = ulfs_open(fs, "/f", O_RDWR, 0);
  uint64_t w0 = ulfs_dev_write_count(dev);
  OK(write_data(fs, fd, 5));
  uint64_t writes = ulfs_dev_write_count(dev) - w0;
  OK(ulfs_close(fs, fd));
  OK(ulfs_unmount(fs));
  ulfs_dev_close(dev);
  for (int persistent = 0; persistent <= 1; persistent++) {
    for (int e = 0; e < 3; e++) {
      for (uint64_t k = 1; k <= writes; k++) {
        dev = fault_dev(200 + k);
        fs = t_mount(dev, 1 << 20);
        t_write_file(fs, "/f", 1, 0, 1);
        fd = ulfs_open(fs, "/f", O_RDWR, 0);
        CHECK(fd >= 0);
        OK(ulfs_dev_fault_inject(dev, ULFS_FAULT_WRITE, ERRS[e], k, 0, persistent));
        int rc = write_data(fs, fd, 5);
        if (rc != 0) {
          (*failed_syncs)++;
          if (persistent) { /* still failing: the next fsync must fail too, nothing is clean */
            CHECK(ulfs_fsync(fs, fd) != 0);
            clear_rules(dev);
          }
          rc = ulfs_fsync(fs, fd); /* the dirty pages are written again */
        }
        ulfs_close(fs, fd);
        fs = power_cycle(dev, fs, ULFS_CRASH_DROP);
        ulfs_stat st;
        OK(ulfs_stat_path(fs, "/f", &st));
        if (rc == 0 ? !t_file_matches(fs, "/f", 5, DATA_LEN)
                    : st.size != 0 && !t_file_matches(fs, "/f", 5, DATA_LEN)) {
          fprintf(stderr, "data write, %s%s at write %llu: fsync %d, then %llu bytes that do not "
                  "match\n", persistent ? "persistent " : "", ERR_NAMES[e],
                  (unsigned long long)k, rc, (unsigned long long)st.size);
          exit(1);
        }
        OK(ulfs_unmount(fs));
        ulfs_dev_close(dev);
        (*cases)++;
      }
    }
  }
}

static void test_flush_and_read_errors(void) {
  ulfs_dev *dev = fault_dev(31);
  ulfs *fs = t_mount(dev, 1 << 20);
  t_write_file(fs, "/f", 1, 0, 1);
  int fd = ulfs_open(fs, "/f", O_RDWR, 0);
  OK(ulfs_dev_fault_inject(dev, ULFS_FAULT_FLUSH, -EIO, 1, 0, 1));
  CHECK(write_data(fs, fd, 6) != 0); /* the device never confirmed the data */
  CHECK(ulfs_fsync(fs, fd) != 0);
  ulfs_close(fs, fd);
  fs = power_cycle(dev, fs, ULFS_CRASH_DROP);
  t_write_file(fs, "/r", 7, 20000, 1);
  OK(ulfs_unmount(fs));
  fs = t_mount(dev, 1 << 20); /* empty cache: reads go to the device */
  fd = ulfs_open(fs, "/r", O_RDONLY, 0);
  CHECK(fd >= 0);
  OK(ulfs_dev_fault_inject(dev, ULFS_FAULT_READ, -EIO, 1, 0, 1));
  uint8_t b[4096];
  CHECK_RC(ulfs_pread(fs, fd, b, sizeof b, 0), -EIO);
  clear_rules(dev);
  OK(ulfs_close(fs, fd));
  CHECK(t_file_matches(fs, "/r", 7, 20000));
  OK(ulfs_unmount(fs));
  ulfs_dev_close(dev);
}

static void test_posix_image(const char *dir) {
  char path[1024];
  snprintf(path, sizeof path, "%s/test_fault.img", dir);
  unlink(path);
  OK(ulfs_image_create(path, DEV_BYTES));
  ulfs_dev *inner, *dev;
  OK(ulfs_dev_open(path, ULFS_BACKEND_POSIX, 0, &inner));
  OK(ulfs_mkfs(inner, NULL));
  OK(ulfs_dev_fault_wrap(inner, 3, &dev));
  OK(ulfs_dev_fault_configure(dev, "volatile;seed=3"));
  ulfs *fs = t_mount(dev, 1 << 20);
  t_write_file(fs, "/synced", 8, 50000, 1);
  t_write_file(fs, "/unsynced", 9, 50000, 0);
  OK(ulfs_dev_fault_crash(dev, ULFS_CRASH_DROP));
  ulfs_unmount(fs);
  ulfs_dev_close(dev); /* closes the POSIX device too */
  OK(ulfs_dev_open(path, ULFS_BACKEND_POSIX, 0, &inner)); /* the image as the crash left it */
  t_fsck_clean(inner);
  fs = t_mount(inner, 1 << 20);
  CHECK(t_file_matches(fs, "/synced", 8, 50000));
  OK(ulfs_unmount(fs));
  ulfs_dev_close(inner);
  unlink(path);
}

static void test_random(uint64_t *synced, uint64_t *failed, ulfs_fault_stats *total) {
  for (uint64_t seed = 1; seed <= RANDOM_SEEDS; seed++) {
    ulfs_dev *dev = fault_dev(seed);
    ulfs *fs = t_mount(dev, 1 << 20);
    OK(ulfs_dev_fault_inject(dev, ULFS_FAULT_WRITE, seed % 3 ? -EIO : ULFS_FAULT_SHORT, 0, 0.004,
                             0));
    OK(ulfs_dev_fault_inject(dev, ULFS_FAULT_READ, -EIO, 0, 0.01, 0));
    OK(ulfs_dev_fault_inject(dev, ULFS_FAULT_FLUSH, seed % 2 ? -EIO : -ENOSPC, 0, 0.004, 0));
    int ok[40] = {0};
    uint64_t len[40];
    for (int i = 0; i < 40; i++) {
      char p[32];
      snprintf(p, sizeof p, "/f%02d", i);
      len[i] = 1000 + (seed * 7919 + (uint64_t)i * 104729) % 30000;
      int fd = ulfs_open(fs, p, O_CREAT | O_EXCL | O_WRONLY, 0644);
      if (fd < 0) {
        (*failed)++;
        continue;
      }
      uint8_t buf[31000];
      for (uint64_t j = 0; j < len[i]; j++) buf[j] = t_byte((uint32_t)(seed * 100 + i), j);
      ssize_t n = ulfs_write(fs, fd, buf, len[i]);
      int rc = n == (ssize_t)len[i] ? ulfs_fsync(fs, fd) : (int)n;
      if (n >= 0 && n != (ssize_t)len[i]) rc = -EIO;
      ulfs_close(fs, fd);
      ok[i] = rc == 0;
      *synced += ok[i];
      *failed += !ok[i];
    }
    fs = power_cycle(dev, fs, ULFS_CRASH_SUBSET);
    for (int i = 0; i < 40; i++) {
      char p[32];
      snprintf(p, sizeof p, "/f%02d", i);
      if (ok[i] && !t_file_matches(fs, p, (uint32_t)(seed * 100 + i), len[i])) {
        fprintf(stderr, "seed %llu: %s was fsync'ed but is not intact after the power cut\n",
                (unsigned long long)seed, p);
        exit(1);
      }
    }
    OK(ulfs_unmount(fs));
    ulfs_fault_stats st;
    OK(ulfs_dev_fault_get_stats(dev, &st));
    total->errors_injected += st.errors_injected;
    total->blocks_lost += st.blocks_lost;
    total->blocks_persisted += st.blocks_persisted;
    ulfs_dev_close(dev);
  }
}

int main(int argc, char **argv) {
  ulfs_set_logger(NULL, -1); /* the injected errors would flood stderr with warnings */
  test_spec();
  test_posix_image(argc > 1 ? argv[1] : ".");
  uint64_t cases = 0, failed = 0;
  test_metadata(&cases, &failed);
  printf("metadata ops: %llu error points checked (%llu ops reported the error)\n",
         (unsigned long long)cases, (unsigned long long)failed);
  cases = failed = 0;
  test_data_write(&cases, &failed);
  printf("fsync'ed data write: %llu error points checked (%llu fsyncs reported the error)\n",
         (unsigned long long)cases, (unsigned long long)failed);
  test_flush_and_read_errors();
  uint64_t synced = 0;
  failed = 0;
  ulfs_fault_stats st = {0};
  test_random(&synced, &failed, &st);
  printf("random errors, %d seeds: %llu errors injected, %llu files fsync'ed and intact after "
         "the power cut, %llu failed; %llu volatile blocks lost, %llu persisted\n", RANDOM_SEEDS,
         (unsigned long long)st.errors_injected, (unsigned long long)synced,
         (unsigned long long)failed, (unsigned long long)st.blocks_lost,
         (unsigned long long)st.blocks_persisted);
  CHECK(synced > 0 && failed > 0 && st.errors_injected > 0);
  printf("1 passed, 0 failed\n");
  return 0;
}
