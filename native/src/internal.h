/*
 * internal.h -- shared declarations of the ulfs core. Never included by users of the library.
 *
 * Locking: a mounted file system has one lock, ulfs.lock (struct ulfs below). The in-memory
 * structures, the page cache and its policies, the journal and allocation functions declared
 * here take no lock of their own: on a mount they run only with ulfs.lock held (mkfs, fsck and
 * the simulator use them before or without a mount, single-threaded). Devices lock for
 * themselves (struct ulfs_dev and the backends).
 */
#ifndef ULFS_INTERNAL_H
#define ULFS_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "ulfs.h"

#define BS ULFS_BLOCK_SIZE
#define BOUNCE_PAGES 256u

/* ---- logging, checksums ------------------------------------------------------------------ */
void ulfs_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint32_t ulfs_crc32c(uint32_t crc, const void *buf, size_t len);
/* The portable table-driven CRC32C that ulfs_crc32c uses without SSE4.2 (tests compare both). */
uint32_t ulfs_crc32c_table(uint32_t crc, const void *buf, size_t len);
int64_t ulfs_now_ns(void);
/* The CLOCK_REALTIME instant ms milliseconds from now (a pthread_cond_timedwait deadline). */
struct timespec ulfs_deadline_ms(uint32_t ms);
void *ulfs_alloc_aligned(size_t len); /* BS-aligned, zeroed; NULL on failure */

/* ---- device vtable ----------------------------------------------------------------------- *
 * A backend implements block-granular I/O: offsets and lengths are multiples of BS and buffers
 * are BS-aligned (what O_DIRECT, io_uring fixed buffers and an SPDK queue pair all need). Every
 * call may come from any thread at the same time. Return 0 or a negative errno; short transfers
 * are completed by the backend or reported as -EIO. */
typedef struct ulfs_dev_ops {
  const char *name;
  int (*read)(ulfs_dev *dev, void *buf, uint64_t off, size_t len);
  int (*write)(ulfs_dev *dev, const void *buf, uint64_t off, size_t len);
  int (*flush)(ulfs_dev *dev); /* completed writes reach stable storage */
  /* Optional: a long-lived buffer region (the page cache) the backend may pin/register. */
  int (*register_buffer)(ulfs_dev *dev, void *base, size_t len);
  void (*close)(ulfs_dev *dev);
  /* Optional: releases the device lock (flock) while the device stays open; ulfs_shutdown. */
  void (*unlock)(ulfs_dev *dev);
} ulfs_dev_ops;

struct ulfs_dev {
  const ulfs_dev_ops *ops;
  ulfs_backend backend;
  uint64_t size;
  int direct;
  /* I/O counters: any thread updates them without a lock (ulfs_dev_read and friends) */
  _Atomic uint64_t reads, writes, flushes, read_bytes, write_bytes;
  /* A second descriptor of an O_DIRECT image or device without O_DIRECT (has_cached_fd), for
   * ulfs_dev_write_cached; flush (fdatasync of the same inode) covers its writes too. */
  int cached_fd;
  bool has_cached_fd;
};

int ulfs_dev_read(ulfs_dev *dev, void *buf, uint64_t off, size_t len);
int ulfs_dev_write(ulfs_dev *dev, const void *buf, uint64_t off, size_t len);
int ulfs_dev_flush(ulfs_dev *dev);
/* A write that only has to reach the kernel, not the device: through the kernel's page cache
 * when the device is open with O_DIRECT (a memory copy instead of a device round trip), else a
 * plain write. It survives the death of the process like any completed write; the next flush
 * makes it durable. Reads through O_DIRECT stay coherent (the kernel writes such cached ranges
 * back before a direct read or write of them). Used by hflush (fs.c). */
int ulfs_dev_write_cached(ulfs_dev *dev, const void *buf, uint64_t off, size_t len);

/* Releases the device lock early (ulfs_shutdown): a device of a process that exits without
 * closing it would stay locked while the kernel tears its io_uring rings down. */
void ulfs_dev_unlock(ulfs_dev *dev);
int ulfs_posix_open(const char *path, int flags, ulfs_dev **out);
int ulfs_uring_open(const char *path, int flags, ulfs_dev **out);
/* Shared by the POSIX and io_uring backends: opens path, O_DIRECT when allowed. */
int ulfs_posix_open_fd(const char *path, int flags, int *fd, int *direct, uint64_t *size);
/* Opens dev's cached_fd on path when the device is direct (see ulfs_dev_write_cached). */
int ulfs_dev_open_cached_fd(ulfs_dev *dev, const char *path);

/* ---- on-device format (docs/format/ulfs-device.md) --------------------------------------- */
#define ULFS_MAGIC 0x53464c55u /* "ULFS" little-endian */
#define ULFS_VERSION 4u
#define ULFS_VERSION_MIN 2u /* oldest version mounted; mount rewrites the superblock as current */
#define ULFS_JHDR_MAGIC 0x48444a55u /* "UJDH" */
#define ULFS_JCMT_MAGIC 0x544d4a55u /* "UJMT" */
#define ULFS_XBLK_MAGIC 0x4b425855u /* "UXBK" extent overflow block */
#define ULFS_ROOT_INO 1u
#define INODE_SIZE 256u
#define INODES_PER_BLOCK (BS / INODE_SIZE)
#define INLINE_EXTENTS 12u
#define XBLK_EXTENTS ((BS - 16u) / 16u) /* 255 */
#define JHDR_FIXED 32u
#define ULFS_DIR_MAGIC 0x52494455u /* "UDIR" */
#define DIR_HDR 8u
#define JHDR_TARGETS_FIRST ((BS - JHDR_FIXED) / 8u)
#define JTX_ORDERED 0x1u        /* header flag: data written home before it was durable (J4) */
#define JTX_INODE 0x2u          /* header flag: an inode record (journal.c J6), version 3 */
#define IREC_ALIGN 64u /* version 4: inode records start and end on 64-byte bounds (J7) */
#define JDATA (1ull << 63)      /* target flag: a data block's image (journal.c J5) */

typedef struct superblock {
  uint32_t magic, version;
  uint64_t generation;
  uint8_t uuid[16];
  uint32_t block_size, flags;
  uint64_t total_blocks;
  uint64_t journal_start, journal_blocks;
  uint64_t bbitmap_start, bbitmap_blocks;
  uint64_t ibitmap_start, ibitmap_blocks;
  uint64_t itable_start, itable_blocks;
  uint64_t inode_count;
  uint64_t data_start;
  uint64_t journal_head; /* block index inside the journal of the first txn to replay */
  uint64_t journal_seq;  /* sequence number that txn must carry */
  uint32_t clean;        /* 1 after a clean unmount */
} superblock;
#define SB_ENCODED 164u /* bytes before the crc; see sb_encode */

typedef struct extent {
  uint32_t lblk; /* first logical block */
  uint32_t len;  /* blocks */
  uint64_t pblk; /* first physical block */
} extent;

/* ---- in-memory structures ---------------------------------------------------------------- */
typedef struct dirent_m {
  char *name;
  uint32_t nlen;
  int32_t hnext; /* next entry index in the same hash bucket, -1 at the end */
  uint64_t ino;
  uint8_t type;
  uint32_t blk; /* index of the directory block holding it */
} dirent_m;

typedef struct dir_m {
  dirent_m *ents;
  uint32_t n, cap;
  uint32_t *blk_used; /* bytes used per directory block */
  uint8_t *blk_dirty;
  uint32_t nblk;
  int32_t *buckets; /* name hash -> first entry index (-1: empty); nbuckets is a power of 2 */
  uint32_t nbuckets;
} dir_m;

typedef struct run {
  uint64_t start, len;
  bool journaled; /* the blocks held journaled metadata (directory or extent overflow) */
} run;

typedef struct page page;

typedef struct inode_m {
  uint64_t ino;
  uint32_t mode, nlink;
  uint64_t size;
  int64_t mtime_ns, ctime_ns;
  extent *ext;
  uint32_t next, extcap;
  uint64_t *chain; /* extent overflow blocks as last persisted */
  uint32_t nchain;
  /* The first chain_known overflow blocks' images as last persisted, BS bytes each (chain_cap
   * of them allocated): an inode record logs only the bytes that changed (journal.c J6). */
  uint8_t *chain_img;
  uint32_t chain_known, chain_cap;
  run *pfree; /* blocks released in memory, to be freed on disk by the next commit */
  uint32_t npfree, pfreecap;
  dir_m *dir;      /* loaded directory contents (directories only) */
  int opens;       /* open descriptors */
  bool meta_dirty; /* in-memory state differs from the persisted inode */
  bool persisted;  /* the inode exists on the device */
  int wb_err;      /* first write-back error since the last fsync (negative errno) */
  /* Pages were written home outside a logged commit since the inode's last ORDERED commit:
   * an hflush must then commit ORDERED, or a replay could put an older logged image over them
   * (journal.c J5). */
  bool wb_unlogged;
  bool sync_queued; /* on fs->syncq, waiting for a group commit */
  page *pages;     /* cached pages of this file (list through page.inext) */
  uint64_t ndirty;
  uint64_t njlog; /* its pages with PG_JLOG (all dirty, so njlog <= ndirty) */
  uint8_t kind, level; /* cache hints (ulfs_hint_path); not persisted */
  uint32_t fid;        /* file id in the access trace: unique per in-memory inode of a mount */
  struct inode_m *hnext;
} inode_m;

/* Hash of a cached page's identity (cache and ARC ghost tables). */
static inline uint64_t cache_hash64(uint64_t ino, uint64_t idx) {
  uint64_t h = ino * 0x9E3779B97F4A7C15ull ^ (idx + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  return h ^ (h >> 29);
}

/* ---- page cache -------------------------------------------------------------------------- */
/* Page flags (page.flags), set from the access that brought the page in (docs/ulfs.md "Page
 * cache policies"). */
#define PG_PREFETCHED 0x1 /* read by the prefetcher and not yet used by a demand read */
#define PG_COMPACT_IN 0x2 /* brought in by a compaction-input read */
#define PG_OUTPUT 0x4     /* written by a flush or compaction output stream */
#define PG_SPARED 0x8     /* lsm-arc rule d has spared it once */
#define PG_READAHEAD 0x10 /* read ahead of a sequential stream and not yet used by a demand read */
#define PG_PARTIAL 0x20   /* the file's last page, ending inside it: an append tail (a WAL's) that
                             the next append reads back; set and cleared by writes */
/* Journal-only (journal.c J5): an hflush logged the page and left it dirty without writing it
 * home, so the records after the journal head are the only copy of its bytes on the device.
 * Every such page is written home before the next ORDERED record and before the head moves
 * past its records (jlog_home); while set, [dlo, dhi) holds the changes since it was logged. */
#define PG_JLOG 0x40

struct page {
  uint64_t ino, idx;
  uint8_t *data;
  bool dirty, valid;
  /* Bytes [dlo, dhi) hold every change since the page was last written home or, for a
   * journal-only page (PG_JLOG), logged (meaningful while dirty; a page dirtied by anything but
   * a write counts as changed whole; empty, dlo >= dhi, right after an hflush logged it). An
   * hflush logs only them (journal.c J6). */
  uint16_t dlo, dhi;
  uint8_t kind, level; /* ulfs_file_kind and level of the file when the page was inserted */
  uint8_t flags;       /* PG_* */
  uint8_t list;        /* owned by the policy: which of its lists holds the page */
  int64_t dirtied_ns;
  page *hnext;          /* hash chain */
  page *inext, *iprev;  /* per-inode list */
  page *pnext, *pprev;  /* owned by the policy */
};

/* One page access as the policy sees it: the file's hint and the stream's role. */
typedef struct cache_acc {
  uint8_t kind, level, role; /* ulfs_file_kind, level (ULFS_LEVEL_NONE), ulfs_stream_role */
  bool prefetch;             /* the access is the prefetcher's, not a demand access */
  bool readahead;            /* insert only: the page is read ahead of a sequential stream */
} cache_acc;

/* The replacement policy interface: the cache calls these with the mount's lock (ulfs.lock)
 * held, each in O(1) (victim_next is O(1) per step). A policy keeps every resident page it was
 * told about until on_remove. Order of calls for a miss: on_miss (the policy may adapt itself
 * and trim its history), then victim_next walks while a frame is needed, on_remove(evicted=true)
 * for the victim, then on_insert for the new page. */
typedef struct cache_policy_ops {
  const char *name;
  /* names of the lists counted in ulfs_cache_stats.evictions, NULL-terminated */
  const char *const *lists;
  void *(*create)(size_t npages);
  void (*destroy)(void *p);
  void (*on_miss)(void *p, uint64_t ino, uint64_t idx, const cache_acc *a); /* may be NULL */
  void (*on_insert)(void *p, page *pg, const cache_acc *a);
  void (*on_hit)(void *p, page *pg, const cache_acc *a);
  /* evicted: the page leaves because it was chosen as a victim (not a truncate or unlink) */
  void (*on_remove)(void *p, page *pg, bool evicted);
  /* Walks eviction candidates from the best one: prev NULL starts the walk. */
  page *(*victim_next)(void *p, page *prev);
  /* Adaptive state for the counters (ARC's p and list sizes); may be NULL. */
  void (*describe)(void *p, ulfs_cache_stats *st);
} cache_policy_ops;
extern const cache_policy_ops ulfs_policy_lru, ulfs_policy_lru_level, ulfs_policy_arc,
    ulfs_policy_lsm_arc;
/* The LSM-ARC rules (cache_arc.c); lsm-arc applies all of them. The simulator switches single
 * rules off on an lsm-arc cache to measure what each contributes (ulfs-cachesim --ablate). */
#define CACHE_LSM_RULE_A 0x1u /* compaction inputs: T1, never promoted, no ghosts */
#define CACHE_LSM_RULE_B 0x2u /* flush and upper-level compaction outputs into T2 */
#define CACHE_LSM_RULE_C 0x4u /* WAL pages on their own list */
#define CACHE_LSM_RULE_D 0x8u /* spare T1's compaction-output or prefetched tail once */
#define CACHE_LSM_RULES 0xFu
void cache_lsm_arc_set_rules(void *polstate, unsigned rules);
/* The policy named `name` (ulfs_mount_opts.cache_policy), NULL when unknown. */
const cache_policy_ops *cache_policy_by_name(const char *name);

typedef struct cache {
  uint8_t *arena; /* NULL for a metadata-only cache (the simulator) */
  page *pages;
  size_t npages;
  page *free_list;
  page **hash;
  size_t nhash;
  const cache_policy_ops *pol;
  void *polstate;
  size_t resident, dirty;
  ulfs_cache_stats st; /* counters */
} cache; /* no lock of its own: a mount's cache is guarded by ulfs.lock, as is every call here */

/* with_data false: frames have no data buffer (trace simulation). */
int cache_init(cache *c, size_t npages, const char *policy, bool with_data);
void cache_destroy(cache *c);
page *cache_lookup(cache *c, uint64_t ino, uint64_t idx);
/* Returns a free page frame or NULL; see cache_evict. */
page *cache_take_frame(cache *c);
/* Records a demand access that found `pg` (counts the hit, tells the policy). */
void cache_hit(cache *c, page *pg, const cache_acc *a);
/* Records a demand miss of (ino, idx) (counts it, tells the policy) before frames are taken. */
void cache_miss(cache *c, uint64_t ino, uint64_t idx, const cache_acc *a);
/* The policy's first clean victim, NULL when none; *first_dirty gets the first dirty candidate
 * met on the way (NULL when none). */
page *cache_victim(cache *c, page **first_dirty);
/* Inserts a filled frame for (pg->ino, pg->idx) with the access's kind, level and flags. */
void cache_insert(cache *c, page *pg, inode_m *ip, const cache_acc *a);
/* Returns a frame from cache_take_frame that was never inserted. */
void cache_remove_frame(cache *c, page *pg);
void cache_remove(cache *c, page *pg, inode_m *ip, bool evicted);
void cache_set_dirty(cache *c, page *pg, inode_m *ip, bool dirty);
/* One demand access to page idx of ip in a metadata-only cache (simulator, policy tests): the
 * hit or the miss with its eviction and insertion, exactly as the file system drives them;
 * owner(ctx, ino) names the inode of a victim. Returns the page, NULL when every resident page
 * is dirty. */
page *cache_sim_access(cache *c, inode_m *ip, uint64_t idx, const cache_acc *a, bool *hit,
                       inode_m *(*owner)(void *ctx, uint64_t ino), void *ctx);
/* Belady's OPT (cache_opt.c) over n page references keys[] with `frames` frames: counts the
 * misses and the misses of references with is_read set. */
int cache_opt_misses(const uint64_t *keys, const bool *is_read, size_t n, size_t frames,
                     uint64_t *read_misses, uint64_t *misses);

/* ---- the mounted file system ------------------------------------------------------------- */
typedef struct fdesc {
  inode_m *ip;
  uint64_t pos;
  int flags;
  int advice;
  bool used;
  uint8_t role;    /* ulfs_stream_role (ulfs_hint_fd) */
  uint64_t pf_end; /* compaction input: first page index not yet handed to the prefetcher */
  /* Sequential-stream detection (docs/ulfs.md "Readahead"), as the kernel keeps it per open
   * file: the last page the previous read touched and the current window in pages (0: the
   * stream looks random, a miss reads only the pages asked for). */
  uint64_t ra_last;
  uint32_t ra_win;
  bool ra_seen; /* ra_last is set: the descriptor has been read through */
} fdesc;

/* Readahead window of a sequential stream: starts at RA_MIN_PAGES on the first sequential read,
 * doubles on each further one, at most RA_MAX_PAGES (POSIX_FADV_SEQUENTIAL: always the maximum). */
#define RA_MIN_PAGES 8u
#define RA_MAX_PAGES 64u

/* One prefetch request: a 1 MB unit of a compaction input. */
typedef struct pf_req { uint64_t ino, idx, n; } pf_req;
#define PF_QUEUE 64u
#define PF_UNIT_PAGES (1048576u / BS)

/* One block of a transaction. For a data image (blk & JDATA) an inode record logs only bytes
 * [lo, hi) of img, and with zero_tail (the file's last page) the block's bytes past hi are
 * zero; a classic record logs img whole. */
typedef struct txn_blk {
  uint64_t blk;
  uint8_t *img;
  uint64_t seq; /* in fs->pend: the sequence number of the record that logged img */
  uint16_t lo, hi;
  bool zero_tail;
} txn_blk;
typedef struct txn {
  txn_blk *b;
  uint32_t n, cap;
  /* Nonzero: the transaction is one inode's hflush that an inode record can carry (journal.c
   * J6): the inode's table block, bitmap blocks for its extents' bits, its data images. */
  uint64_t ino;
} txn;

struct ulfs {
  /* One lock per mount: every API call, the flusher and the prefetcher hold it while they touch
   * the mount, including the device I/O they issue (docs/ulfs.md "Concurrency"). It guards
   * every field below; dev is set at mount and never changes. */
  pthread_mutex_t lock;
  ulfs_dev *dev;
  superblock sb;
  uint8_t *balloc;      /* block bitmap as allocated in memory */
  uint8_t *bdisk;       /* block bitmap as persisted (what the next commit writes) */
  uint8_t *ialloc, *idisk;
  uint64_t free_blocks, free_inodes;
  uint64_t alloc_hint;
  run *quar; /* freed journaled blocks, reusable only after the journal stops covering them */
  uint32_t nquar, quarcap;
  inode_m **ihash;
  size_t nihash;
  /* inode-table blocks as persisted, loaded on demand */
  struct itblk { uint64_t blk; uint8_t *img; struct itblk *next; } **ithash;
  size_t nithash;
  /* Journal-relative byte offset where the next record starts, and its sequence number. A
   * block record starts at the next block boundary; an inode record (version 4) right here,
   * possibly inside a block earlier records of which are already written (journal.c J7). */
  uint64_t jbyte, jseq;
  uint8_t *jopen; /* block jbyte / BS as written so far, when jbyte % BS != 0 */
  bool data_unflushed; /* data writes issued since the last device flush */
  bool journal_unflushed; /* journal records written since the last device flush */
  /* Counts the writes that set data_unflushed or journal_unflushed: a flush made with fs->lock
   * released (journal_harden) clears them only if none came meanwhile. */
  uint64_t unflushed_gen;
  uint64_t njlog;       /* pages with PG_JLOG, of every file */
  txn pend;             /* metadata images of unflushed records, checkpointed after a flush */
  /* Group commit (fs.c sync_group): one thread at a time writes the journal (jbusy); syncs
   * queue their inodes on syncq and wait on jcv until sync_done reaches their ticket. */
  bool jbusy;
  pthread_cond_t jcv;
  inode_m **syncq;
  uint32_t nsyncq, syncqcap;
  uint64_t sync_req, sync_done;
  cache cache;
  fdesc *fds;
  int nfds;
  uint32_t flush_interval_ms;
  pthread_t flusher, prefetcher;
  pthread_cond_t flusher_cv, prefetch_cv;
  pthread_cond_t prefetch_idle_cv; /* broadcast when the prefetcher has emptied its queue */
  bool stopping, flusher_started, prefetcher_started;
  pf_req pfq[PF_QUEUE]; /* ring of prefetch requests */
  unsigned pfq_head, pfq_len;
  uint32_t next_fid;
  struct trace *trace; /* NULL unless ulfs_mount_opts.trace_path */
  struct stats_pub *pub; /* NULL unless ulfs_mount_opts.stats_path (stats.c) */
  bool shut; /* ulfs_shutdown ran: calls that read or change the file system fail */
  uint8_t *bounce; /* BOUNCE_PAGES aligned pages for batched I/O */
  int broken;      /* first metadata I/O error: the file system refuses changes after it */
  _Atomic uint64_t c_hits, c_misses, c_evictions, c_writebacks, c_wb_errors;
  uint64_t c_commits, c_jblocks, c_replayed, c_wraps;
  uint64_t c_syncs, c_hflushes, c_sync_waiters; /* c_sync_waiters: now, not a total */
};

/* counters publisher (stats.c): publishes at start, then every interval_ms until stopped;
 * stop removes the file and is idempotent; free stops first. */
typedef struct stats_pub stats_pub;
int stats_pub_start(ulfs *fs, const char *path, uint32_t interval_ms, stats_pub **out);
int stats_pub_now(stats_pub *p);
void stats_pub_stop(stats_pub *p);
void stats_pub_free(stats_pub *p);

/* superblock / layout */
void sb_encode(const superblock *sb, uint8_t *blk);
int sb_decode(const uint8_t *blk, superblock *sb);
int sb_read_best(ulfs_dev *dev, superblock *sb);
int sb_write(ulfs_dev *dev, superblock *sb); /* bumps generation, alternates slots */

/* journal */
void txn_init(txn *t);
void txn_free(txn *t);
uint8_t *txn_block(txn *t, uint64_t blk); /* image to fill for blk (zeroed when new) */
txn_blk *txn_entry(txn *t, uint64_t blk);  /* the same, as the entry (a new one logs it whole) */
/* journal_commit flags */
#define JC_FLUSH 0x1u   /* durable: flush the device after the record, then checkpoint */
#define JC_ORDERED 0x2u /* flush earlier data writes before the record (J4); header flag */
#define JC_UNLOCK 0x4u  /* release fs->lock around the device I/O (caller holds fs->jbusy) */
/* Writes t to the journal. Without JC_FLUSH the record reaches the kernel but not stable
 * storage, and its metadata images wait in fs->pend for the next flush. REQUIRES: fs->lock
 * held, no other journal writer (fs->jbusy clear, or set by the caller for JC_UNLOCK). */
int journal_commit(ulfs *fs, txn *t, unsigned flags);
/* Makes every journal record and data write issued so far durable (one device flush, with
 * fs->lock released around it) and checkpoints the images that waited for it. Writers go on
 * meanwhile: what they write stays pending for the next flush. REQUIRES: fs->lock held. */
int journal_harden(ulfs *fs);
/* Replays committed transactions from sb->journal_head; returns count or negative errno. On
 * return end_pos (a block index: the block after the last record, 0 at the journal's end; a
 * valid superblock head) and end_seq are where the next transaction goes. */
int journal_replay(ulfs_dev *dev, const superblock *sb, bool apply, uint64_t *end_pos,
                   uint64_t *end_seq);

/* bitmaps */
static inline bool bit_get(const uint8_t *bm, uint64_t i) { return (bm[i >> 3] >> (i & 7)) & 1; }
static inline void bit_set(uint8_t *bm, uint64_t i) { bm[i >> 3] |= (uint8_t)(1u << (i & 7)); }
static inline void bit_clr(uint8_t *bm, uint64_t i) { bm[i >> 3] &= (uint8_t)~(1u << (i & 7)); }
/* Allocates up to `want` contiguous blocks near `goal` (at least 1); returns count or -ENOSPC. */
int64_t balloc_run(ulfs *fs, uint64_t goal, uint64_t want, uint64_t *start);
void bfree_mem(ulfs *fs, uint64_t start, uint64_t len);

/* inodes and extents */
inode_m *iget(ulfs *fs, uint64_t ino, int *err);
int inode_new(ulfs *fs, uint32_t mode, inode_m **out);
void inode_forget(ulfs *fs, inode_m *ip);
/* Physical block of logical block lblk, 0 when it is a hole; *contig gets how many following
 * logical blocks are physically contiguous (including this one). */
uint64_t ext_map(const inode_m *ip, uint64_t lblk, uint64_t *contig);
int ext_add(inode_m *ip, uint64_t lblk, uint64_t pblk, uint64_t len);
/* Drops mappings at or beyond lblk, recording them in ip->pfree. */
int ext_truncate(inode_m *ip, uint64_t lblk);
int pfree_add(inode_m *ip, uint64_t start, uint64_t len, bool journaled);
/* Fills the images of fixed metadata blocks (bitmaps, inode table) in t from memory. */
void txn_finalize(ulfs *fs, txn *t);
uint64_t ext_blocks(const inode_m *ip);
/* Adds the inode's persisted form (table slot, bitmaps, overflow blocks) to t. */
int inode_persist(ulfs *fs, inode_m *ip, txn *t);
void inode_free_mem(inode_m *ip); /* frees an in-memory inode and what it owns */
void inode_decode(const uint8_t *slot, inode_m *ip, uint64_t *xblk);
int itable_block(ulfs *fs, uint64_t blk, uint8_t **img);
/* After a commit: releases ip->pfree into the allocator (or quarantine for journaled blocks). */
void inode_release_pfree(ulfs *fs, inode_m *ip);

/* directories */
int dir_load(ulfs *fs, inode_m *dp);
dirent_m *dir_find(dir_m *d, const char *name, size_t nlen);
int dir_add(ulfs *fs, inode_m *dp, const char *name, size_t nlen, uint64_t ino, uint8_t type);
void dir_remove(inode_m *dp, dirent_m *e);
int dir_persist(ulfs *fs, inode_m *dp, txn *t);
void dir_free(dir_m *d);
/* Parses one directory block; calls fn per entry; returns -EUCLEAN if malformed. */
int dir_parse_block(const uint8_t *blk, int (*fn)(void *arg, const char *name, size_t nlen,
                                                  uint64_t ino, uint8_t type),
                    void *arg);

/* access trace (trace.c, docs/format/ulfs-trace.md) */
typedef struct trace trace;
#define TRACE_OP_WRITE 0x1 /* record op bits (docs/format/ulfs-trace.md) */
#define TRACE_OP_HIT 0x2
#define TRACE_OP_DROP 0x4
int trace_open(const char *path, trace **out);
/* Appends one demand access; write errors stop the trace (logged once). */
void trace_access(trace *t, const inode_m *ip, uint64_t idx, const cache_acc *a, bool write,
                  bool hit);
/* Appends a drop: pages [idx, idx + n) of ip left the cache by unlink, truncate or DONTNEED
 * (n = UINT32_MAX: to the end of the file). */
void trace_drop(trace *t, const inode_m *ip, uint64_t idx, uint32_t n);
int trace_close(trace *t);

/* data path (fs.c) */
/* Without log: writes the file's dirty pages home; the inode is marked wb_unlogged unless every
 * page written was journal-only with no change since it was logged. With log (hflush): writes
 * nothing; allocates blocks for unmapped pages and adds the changed bytes of every page
 * changed since it was last written home or logged to log as data images (JDATA); those pages
 * stay dirty as journal-only (PG_JLOG). */
int inode_writeback(ulfs *fs, inode_m *ip, txn *log);
/* Writes every journal-only page home (only into the kernel); a page changed since it was
 * logged stays dirty with those changes, the others become clean. Called before an ORDERED
 * record and before the journal head moves (journal.c J5). REQUIRES: fs->lock held. */
int jlog_home(ulfs *fs);

#endif
