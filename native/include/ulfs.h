/*
 * ulfs.h -- the one public header of ulfs, a user-level file system over a raw device or a
 * device image, with its own 4 KB page cache and a metadata journal.
 *
 * Conventions (leveldb c.h style):
 *  - every type is opaque; the caller only holds pointers;
 *  - every function returning int returns 0 (or a non-negative count/descriptor) on success and a
 *    negative errno value on failure (-ENOENT, -EIO, ...); nothing here sets errno;
 *  - every function is thread-safe unless its comment says otherwise;
 *  - paths are absolute, '/'-separated, at most ULFS_PATH_MAX bytes, components at most
 *    ULFS_NAME_MAX bytes.
 * Nothing in this header depends on JNI; the Java bridge lives in native/jni/.
 */
#ifndef ULFS_H
#define ULFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ULFS_BLOCK_SIZE 4096u
#define ULFS_NAME_MAX 255
#define ULFS_PATH_MAX 4096

/* ---- devices ---------------------------------------------------------------------------- */

typedef struct ulfs_dev ulfs_dev;

typedef enum ulfs_backend {
  ULFS_BACKEND_MEMORY = 0, /* anonymous memory; for tests (supports crash simulation) */
  ULFS_BACKEND_POSIX = 1,  /* pread/pwrite, O_DIRECT when the file system allows it */
  ULFS_BACKEND_IO_URING = 2 /* liburing, one ring per thread; falls back to POSIX */
} ulfs_backend;

/* Flags for ulfs_dev_open. */
#define ULFS_DEV_SQPOLL 0x1    /* io_uring: ask for a kernel submission-polling thread */
#define ULFS_DEV_NO_DIRECT 0x2 /* POSIX/io_uring: never try O_DIRECT */
/* io_uring: polled completions (IORING_SETUP_IOPOLL) when the device is open with O_DIRECT and
 * its block queue polls (/sys/dev/block/<dev>/queue/io_poll); otherwise interrupt-driven. The
 * mode chosen is logged at open. */
#define ULFS_DEV_IOPOLL 0x4

/* Opens a device or image file. The image must already exist (see ulfs_image_create). The
 * backend actually used may differ from the one asked for (fallback is logged); see
 * ulfs_dev_backend. The device is locked (flock) until ulfs_dev_close or process exit: while it
 * is open, another open of it, here or in another process, fails with -EBUSY. */
int ulfs_dev_open(const char *path, ulfs_backend backend, int flags, ulfs_dev **out);
/* Creates an in-memory device of the given size (multiple of ULFS_BLOCK_SIZE). */
int ulfs_dev_open_memory(uint64_t bytes, ulfs_dev **out);
/* Closes a device. Must not be called while a file system is mounted on it. */
void ulfs_dev_close(ulfs_dev *dev);
ulfs_backend ulfs_dev_backend(const ulfs_dev *dev);
uint64_t ulfs_dev_size(const ulfs_dev *dev);
/* Whether the device bypasses the kernel page cache (O_DIRECT accepted). */
int ulfs_dev_is_direct(const ulfs_dev *dev);

/* Crash simulation, memory devices only: after `writes` more write requests have been applied,
 * every later write and flush is silently dropped, as if power was lost at that instant. A
 * negative value ends the freeze. Returns -EINVAL on other backends. */
int ulfs_dev_mem_freeze_after(ulfs_dev *dev, int64_t writes);
/* Fault injection, memory devices only: every write request fails with `err` (a negative errno)
 * while err != 0. */
int ulfs_dev_mem_fail_writes(ulfs_dev *dev, int err);
/* Concurrency tests, memory devices only: while on, every flush request waits (blocking its
 * caller) until holding is turned off, so a test can make callers overlap without timing. */
int ulfs_dev_mem_hold_flushes(ulfs_dev *dev, int on);
/* Number of write requests the device has accepted (applied or dropped) since it was opened. */
uint64_t ulfs_dev_write_count(const ulfs_dev *dev);

/* ---- fault device (tests only; docs/kill-loop.md) ---------------------------------------- */
/* Declared only for code that links the ulfs_fault library (CMake option ULFS_FAULT_DEVICE:
 * the C tests of power loss and I/O errors, libulfsjni-fault.so), which defines
 * ULFS_FAULT_DEVICE; libulfsjni.so, the library the server loads, does not contain it. */
#ifdef ULFS_FAULT_DEVICE

/* Wraps `inner` (any backend) in a fault-injecting device and takes ownership of it: closing the
 * wrapper closes `inner`. Until configured it passes everything through. `seed` drives every
 * random choice (0 picks a fixed default). */
int ulfs_dev_fault_wrap(ulfs_dev *inner, uint64_t seed, ulfs_dev **out);
/* The power-loss model: while on, writes since the last device flush are volatile (reads see
 * them, a crash may lose them) and a flush makes them durable. Turning it off with volatile
 * writes pending returns -EBUSY. */
int ulfs_dev_fault_set_volatile(ulfs_dev *dev, int on);

typedef enum ulfs_crash_mode {
  ULFS_CRASH_DROP = 0,   /* every volatile write is lost */
  ULFS_CRASH_SUBSET = 1, /* a random subset of the volatile 4 KB blocks persists, in random order */
  ULFS_CRASH_TORN = 2    /* as SUBSET, and a persisted block may keep only some 512 B sectors */
} ulfs_crash_mode;
/* Power loss now. The device then stays off until ulfs_dev_fault_power_on: writes and flushes
 * are accepted and dropped (a mount still running on it changes nothing), reads see the
 * persisted image. */
int ulfs_dev_fault_crash(ulfs_dev *dev, ulfs_crash_mode mode);
/* Power loss just before the write request that follows the next `writes` ones. */
int ulfs_dev_fault_crash_after(ulfs_dev *dev, uint64_t writes, ulfs_crash_mode mode);
int ulfs_dev_fault_power_on(ulfs_dev *dev);

typedef enum ulfs_fault_op { ULFS_FAULT_READ = 0, ULFS_FAULT_WRITE = 1, ULFS_FAULT_FLUSH = 2 }
    ulfs_fault_op;
/* `err` value for a short write: a random prefix of whole 512 B sectors is stored, then the
 * request returns -EIO. */
#define ULFS_FAULT_SHORT 1
/* Error injection for requests of kind `op`: the `at`-th request from now (at >= 1), or with
 * at == 0 each request with `probability`, fails with `err` (-EIO, -ENOSPC, or ULFS_FAULT_SHORT
 * for writes). With `persistent` every later request of that kind fails too. err == 0 removes
 * the rule. */
int ulfs_dev_fault_inject(ulfs_dev *dev, ulfs_fault_op op, int err, uint64_t at,
                          double probability, int persistent);
/* Configures a fault device from a spec (the Java keys fs.ulfs.fault.*): ';'-separated items
 * "volatile" (the power-loss model on), "seed=N" (reseeds the random choices) and
 * "<read|write|flush>:<eio|enospc|short>[:at=K][:p=P][:persistent]", e.g.
 * "volatile;seed=7;write:eio:p=0.001". Returns -EINVAL for a malformed spec, leaving the items
 * before the bad one applied. */
int ulfs_dev_fault_configure(ulfs_dev *dev, const char *spec);
/* What the fault device did so far. */
typedef struct ulfs_fault_stats {
  uint64_t errors_injected; /* requests failed by a rule */
  uint64_t crashes;
  uint64_t blocks_lost;      /* volatile 4 KB blocks a crash dropped */
  uint64_t blocks_persisted; /* volatile blocks a crash wrote whole */
  uint64_t blocks_torn;      /* volatile blocks a crash wrote only some sectors of */
} ulfs_fault_stats;
int ulfs_dev_fault_get_stats(const ulfs_dev *dev, ulfs_fault_stats *st);
#endif /* ULFS_FAULT_DEVICE */

/* Creates (or grows) an image file of `bytes` bytes; sparse where the file system allows. */
int ulfs_image_create(const char *path, uint64_t bytes);

/* ---- formatting, mounting ------------------------------------------------------------- */

typedef struct ulfs ulfs;

typedef struct ulfs_mkfs_opts {
  uint64_t inode_count;    /* 0: one inode per 16 blocks, at least 1024 */
  uint64_t journal_blocks; /* 0: 1/64 of the device, clamped to [256, 32768] */
} ulfs_mkfs_opts;

/* Writes an empty file system onto the whole device. opts may be NULL. */
int ulfs_mkfs(ulfs_dev *dev, const ulfs_mkfs_opts *opts);

typedef struct ulfs_mount_opts {
  uint64_t cache_bytes;     /* page cache size; 0 means 64 MiB; at least 64 pages are used */
  uint32_t flush_interval_ms; /* flusher period; 0 means 1000; dirty data older than this is
                                 written back and its metadata committed */
  const char *cache_policy; /* "lru" | "lru-level" | "arc" | "lsm-arc" (NULL means lru);
                               docs/ulfs.md "Page cache policies" */
  const char *trace_path;   /* when set, every page access is appended to this file
                               (docs/format/ulfs-trace.md); NULL: no trace */
} ulfs_mount_opts;

/* Mounts the file system on dev, replaying the journal. opts may be NULL. The device stays owned
 * by the caller and must outlive the mount. */
int ulfs_mount(ulfs_dev *dev, const ulfs_mount_opts *opts, ulfs **out);
/* Writes back everything, marks the file system clean and releases it. Open descriptors are
 * closed. Returns the first write-back error, if any (the mount is released regardless). */
int ulfs_unmount(ulfs *fs);

/* ---- file API (POSIX-style) -------------------------------------------------------------- */

/* Open flags: O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_DIRECTORY from
 * <fcntl.h>. Returns a descriptor >= 0. */
int ulfs_open(ulfs *fs, const char *path, int flags, mode_t mode);
int ulfs_close(ulfs *fs, int fd);
ssize_t ulfs_read(ulfs *fs, int fd, void *buf, size_t len);
ssize_t ulfs_write(ulfs *fs, int fd, const void *buf, size_t len);
ssize_t ulfs_pread(ulfs *fs, int fd, void *buf, size_t len, uint64_t off);
ssize_t ulfs_pwrite(ulfs *fs, int fd, const void *buf, size_t len, uint64_t off);
/* whence: SEEK_SET, SEEK_CUR, SEEK_END. Returns the new offset. */
int64_t ulfs_lseek(ulfs *fs, int fd, int64_t off, int whence);
/* mode: 0 or FALLOC_FL_KEEP_SIZE. Allocated ranges read as zeros. */
int ulfs_fallocate(ulfs *fs, int fd, int mode, uint64_t off, uint64_t len);
int ulfs_ftruncate(ulfs *fs, int fd, uint64_t size);
int ulfs_truncate(ulfs *fs, const char *path, uint64_t size);
/* Writes back the file's dirty pages, commits its metadata and flushes the device before
 * returning (power-loss safe: HDFS's hsync). Concurrent calls share one commit and its device
 * flushes (group commit). Returns any write-back error recorded for the file since the last
 * fsync. */
int ulfs_fsync(ulfs *fs, int fd);
/* HDFS's hflush: returns once the file's data and size written so far are on the device in one
 * journal record, without a device flush: they survive the death of the calling process (the
 * kernel holds the written blocks) and a remount replays them, but a power loss before the next
 * flush (any fsync, namespace operation or the flusher's next pass) may lose them, never
 * leaving the file inconsistent. Other descriptors see written data at once either way. */
int ulfs_hflush(ulfs *fs, int fd);
int ulfs_fdatasync(ulfs *fs, int fd);
/* advice: POSIX_FADV_NORMAL, _SEQUENTIAL, _RANDOM, _WILLNEED, _DONTNEED, _NOREUSE. */
int ulfs_fadvise(ulfs *fs, int fd, uint64_t off, uint64_t len, int advice);

typedef struct ulfs_stat {
  uint64_t ino;
  uint32_t mode; /* S_IFREG or S_IFDIR | permission bits */
  uint32_t nlink;
  uint64_t size;
  uint64_t blocks; /* allocated 4 KB blocks */
  int64_t mtime_ns;
  int64_t ctime_ns;
} ulfs_stat;

int ulfs_stat_path(ulfs *fs, const char *path, ulfs_stat *st);
int ulfs_fstat(ulfs *fs, int fd, ulfs_stat *st);
/* mode: F_OK or any of R_OK/W_OK/X_OK (checked against the permission bits of the owner). */
int ulfs_access(ulfs *fs, const char *path, int mode);
/* Atomically replaces `to` (a file, or an empty directory when `from` is one). */
int ulfs_rename(ulfs *fs, const char *from, const char *to);
int ulfs_unlink(ulfs *fs, const char *path);
int ulfs_mkdir(ulfs *fs, const char *path, mode_t mode);
int ulfs_rmdir(ulfs *fs, const char *path);

typedef struct ulfs_statfs {
  uint64_t block_size;
  uint64_t blocks;      /* data blocks */
  uint64_t blocks_free;
  uint64_t inodes;
  uint64_t inodes_free;
} ulfs_statfs;
int ulfs_statfs_get(ulfs *fs, ulfs_statfs *st);

/* Directory listing: getdents-style. Fills `buf` with packed ulfs_dirent records starting at
 * entry index *cookie and advances *cookie. Returns the number of bytes used, 0 at the end. */
typedef struct ulfs_dirent {
  uint64_t ino;
  uint16_t reclen; /* bytes from this record to the next */
  uint8_t type;    /* DT_REG or DT_DIR */
  char name[];     /* NUL-terminated */
} ulfs_dirent;
int ulfs_getdents(ulfs *fs, const char *path, uint64_t *cookie, void *buf, size_t len);

/* ---- cache hints (docs/ulfs.md "Hints") ------------------------------------------------ *
 * What the LSM store tells the page cache about a file and a stream. Hints never change what a
 * read returns; a policy that does not use them ignores them. */
typedef enum ulfs_file_kind {
  ULFS_KIND_OTHER = 0,
  ULFS_KIND_WAL = 1,        /* write-ahead log and recovered edits */
  ULFS_KIND_L0 = 2,         /* Level-0 store file (hash-ordered flush file) */
  ULFS_KIND_L1_SEGMENT = 3, /* Level-1 partition segment */
  ULFS_KIND_MANIFEST = 4,   /* per-store manifest */
  ULFS_KIND_TMP = 5,        /* temporary flush or compaction output (.tmp) */
  ULFS_KIND_COUNT = 6
} ulfs_file_kind;

#define ULFS_LEVEL_NONE 255u /* the file belongs to no LSM level */
#define ULFS_HINT_LEVELS 8u  /* levels 0..7 are told apart; higher ones count as 7 */

typedef enum ulfs_stream_role {
  ULFS_ROLE_USER = 0,              /* user reads and writes (the default) */
  ULFS_ROLE_COMPACTION_INPUT = 1,  /* a compaction reads the file once, sequentially */
  ULFS_ROLE_COMPACTION_OUTPUT = 2, /* a compaction writes the file */
  ULFS_ROLE_FLUSH_OUTPUT = 3,      /* a memstore flush writes the file */
  ULFS_ROLE_COUNT = 4
} ulfs_stream_role;

/* Sets the kind and level of a file (kept by the open file, not persisted; it follows the file
 * through rename). Pages already cached take the new kind and level. level: 0..254 or
 * ULFS_LEVEL_NONE. */
int ulfs_hint_path(ulfs *fs, const char *path, int kind, int level);
/* A file reached its final name (a temporary output was committed by rename): when it is still
 * of kind ULFS_KIND_TMP it becomes ULFS_KIND_OTHER; a file hinted otherwise keeps its hint. */
int ulfs_hint_commit(ulfs *fs, const char *path);
/* Drops the clean pages of a file from the cache (POSIX_FADV_DONTNEED by path): for files the
 * store will not read again, such as compacted store files HBase moves to its archive. */
int ulfs_drop_cache(ulfs *fs, const char *path);
/* ulfs_pread with the role of this one call (a thread reading for a compaction through a
 * descriptor it shares with user reads); role -1 means the descriptor's role. */
ssize_t ulfs_pread_as(ulfs *fs, int fd, void *buf, size_t len, uint64_t off, int role);
/* Sets the role of one descriptor's accesses. A compaction-input descriptor is read ahead by the
 * prefetcher thread in 1 MB units. */
int ulfs_hint_fd(ulfs *fs, int fd, int role);
/* Waits until the prefetcher has read every unit queued so far (returns at once when the queue
 * is empty or the mount is stopping). For tests and benchmarks that must know prefetched pages
 * are in the cache before their next read, instead of hoping the thread ran in time. */
void ulfs_prefetch_wait(ulfs *fs);

#define ULFS_CACHE_LISTS 8u
/* Page cache counters (since mount). Slot ULFS_HINT_LEVELS of the *_level arrays counts pages of
 * files without a level. */
typedef struct ulfs_cache_stats {
  uint64_t hits_kind[ULFS_KIND_COUNT], misses_kind[ULFS_KIND_COUNT];
  uint64_t hits_level[ULFS_HINT_LEVELS + 1], misses_level[ULFS_HINT_LEVELS + 1];
  uint64_t prefetch_issued; /* pages read by the prefetcher */
  uint64_t prefetch_used;   /* of those, pages later read by a demand access */
  uint64_t evictions[ULFS_CACHE_LISTS];  /* per policy list, see ulfs_cache_list_name */
  uint64_t list_pages[ULFS_CACHE_LISTS]; /* pages on each list now */
  uint64_t dirty_writebacks;             /* dirty pages written back (flusher, fsync, eviction) */
  uint64_t arc_p;                        /* ARC's target size of T1 in pages (arc, lsm-arc) */
  uint64_t ghost_b1, ghost_b2;           /* ARC's ghost list lengths */
} ulfs_cache_stats;
void ulfs_get_cache_stats(ulfs *fs, ulfs_cache_stats *st);
/* Name of the mounted policy and of its list i (NULL past the last one). */
const char *ulfs_cache_policy(ulfs *fs);
const char *ulfs_cache_list_name(ulfs *fs, unsigned i);

/* ---- counters, tools -------------------------------------------------------------------- */

typedef struct ulfs_counters {
  uint64_t dev_reads, dev_writes, dev_flushes, dev_read_bytes, dev_write_bytes;
  uint64_t cache_hits, cache_misses, cache_evictions, cache_writebacks, cache_wb_errors;
  uint64_t cache_pages, cache_dirty_pages;
  uint64_t journal_commits, journal_blocks, journal_replayed_txns, journal_wraps;
  uint64_t syncs;        /* fsync/hsync/close syncs that went through the group commit */
  uint64_t hflushes;     /* ulfs_hflush calls */
  uint64_t sync_waiters; /* syncs waiting for a running group commit right now */
} ulfs_counters;
void ulfs_get_counters(ulfs *fs, ulfs_counters *c);

/* fsck report. */
typedef struct ulfs_fsck_report {
  uint64_t inodes_used, dirs, files, blocks_used;
  uint64_t replayed_txns;
  uint64_t errors;       /* inconsistencies found; 0 means clean */
  char first_error[256]; /* description of the first inconsistency */
} ulfs_fsck_report;
/* Checks an unmounted device: replays the journal when `replay` is set (otherwise a pending
 * journal is reported), then verifies superblock, bitmaps, inodes, extents and the directory
 * tree. Returns 0 when it ran (see report->errors), a negative errno when it could not. */
int ulfs_fsck(ulfs_dev *dev, int replay, ulfs_fsck_report *report);

/* Logging: by default warnings go to stderr. */
typedef void (*ulfs_log_fn)(int level, const char *msg);
#define ULFS_LOG_ERROR 0
#define ULFS_LOG_WARN 1
#define ULFS_LOG_INFO 2
void ulfs_set_logger(ulfs_log_fn fn, int max_level);

const char *ulfs_backend_name(ulfs_backend b);

#ifdef __cplusplus
}
#endif
#endif /* ULFS_H */
