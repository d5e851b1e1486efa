/* fs.c -- mkfs, mount/unmount, the namespace operations and the data path.
 *
 * Concurrency: one mutex (fs->lock) serialises every operation, including the device I/O it
 * issues; the flusher thread takes the same lock. This is deliberately coarse: correctness of
 * the journal, the two bitmaps and the cache is argued under mutual exclusion. The one
 * exception is the group commit (sync_group): its leader releases the lock around the device
 * flushes and the journal write of a commit, with fs->jbusy set so no other journal writer
 * runs; every other commit waits for jbusy to clear first (journal_wait).
 *
 * Durability contract (docs/ulfs.md "Durability"):
 *  - create, mkdir, rename, unlink, rmdir, truncate, ftruncate and fallocate are committed to the
 *    journal (device flushed) before they return, each as one transaction;
 *  - written data reaches the device at fsync/fdatasync, close, by the flusher, or on eviction;
 *    fsync returns only after data and the inode's metadata are on stable storage; concurrent
 *    fsyncs share one commit and its flushes (group commit);
 *  - hflush returns once the file's new data and metadata are written to the device (one
 *    journal record holding both, without a device flush; the pages stay dirty and go home
 *    later, journal.c J5): in the kernel, so they survive the death of the process, but not a
 *    power loss until the next flush (any fsync, namespace operation or the flusher);
 *  - a failed write-back leaves its pages dirty and records the error on the inode; the next
 *    fsync (or close) returns it.
 * After a failed metadata commit the in-memory state may be ahead of the device, so the file
 * system turns "broken": every later change returns that error (remount to recover).
 */

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define MAX_FILE_BLOCKS ((uint64_t)UINT32_MAX)

/* ================================ mkfs ================================================ */

int ulfs_mkfs(ulfs_dev *dev, const ulfs_mkfs_opts *opts) {
  superblock sb;
  memset(&sb, 0, sizeof sb);
  uint64_t total = dev->size / BS;
  sb.magic = ULFS_MAGIC;
  sb.version = ULFS_VERSION;
  sb.block_size = BS;
  sb.total_blocks = total;
  if (getrandom(sb.uuid, sizeof sb.uuid, 0) != (ssize_t)sizeof sb.uuid) return -EIO;
  uint64_t jb = opts && opts->journal_blocks ? opts->journal_blocks : total / 64;
  if (jb < 256) jb = 256;
  if (jb > 32768) jb = 32768;
  uint64_t ni = opts && opts->inode_count ? opts->inode_count : total / 16;
  if (ni < 1024) ni = 1024;
  ni = (ni + INODES_PER_BLOCK - 1) / INODES_PER_BLOCK * INODES_PER_BLOCK;
  sb.journal_start = 2;
  sb.journal_blocks = jb;
  sb.bbitmap_start = sb.journal_start + jb;
  sb.bbitmap_blocks = (total + BS * 8 - 1) / (BS * 8);
  sb.ibitmap_start = sb.bbitmap_start + sb.bbitmap_blocks;
  sb.ibitmap_blocks = (ni + BS * 8 - 1) / (BS * 8);
  sb.itable_start = sb.ibitmap_start + sb.ibitmap_blocks;
  sb.itable_blocks = ni / INODES_PER_BLOCK;
  sb.inode_count = ni;
  sb.data_start = sb.itable_start + sb.itable_blocks;
  if (sb.data_start + 64 > total) return -ENOSPC;
  /* A random first sequence number: stale transactions of an earlier file system on the same
   * image can never match it (the first journal block is zeroed as well). */
  if (getrandom(&sb.journal_seq, sizeof sb.journal_seq, 0) != sizeof sb.journal_seq) return -EIO;
  sb.journal_seq >>= 1;
  sb.clean = 1;

  uint8_t *buf = ulfs_alloc_aligned((size_t)BOUNCE_PAGES * BS);
  if (!buf) return -ENOMEM;
  int rc = ulfs_dev_write(dev, buf, sb.journal_start * BS, BS);
  /* zero bitmaps and inode table, then mark the metadata area and the root inode used */
  for (uint64_t b = sb.bbitmap_start; rc == 0 && b < sb.data_start; b += BOUNCE_PAGES) {
    uint64_t n = sb.data_start - b < BOUNCE_PAGES ? sb.data_start - b : BOUNCE_PAGES;
    rc = ulfs_dev_write(dev, buf, b * BS, n * BS);
  }
  for (uint64_t b0 = 0; rc == 0 && b0 < sb.bbitmap_blocks; b0 += BOUNCE_PAGES) {
    uint64_t n = sb.bbitmap_blocks - b0 < BOUNCE_PAGES ? sb.bbitmap_blocks - b0 : BOUNCE_PAGES;
    memset(buf, 0, n * BS);
    bool any = false;
    for (uint64_t bit = b0 * BS * 8; bit < sb.data_start && bit < (b0 + n) * BS * 8; bit++) {
      bit_set(buf, bit - b0 * BS * 8);
      any = true;
    }
    if (any) rc = ulfs_dev_write(dev, buf, (sb.bbitmap_start + b0) * BS, n * BS);
  }
  if (rc == 0) {
    memset(buf, 0, BS);
    bit_set(buf, 0); /* inode 1, the root */
    rc = ulfs_dev_write(dev, buf, sb.ibitmap_start * BS, BS);
  }
  if (rc == 0) {
    memset(buf, 0, BS);
    uint32_t mode = S_IFDIR | 0755, nlink = 1;
    int64_t now = ulfs_now_ns();
    memcpy(buf, &mode, 4);
    memcpy(buf + 4, &nlink, 4);
    memcpy(buf + 16, &now, 8);
    memcpy(buf + 24, &now, 8);
    rc = ulfs_dev_write(dev, buf, sb.itable_start * BS, BS);
  }
  free(buf);
  if (rc == 0) rc = ulfs_dev_flush(dev);
  /* both superblock slots valid (generations 1 and 2) */
  if (rc == 0) rc = sb_write(dev, &sb);
  if (rc == 0) rc = sb_write(dev, &sb);
  if (rc == 0) rc = ulfs_dev_flush(dev);
  return rc;
}

/* ================================ helpers ============================================== */

/* Waits until no group commit is writing the journal (it releases fs->lock meanwhile).
 * REQUIRES: fs->lock held. */
static void journal_wait(ulfs *fs) {
  while (fs->jbusy) pthread_cond_wait(&fs->jcv, &fs->lock);
}

static void mark_broken(ulfs *fs, int rc) {
  ulfs_log(ULFS_LOG_ERROR, "metadata commit failed (%s); file system is read-only until "
           "remounted", strerror(-rc));
  if (!fs->broken) fs->broken = rc;
}

/* After a successful ORDERED commit of ip: its freed blocks may be reused, and every block it
 * wrote home is durable, so no logged image of it can be replayed any more (journal.c J5). */
static void committed_ordered(ulfs *fs, inode_m *ip) {
  inode_release_pfree(fs, ip);
  ip->wb_unlogged = false;
}

/* One ORDERED, durable transaction of the given inodes (NULL entries skipped). */
static int commit(ulfs *fs, inode_m **ips, int n) {
  journal_wait(fs);
  txn t;
  txn_init(&t);
  int rc = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    if (!ips[i]) continue;
    if (ips[i]->dir) rc = dir_persist(fs, ips[i], &t);
    if (rc == 0) rc = inode_persist(fs, ips[i], &t);
  }
  if (rc == 0) {
    txn_finalize(fs, &t);
    rc = journal_commit(fs, &t, JC_FLUSH | JC_ORDERED);
  }
  txn_free(&t);
  if (rc) {
    mark_broken(fs, rc);
    return rc;
  }
  for (int i = 0; i < n; i++)
    if (ips[i]) committed_ordered(fs, ips[i]);
  return 0;
}

/* Looks up `path`. With want_parent, resolves everything but the last component and returns it
 * in name and nlen (an empty last component means the root itself). */
static int walk(ulfs *fs, const char *path, bool want_parent, inode_m **out, const char **name,
                size_t *nlen) {
  if (!path || path[0] != '/') return -EINVAL;
  if (strlen(path) >= ULFS_PATH_MAX) return -ENAMETOOLONG;
  int err = 0;
  inode_m *cur = iget(fs, ULFS_ROOT_INO, &err);
  if (!cur) return err;
  const char *p = path;
  for (;;) {
    while (*p == '/') p++;
    const char *e = p;
    while (*e && *e != '/') e++;
    size_t l = (size_t)(e - p);
    const char *q = e;
    while (*q == '/') q++;
    bool last = *q == 0;
    if (l == 0) { /* the path is the root */
      if (want_parent) return -EBUSY;
      *out = cur;
      return 0;
    }
    if (l > ULFS_NAME_MAX) return -ENAMETOOLONG;
    if ((l == 1 && p[0] == '.') || (l == 2 && p[0] == '.' && p[1] == '.')) return -EINVAL;
    if (!S_ISDIR(cur->mode)) return -ENOTDIR;
    if (last && want_parent) {
      *out = cur;
      *name = p;
      *nlen = l;
      return 0;
    }
    int rc = dir_load(fs, cur);
    if (rc) return rc;
    dirent_m *d = dir_find(cur->dir, p, l);
    if (!d) return -ENOENT;
    inode_m *nx = iget(fs, d->ino, &err);
    if (!nx) return err;
    cur = nx;
    if (last) {
      *out = cur;
      return 0;
    }
    p = e;
  }
}

static int lookup_parent(ulfs *fs, const char *path, inode_m **parent, const char **name,
                         size_t *nlen, inode_m **child) {
  int rc = walk(fs, path, true, parent, name, nlen);
  if (rc) return rc;
  if ((rc = dir_load(fs, *parent)) != 0) return rc;
  *child = NULL;
  dirent_m *d = dir_find((*parent)->dir, *name, *nlen);
  if (d) {
    int err = 0;
    *child = iget(fs, d->ino, &err);
    if (!*child) return err;
  }
  return 0;
}

static void jlog_mark(ulfs *fs, inode_m *ip, page *pg, bool on);

static void drop_pages_from(ulfs *fs, inode_m *ip, uint64_t first_idx) {
  if (fs->trace && ip->pages) trace_drop(fs->trace, ip, first_idx, UINT32_MAX);
  for (page *pg = ip->pages, *nx; pg; pg = nx) {
    nx = pg->inext;
    if (pg->idx < first_idx) continue;
    jlog_mark(fs, ip, pg, false); /* its bytes are discarded, so is the need to write them home */
    cache_remove(&fs->cache, pg, ip, false);
  }
}

/* Frees an unlinked, closed inode on disk and in memory. */
static int inode_destroy(ulfs *fs, inode_m *ip) {
  drop_pages_from(fs, ip, 0);
  int rc = ext_truncate(ip, 0);
  if (rc) return rc;
  ip->size = 0;
  if (ip->persisted) {
    inode_m *one[1] = {ip};
    if ((rc = commit(fs, one, 1)) != 0) return rc;
  } else {
    inode_release_pfree(fs, ip);
  }
  inode_forget(fs, ip);
  return 0;
}

/* ================================ data path ============================================ */

static int cmp_page_idx(const void *a, const void *b) {
  const page *x = *(page *const *)a, *y = *(page *const *)b;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Writes `n` pages (consecutive indexes) to physical blocks starting at pblk: one device write,
 * through the bounce buffer when n > 1; `cached`: only into the kernel (ulfs_dev_write_cached). */
static int write_pages(ulfs *fs, page **pg, uint64_t n, uint64_t pblk, bool cached) {
  int (*wr)(ulfs_dev *, const void *, uint64_t, size_t) =
      cached ? ulfs_dev_write_cached : ulfs_dev_write;
  if (n == 1) return wr(fs->dev, pg[0]->data, pblk * BS, BS);
  for (uint64_t i = 0; i < n; i++) memcpy(fs->bounce + i * BS, pg[i]->data, BS);
  return wr(fs->dev, fs->bounce, pblk * BS, n * BS);
}

/* Adds the images of n pages of ip at pblk to log as data images, with the bytes an inode
 * record must carry (journal.c J6): the page's changes since it was last written home or
 * logged, the whole page when its block was just allocated (`fresh`: the home block holds none
 * of it, and the record is its only copy until jlog_home), and up to the end of the file on its
 * last page, past which the block is zero (P1). */
static int log_pages(txn *log, const inode_m *ip, page **pg, uint64_t n, uint64_t pblk,
                     bool fresh) {
  for (uint64_t k = 0; k < n; k++) {
    txn_blk *e = txn_entry(log, (pblk + k) | JDATA);
    if (!e) return -ENOMEM;
    memcpy(e->img, pg[k]->data, BS);
    uint64_t start = pg[k]->idx * BS;
    e->lo = fresh ? 0 : pg[k]->dlo;
    e->hi = fresh ? BS : pg[k]->dhi;
    if (ip->size < start + BS) { /* the file's last page */
      e->hi = ip->size > start ? (uint16_t)(ip->size - start) : 0;
      e->zero_tail = true;
    }
    if (e->lo > e->hi) e->lo = e->hi;
  }
  return 0;
}

/* A journal-only page with no change since its record: an hflush has nothing to log of it,
 * and writing it home needs no record either (its bytes are those the records replay, J5). */
static bool jlog_settled(const page *pg) { return (pg->flags & PG_JLOG) && pg->dlo >= pg->dhi; }

static void jlog_mark(ulfs *fs, inode_m *ip, page *pg, bool on) {
  if (!(pg->flags & PG_JLOG) == !on) return;
  if (on) {
    pg->flags |= PG_JLOG;
    ip->njlog++;
    fs->njlog++;
  } else {
    pg->flags &= (uint8_t)~PG_JLOG;
    ip->njlog--;
    fs->njlog--;
  }
}

/* What writeback does with a file's dirty pages: write them all home (WB_HOME: eviction, the
 * flusher, fsync), log those changed since last written home or logged and keep them dirty as
 * journal-only (WB_LOG: hflush), or write the journal-only ones home (WB_JLOG: jlog_home). */
typedef enum { WB_HOME, WB_LOG, WB_JLOG } wb_mode;

static int writeback(ulfs *fs, inode_m *ip, txn *log, wb_mode mode) {
  if (ip->ndirty == 0) return 0;
  page **v = malloc(ip->ndirty * sizeof *v);
  if (!v) return -ENOMEM;
  uint64_t n = 0, seen = 0;
  /* New pages go to the head of ip->pages, so an append's dirty pages are found first; the
   * walk stops at the last dirty page instead of visiting every cached page of the file. */
  for (page *pg = ip->pages; pg && seen < ip->ndirty; pg = pg->inext) {
    if (!pg->dirty) continue;
    seen++;
    if (mode == WB_LOG ? jlog_settled(pg) : mode == WB_JLOG && !(pg->flags & PG_JLOG)) continue;
    v[n++] = pg;
  }
  qsort(v, n, sizeof *v, cmp_page_idx);
  int first_err = 0;
  uint64_t i = 0;
  while (i < n) {
    /* a run of consecutive page indexes, at most BOUNCE_PAGES long */
    uint64_t j = i + 1;
    while (j < n && j - i < BOUNCE_PAGES && v[j]->idx == v[j - 1]->idx + 1) j++;
    uint64_t contig;
    uint64_t p = ext_map(ip, v[i]->idx, &contig);
    uint64_t len = j - i < contig ? j - i : contig;
    /* WB_HOME and WB_JLOG only need reach the kernel when a record or flush follows */
    bool cached = mode != WB_HOME, fresh = !p;
    int rc = 0;
    if (p) {
      if (mode != WB_LOG) rc = write_pages(fs, v + i, len, p, cached);
    } else {
      /* Delayed allocation: place the run right after the file's previous block if free. Data
       * is written (or logged, and the record written) before the extent is persisted, so a
       * failed write leaves no persisted mapping to uninitialised blocks. */
      uint64_t goal = 0, unused;
      if (v[i]->idx > 0) goal = ext_map(ip, v[i]->idx - 1, &unused);
      goal = goal ? goal + 1 : 0;
      int64_t got = balloc_run(fs, goal, len, &p);
      if (got < 0) {
        rc = (int)got;
      } else {
        len = (uint64_t)got;
        if (mode != WB_LOG) rc = write_pages(fs, v + i, len, p, cached);
        if (rc == 0) rc = ext_add(ip, v[i]->idx, p, len);
        if (rc) bfree_mem(fs, p, len);
        else ip->meta_dirty = true;
      }
    }
    if (rc == 0 && mode == WB_LOG) rc = log_pages(log, ip, v + i, len, p, fresh);
    for (uint64_t k = i; mode == WB_HOME && k < i + len; k++)
      if (!jlog_settled(v[k])) ip->wb_unlogged = true;
    if (rc) {
      atomic_fetch_add(&fs->c_wb_errors, len);
      if (!first_err) first_err = rc;
      if (!ip->wb_err) ip->wb_err = rc; /* the pages stay dirty (C2) */
      i += len;
      continue;
    }
    for (uint64_t k = i; k < i + len; k++) {
      page *pg = v[k];
      if (mode == WB_LOG) { /* logged: the range now counts changes since the record */
        jlog_mark(fs, ip, pg, true);
        pg->dlo = BS;
        pg->dhi = 0;
        continue;
      }
      /* changed since logged: stays dirty, and the next record logs those bytes again */
      bool keep = mode == WB_JLOG && pg->dlo < pg->dhi;
      jlog_mark(fs, ip, pg, false);
      if (!keep) cache_set_dirty(&fs->cache, pg, ip, false);
    }
    if (mode != WB_LOG) {
      atomic_fetch_add(&fs->c_writebacks, len);
      fs->data_unflushed = true;
      fs->unflushed_gen++;
    }
    i += len;
  }
  free(v);
  return first_err;
}

int inode_writeback(ulfs *fs, inode_m *ip, txn *log) {
  return writeback(fs, ip, log, log ? WB_LOG : WB_HOME);
}

int jlog_home(ulfs *fs) {
  int rc = 0;
  for (size_t h = 0; h < fs->nihash && fs->njlog && rc == 0; h++)
    for (inode_m *ip = fs->ihash[h]; ip && rc == 0; ip = ip->hnext)
      if (ip->njlog) rc = writeback(fs, ip, NULL, WB_JLOG);
  return rc;
}

/* The in-memory inode ino, NULL when it is not loaded (never reads the device). */
static inode_m *inode_cached(ulfs *fs, uint64_t ino) {
  for (inode_m *ip = fs->ihash[ino % fs->nihash]; ip; ip = ip->hnext)
    if (ip->ino == ino) return ip;
  return NULL;
}

static inode_m *inode_of_page(ulfs *fs, page *pg) { return inode_cached(fs, pg->ino); }

/* A free frame, evicting the policy's first clean victim; when every page is dirty, writes back
 * the file of the coldest dirty page first. */
static page *get_frame(ulfs *fs, int *err) {
  for (int attempt = 0; attempt < 3; attempt++) {
    page *pg = cache_take_frame(&fs->cache);
    if (pg) return pg;
    page *dirty_victim;
    page *v = cache_victim(&fs->cache, &dirty_victim);
    if (v) {
      cache_remove(&fs->cache, v, inode_of_page(fs, v), true);
      atomic_fetch_add(&fs->c_evictions, 1);
      return cache_take_frame(&fs->cache);
    }
    if (!dirty_victim) break;
    int rc = inode_writeback(fs, inode_of_page(fs, dirty_victim), NULL);
    if (rc) {
      *err = rc;
      return NULL;
    }
  }
  *err = -ENOMEM;
  return NULL;
}

/* The cache's view of an access to ip through a stream of the given role. */
static cache_acc acc_of(const inode_m *ip, uint8_t role, bool prefetch) {
  return (cache_acc){.kind = ip->kind, .level = ip->level, .role = role, .prefetch = prefetch};
}

/* Makes pages [idx, idx+n) of ip resident (those not cached yet), reading mapped ones from the
 * device in physically contiguous batches; stops early at the first page already cached. Pages
 * from idx + demand on are readahead (PG_READAHEAD). */
static int fill_pages(ulfs *fs, inode_m *ip, uint64_t idx, uint64_t n, uint64_t demand,
                      const cache_acc *a) {
  uint64_t eof_pages = (ip->size + BS - 1) / BS;
  cache_acc ahead = *a;
  ahead.readahead = true;
  uint64_t i = 0;
  while (i < n) {
    if (cache_lookup(&fs->cache, ip->ino, idx + i)) break;
    uint64_t contig;
    uint64_t p = idx + i < eof_pages ? ext_map(ip, idx + i, &contig) : 0;
    if (idx + i >= eof_pages) contig = n - i;
    uint64_t m = n - i < contig ? n - i : contig;
    if (m > BOUNCE_PAGES) m = BOUNCE_PAGES;
    if (m > fs->cache.npages / 4) m = fs->cache.npages / 4; /* readahead never floods it */
    uint64_t k = 1;
    while (k < m && !cache_lookup(&fs->cache, ip->ino, idx + i + k)) k++;
    m = k;
    /* frames first: taking one may write back dirty pages through the bounce buffer */
    page *frames[BOUNCE_PAGES];
    int rc = 0;
    for (uint64_t j = 0; j < m; j++) {
      frames[j] = get_frame(fs, &rc);
      if (!frames[j]) {
        while (j--) cache_remove_frame(&fs->cache, frames[j]);
        return rc;
      }
    }
    if (p && (rc = ulfs_dev_read(fs->dev, fs->bounce, p * BS, m * BS)) != 0) {
      for (uint64_t j = 0; j < m; j++) cache_remove_frame(&fs->cache, frames[j]);
      return rc;
    }
    for (uint64_t j = 0; j < m; j++) {
      page *pg = frames[j];
      if (p) memcpy(pg->data, fs->bounce + j * BS, BS);
      else memset(pg->data, 0, BS);
      pg->ino = ip->ino;
      pg->idx = idx + i + j;
      pg->valid = true;
      cache_insert(&fs->cache, pg, ip, i + j >= demand ? &ahead : a);
    }
    i += m;
  }
  return 0;
}

/* Makes the pages of [first, last) that exist in the file resident (WILLNEED, prefetcher), at
 * most half of the cache, so that a hint never flushes the whole cache. */
static int fill_range(ulfs *fs, inode_m *ip, uint64_t first, uint64_t last, const cache_acc *a) {
  uint64_t eof = (ip->size + BS - 1) / BS;
  if (last > eof) last = eof;
  uint64_t cap = fs->cache.npages / 2;
  for (uint64_t i = first; i < last && i - first < cap; i += BOUNCE_PAGES) {
    uint64_t n = last - i < BOUNCE_PAGES ? last - i : BOUNCE_PAGES;
    for (uint64_t k = 0; k < n; k++) {
      if (cache_lookup(&fs->cache, ip->ino, i + k)) continue;
      int rc = fill_pages(fs, ip, i + k, n - k, n - k, a);
      if (rc) return rc;
      break;
    }
  }
  return 0;
}

/* Counts a demand access (C4) and records it in the trace. */
static void note_access(ulfs *fs, inode_m *ip, uint64_t idx, page *pg, const cache_acc *a,
                        bool write) {
  if (pg) {
    atomic_fetch_add(&fs->c_hits, 1);
    cache_hit(&fs->cache, pg, a);
  } else {
    atomic_fetch_add(&fs->c_misses, 1);
    cache_miss(&fs->cache, ip->ino, idx, a);
  }
  if (fs->trace) trace_access(fs->trace, ip, idx, a, write, pg != NULL);
}

/* The page idx of ip for a demand access (write: a partial-page write reads it first). A miss
 * reads the `need` pages the access asks for from idx on, or `ra` pages when more. */
static page *get_page(ulfs *fs, inode_m *ip, uint64_t idx, uint64_t need, uint64_t ra,
                      const cache_acc *a, bool write, int *err) {
  page *pg = cache_lookup(&fs->cache, ip->ino, idx);
  note_access(fs, ip, idx, pg, a, write);
  if (pg) return pg;
  uint64_t n = ra > need ? ra : need;
  if (n > fs->cache.npages / 4) n = fs->cache.npages / 4; /* readahead never floods the cache */
  if (n > BOUNCE_PAGES) n = BOUNCE_PAGES; /* the rest of a long read: the caller's next page */
  if (n == 0) n = 1;
  int rc = fill_pages(fs, ip, idx, n, need, a);
  if (rc) {
    *err = rc;
    return NULL;
  }
  pg = cache_lookup(&fs->cache, ip->ino, idx);
  if (!pg && (ra > 1 || need > 1)) { /* the batch evicted its own first page: fetch it alone */
    if ((rc = fill_pages(fs, ip, idx, 1, 1, a)) != 0) {
      *err = rc;
      return NULL;
    }
    pg = cache_lookup(&fs->cache, ip->ino, idx);
  }
  if (!pg) *err = -EIO;
  return pg;
}

static fdesc *getfd(ulfs *fs, int fd) {
  if (fd < 0 || fd >= fs->nfds || !fs->fds[fd].used) return NULL;
  return &fs->fds[fd];
}

/* The readahead window for a read of pages [first, last] through f, updating f's stream state
 * (docs/ulfs.md "Readahead"). As the kernel's on-demand readahead: a read that starts on the page
 * where the previous one ended, or on the next, continues a sequential stream and grows the
 * window (RA_MIN_PAGES, doubling up to RA_MAX_PAGES); any other read collapses it to 0, so a
 * random read brings in exactly the pages it asks for. fill_pages caps the batch to a quarter of
 * the cache. */
static uint64_t readahead_window(fdesc *f, uint64_t first, uint64_t last) {
  uint32_t win;
  if (f->advice == POSIX_FADV_RANDOM) win = 0;
  else if (f->advice == POSIX_FADV_SEQUENTIAL) win = RA_MAX_PAGES;
  else if (f->ra_seen && (first == f->ra_last || first == f->ra_last + 1))
    win = f->ra_win == 0 ? RA_MIN_PAGES : f->ra_win * 2 > RA_MAX_PAGES ? RA_MAX_PAGES : f->ra_win * 2;
  else win = 0;
  f->ra_last = last;
  f->ra_seen = true;
  f->ra_win = win;
  return win;
}

/* Queues one prefetch unit; a full queue drops it (prefetching is only an optimisation). */
static void prefetch_enqueue(ulfs *fs, uint64_t ino, uint64_t idx, uint64_t n) {
  if (fs->pfq_len == PF_QUEUE) return;
  fs->pfq[(fs->pfq_head + fs->pfq_len++) % PF_QUEUE] = (pf_req){.ino = ino, .idx = idx, .n = n};
  pthread_cond_signal(&fs->prefetch_cv);
}

/* Compaction inputs are read ahead in 1 MB units: the next unit is queued as soon as the reader
 * is in the second half of the last one queued (a jump restarts the sequence at the reader). */
static void prefetch_advance(ulfs *fs, fdesc *f, uint64_t idx) {
  uint64_t eof = (f->ip->size + BS - 1) / BS;
  if (f->pf_end == 0 || idx + 2 * PF_UNIT_PAGES < f->pf_end || idx >= f->pf_end) f->pf_end = idx;
  if (idx + PF_UNIT_PAGES / 2 >= f->pf_end && f->pf_end < eof) {
    uint64_t n = eof - f->pf_end < PF_UNIT_PAGES ? eof - f->pf_end : PF_UNIT_PAGES;
    prefetch_enqueue(fs, f->ip->ino, f->pf_end, n);
    f->pf_end += n;
  }
}

/* role: the role of this read (the descriptor's unless ulfs_pread_as says otherwise). */
static ssize_t do_pread(ulfs *fs, fdesc *f, void *buf, size_t len, uint64_t off, uint8_t role) {
  inode_m *ip = f->ip;
  cache_acc a = acc_of(ip, role, false);
  if (S_ISDIR(ip->mode)) return -EISDIR;
  if (off >= ip->size || len == 0) return 0;
  if (len > ip->size - off) len = (size_t)(ip->size - off);
  if (len > SSIZE_MAX) len = SSIZE_MAX;
  uint64_t ra = readahead_window(f, off / BS, (off + len - 1) / BS);
  size_t done = 0;
  while (done < len) {
    uint64_t pos = off + done, idx = pos / BS, in = pos % BS;
    size_t n = BS - in < len - done ? BS - in : len - done;
    uint64_t need = (len - done + in + BS - 1) / BS;
    int err = 0;
    if (role == ULFS_ROLE_COMPACTION_INPUT) prefetch_advance(fs, f, idx);
    page *pg = get_page(fs, ip, idx, need, ra, &a, false, &err);
    if (!pg) return done ? (ssize_t)done : err;
    memcpy((uint8_t *)buf + done, pg->data + in, n);
    done += n;
  }
  return (ssize_t)done;
}

static ssize_t do_pwrite(ulfs *fs, fdesc *f, const void *buf, size_t len, uint64_t off) {
  inode_m *ip = f->ip;
  if (fs->broken) return fs->broken;
  if (len == 0) return 0;
  if (off + len < off || (off + len + BS - 1) / BS > MAX_FILE_BLOCKS) return -EFBIG;
  if (len > SSIZE_MAX) len = SSIZE_MAX;
  cache_acc a = acc_of(ip, f->role, false);
  size_t done = 0;
  while (done < len) {
    uint64_t pos = off + done, idx = pos / BS, in = pos % BS;
    size_t n = BS - in < len - done ? BS - in : len - done;
    page *pg = cache_lookup(&fs->cache, ip->ino, idx);
    int err = 0;
    bool fresh = false; /* built in memory: its home block holds none of its bytes */
    if (pg) {
      note_access(fs, ip, idx, pg, &a, true);
    } else if (n == BS || idx >= (ip->size + BS - 1) / BS) {
      fresh = true;
      /* whole page, or a page past EOF: nothing to read (P1: bytes past EOF are zero) */
      note_access(fs, ip, idx, NULL, &a, true);
      pg = get_frame(fs, &err);
      if (pg) {
        memset(pg->data, 0, BS);
        pg->ino = ip->ino;
        pg->idx = idx;
        pg->valid = true;
        cache_insert(&fs->cache, pg, ip, &a);
      }
    } else {
      pg = get_page(fs, ip, idx, 1, 0, &a, true, &err);
    }
    if (!pg) return done ? (ssize_t)done : err;
    memcpy(pg->data + in, (const uint8_t *)buf + done, n);
    if (pg->dirty) {
      if (in < pg->dlo) pg->dlo = (uint16_t)in;
      if (in + n > pg->dhi) pg->dhi = (uint16_t)(in + n);
    } else {
      cache_set_dirty(&fs->cache, pg, ip, true);
      pg->dlo = fresh ? 0 : (uint16_t)in;
      pg->dhi = (uint16_t)(in + n);
    }
    done += n;
    if (pos + n > ip->size) ip->size = pos + n;
    if (ip->size / BS == idx && ip->size % BS) pg->flags |= PG_PARTIAL; /* lsm-arc rule c */
    else pg->flags &= (uint8_t)~PG_PARTIAL;
  }
  ip->mtime_ns = ulfs_now_ns();
  ip->meta_dirty = true;
  return (ssize_t)done;
}

/* Group commit. A sync queues its inode and takes a ticket; while no commit is running, one of
 * the waiting syncs leads: it takes the whole queue, builds one transaction of the queued
 * inodes and commits it ORDERED with fs->lock released around the flush before the record, the
 * record write and the flush after it. Syncs arriving meanwhile write their data home and
 * queue; the next leader commits all of them with one record and two flushes. A ticket is done
 * when a commit that started after it was taken completed (sync_done). */
static int lead_group(ulfs *fs) {
  fs->jbusy = true;
  uint64_t upto = fs->sync_req;
  inode_m **q = fs->syncq;
  uint32_t n = fs->nsyncq;
  fs->syncq = NULL;
  fs->nsyncq = fs->syncqcap = 0;
  txn t;
  txn_init(&t);
  int rc = 0;
  for (uint32_t i = 0; i < n && rc == 0; i++) {
    q[i]->sync_queued = false;
    if (q[i]->meta_dirty && (q[i]->nlink > 0 || q[i]->persisted))
      rc = inode_persist(fs, q[i], &t);
  }
  if (rc == 0) {
    txn_finalize(fs, &t);
    rc = journal_commit(fs, &t, JC_FLUSH | JC_ORDERED | JC_UNLOCK);
  }
  txn_free(&t);
  if (rc) {
    mark_broken(fs, rc);
  } else {
    for (uint32_t i = 0; i < n; i++) committed_ordered(fs, q[i]);
    fs->sync_done = upto;
  }
  free(q);
  fs->jbusy = false;
  pthread_cond_broadcast(&fs->jcv);
  return rc;
}

/* Makes ip's metadata (already written home data) and everything written before durable,
 * sharing the commit with concurrent callers. ip may be NULL (only a flush is needed). */
static int sync_group(ulfs *fs, inode_m *ip) {
  if (ip && ip->meta_dirty && (ip->nlink > 0 || ip->persisted) && !ip->sync_queued) {
    if (fs->nsyncq == fs->syncqcap) {
      uint32_t nc = fs->syncqcap ? fs->syncqcap * 2 : 16;
      inode_m **nq = realloc(fs->syncq, nc * sizeof *nq);
      if (!nq) return -ENOMEM;
      fs->syncq = nq;
      fs->syncqcap = nc;
    }
    fs->syncq[fs->nsyncq++] = ip;
    ip->sync_queued = true;
  }
  uint64_t ticket = ++fs->sync_req;
  fs->c_syncs++;
  while (fs->sync_done < ticket) {
    if (fs->broken) return fs->broken;
    if (!fs->jbusy) {
      int rc = lead_group(fs);
      if (rc) return rc;
      continue;
    }
    fs->c_sync_waiters++;
    pthread_cond_wait(&fs->jcv, &fs->lock);
    fs->c_sync_waiters--;
  }
  return 0;
}

/* Writes back the file and commits its metadata; the device is flushed before returning. */
static int sync_inode(ulfs *fs, inode_m *ip) {
  int rc = inode_writeback(fs, ip, NULL);
  int wb = ip->wb_err;
  ip->wb_err = 0;
  if (rc == 0 && fs->broken) rc = fs->broken;
  if (rc == 0) rc = sync_group(fs, ip);
  return wb ? wb : rc;
}

/* Most pages one hflush logs; a larger write-back is synced instead (journal space). */
static uint64_t hflush_log_max(const ulfs *fs) {
  uint64_t m = fs->sb.journal_blocks / 8;
  return m < 64 ? m : 64;
}

/* hflush: one journal record with the inode's metadata and the bytes of its pages changed since
 * they were last written home or logged, without a device flush and without writing the pages
 * home: they stay dirty as journal-only (PG_JLOG) until the flusher, an eviction, fsync or
 * jlog_home writes them (docs/ulfs.md "Durability"). Falls back to a sync when the record
 * cannot stand alone: pages written home unlogged since the last ORDERED commit (J5), blocks
 * being freed (frees are ORDERED), or too many changed pages. */
static int hflush_inode(ulfs *fs, inode_m *ip) {
  journal_wait(fs);
  fs->c_hflushes++;
  if (fs->broken) return fs->broken;
  if (ip->ndirty == 0 && !ip->meta_dirty && !ip->wb_err) return 0;
  int rc = 0;
  /* Journal-only pages pile up between flusher passes; past the limit they go home (which
   * needs no record: J5), so the limit counts only pages with changes to log. */
  if (ip->njlog && ip->ndirty > hflush_log_max(fs)) rc = writeback(fs, ip, NULL, WB_JLOG);
  if (rc) return rc;
  if (ip->wb_unlogged || ip->npfree || ip->ndirty > hflush_log_max(fs) ||
      !(ip->nlink > 0 && ip->persisted))
    return sync_inode(fs, ip);
  txn t;
  txn_init(&t);
  rc = inode_writeback(fs, ip, &t);
  int wb = ip->wb_err;
  ip->wb_err = 0;
  bool any = t.n || ip->meta_dirty; /* else nothing changed since the last record */
  if (rc == 0 && any) rc = inode_persist(fs, ip, &t);
  if (rc == 0 && any) {
    txn_finalize(fs, &t);
    /* an inode record (with the changed bytes of extent overflow blocks); frees made it a
     * sync above */
    t.ino = ip->ino;
    rc = journal_commit(fs, &t, 0);
    if (rc) mark_broken(fs, rc);
  }
  if (rc || wb) ip->wb_unlogged = true; /* pages may be home without their record */
  txn_free(&t);
  return wb ? wb : rc;
}

/* Sets the size; shrinking drops pages and blocks past it and zeroes the tail of the new last
 * page (P1), growing leaves a hole. Commits. */
static int do_truncate(ulfs *fs, inode_m *ip, uint64_t size) {
  if (S_ISDIR(ip->mode)) return -EISDIR;
  if ((size + BS - 1) / BS > MAX_FILE_BLOCKS) return -EFBIG;
  if (fs->broken) return fs->broken;
  if (size < ip->size) {
    uint64_t keep = (size + BS - 1) / BS;
    drop_pages_from(fs, ip, keep);
    int rc = ext_truncate(ip, keep);
    if (rc) return rc;
    if (size % BS) {
      int err = 0;
      cache_acc a = acc_of(ip, ULFS_ROLE_USER, false);
      page *pg = get_page(fs, ip, size / BS, 1, 0, &a, true, &err);
      if (!pg) return err;
      memset(pg->data + size % BS, 0, BS - size % BS);
      cache_set_dirty(&fs->cache, pg, ip, true);
    }
  }
  ip->size = size;
  ip->mtime_ns = ip->ctime_ns = ulfs_now_ns();
  ip->meta_dirty = true;
  inode_m *one[1] = {ip};
  return commit(fs, one, 1);
}

/* ================================ flusher ============================================== */

static void flush_all(ulfs *fs) {
  /* Once no group commit runs, none can start while this holds the lock, so the commits below
   * never wait (and never release the lock under the walk of the inode hash). */
  journal_wait(fs);
  inode_m *batch[64];
  int nb = 0;
  for (size_t h = 0; h < fs->nihash; h++) {
    for (inode_m *ip = fs->ihash[h]; ip; ip = ip->hnext) {
      /* A write-back error stays on the inode for the next fsync; the inode's metadata is then
       * not committed either, so no failed data is ever made reachable. */
      if (ip->ndirty && inode_writeback(fs, ip, NULL) != 0) continue;
      if (ip->meta_dirty && ip->nlink > 0 && !fs->broken) {
        batch[nb++] = ip;
        if (nb == 64) {
          commit(fs, batch, nb);
          nb = 0;
        }
      }
    }
  }
  if (nb && !fs->broken) commit(fs, batch, nb);
  /* hflushed records become durable within one interval, as with ext4's commit interval;
   * hflushes, reads and writes go on during the device flush */
  if (!fs->broken && (fs->journal_unflushed || fs->pend.n)) {
    int rc = journal_harden(fs);
    if (rc) mark_broken(fs, rc);
  }
}

static void *flusher_main(void *arg) {
  ulfs *fs = arg;
  pthread_mutex_lock(&fs->lock);
  while (!fs->stopping) {
    struct timespec ts = ulfs_deadline_ms(fs->flush_interval_ms);
    pthread_cond_timedwait(&fs->flusher_cv, &fs->lock, &ts);
    if (fs->stopping) break;
    flush_all(fs);
  }
  pthread_mutex_unlock(&fs->lock);
  return NULL;
}

/* The prefetcher thread: reads queued units of compaction inputs into the cache (as
 * compaction-input pages marked PG_PREFETCHED). A read error is not reported here: the demand
 * read of the same page meets it again and returns it to its caller. */
static void *prefetcher_main(void *arg) {
  ulfs *fs = arg;
  pthread_mutex_lock(&fs->lock);
  while (!fs->stopping) {
    if (fs->pfq_len == 0) {
      /* Every unit dequeued so far was read under fs->lock, so the queue is done with. */
      pthread_cond_broadcast(&fs->prefetch_idle_cv);
      pthread_cond_wait(&fs->prefetch_cv, &fs->lock);
      continue;
    }
    pf_req r = fs->pfq[fs->pfq_head];
    fs->pfq_head = (fs->pfq_head + 1) % PF_QUEUE;
    fs->pfq_len--;
    inode_m *ip = inode_cached(fs, r.ino);
    if (!ip || ip->nlink == 0) continue; /* removed since the request was queued */
    cache_acc a = acc_of(ip, ULFS_ROLE_COMPACTION_INPUT, true);
    (void)fill_range(fs, ip, r.idx, r.idx + r.n, &a);
  }
  pthread_mutex_unlock(&fs->lock);
  return NULL;
}

/* The prefetcher reads a unit while holding fs->lock from dequeue to the end of the read, so an
 * empty queue seen under the lock means every queued unit has been read. */
void ulfs_prefetch_wait(ulfs *fs) {
  pthread_mutex_lock(&fs->lock);
  while (fs->pfq_len > 0 && fs->prefetcher_started && !fs->stopping)
    pthread_cond_wait(&fs->prefetch_idle_cv, &fs->lock);
  pthread_mutex_unlock(&fs->lock);
}

static void stop_threads(ulfs *fs) {
  pthread_mutex_lock(&fs->lock);
  fs->stopping = true;
  pthread_cond_signal(&fs->flusher_cv);
  pthread_cond_signal(&fs->prefetch_cv);
  pthread_cond_broadcast(&fs->prefetch_idle_cv);
  pthread_mutex_unlock(&fs->lock);
  if (fs->flusher_started) pthread_join(fs->flusher, NULL);
  if (fs->prefetcher_started) pthread_join(fs->prefetcher, NULL);
  fs->flusher_started = fs->prefetcher_started = false;
}

/* ================================ mount ================================================ */

static void fs_free(ulfs *fs) {
  if (fs->ihash) {
    for (size_t h = 0; h < fs->nihash; h++) {
      for (inode_m *ip = fs->ihash[h], *nx; ip; ip = nx) {
        nx = ip->hnext;
        inode_free_mem(ip);
      }
    }
  }
  if (fs->ithash) {
    for (size_t h = 0; h < fs->nithash; h++) {
      for (struct itblk *b = fs->ithash[h], *nx; b; b = nx) {
        nx = b->next;
        free(b->img);
        free(b);
      }
    }
  }
  cache_destroy(&fs->cache);
  if (fs->trace) trace_close(fs->trace);
  if (fs->pub) stats_pub_free(fs->pub);
  free(fs->ihash);
  free(fs->ithash);
  free(fs->balloc);
  free(fs->bdisk);
  free(fs->ialloc);
  free(fs->idisk);
  free(fs->quar);
  free(fs->fds);
  free(fs->bounce);
  free(fs->jopen);
  pthread_mutex_destroy(&fs->lock);
  pthread_cond_destroy(&fs->flusher_cv);
  pthread_cond_destroy(&fs->prefetch_cv);
  pthread_cond_destroy(&fs->prefetch_idle_cv);
  pthread_cond_destroy(&fs->jcv);
  txn_free(&fs->pend);
  free(fs->syncq);
  free(fs);
}

static uint64_t count_bits(const uint8_t *bm, uint64_t nbits) {
  uint64_t c = 0;
  for (uint64_t i = 0; i < nbits / 8; i++) c += (uint64_t)__builtin_popcount(bm[i]);
  for (uint64_t i = nbits / 8 * 8; i < nbits; i++) c += bit_get(bm, i);
  return c;
}

/* After a crash, inodes that were unlinked while open are still allocated: free them. */
static int free_orphans(ulfs *fs) {
  for (uint64_t i = 1; i < fs->sb.inode_count; i++) {
    if (!bit_get(fs->idisk, i)) continue;
    int err = 0;
    inode_m *ip = iget(fs, i + 1, &err);
    if (!ip) return err;
    if (ip->nlink == 0) {
      int rc = inode_destroy(fs, ip);
      if (rc) return rc;
    }
  }
  return 0;
}

int ulfs_mount(ulfs_dev *dev, const ulfs_mount_opts *opts, ulfs **out) {
  ulfs *fs = calloc(1, sizeof *fs);
  if (!fs) return -ENOMEM;
  pthread_mutex_init(&fs->lock, NULL);
  pthread_cond_init(&fs->flusher_cv, NULL);
  pthread_cond_init(&fs->prefetch_cv, NULL);
  pthread_cond_init(&fs->prefetch_idle_cv, NULL);
  pthread_cond_init(&fs->jcv, NULL);
  fs->dev = dev;
  int rc = sb_read_best(dev, &fs->sb);
  if (rc) goto fail;
  if (fs->sb.total_blocks > dev->size / BS) {
    rc = -EUCLEAN;
    goto fail;
  }
  uint64_t end_pos, end_seq;
  rc = journal_replay(dev, &fs->sb, true, &end_pos, &end_seq);
  if (rc < 0) goto fail;
  fs->c_replayed = (uint64_t)rc;
  if (rc) ulfs_log(ULFS_LOG_INFO, "replayed %d journal transaction(s)", rc);
  bool was_clean = fs->sb.clean && rc == 0;
  fs->jbyte = end_pos * BS;
  fs->jseq = end_seq;
  fs->sb.journal_head = end_pos;
  fs->sb.journal_seq = end_seq;
  fs->sb.clean = 0;
  /* An older version's image is now this version's (its journal is replayed): records of this
   * version may follow, which an older reader must refuse rather than misread. */
  fs->sb.version = ULFS_VERSION;
  if ((rc = sb_write(dev, &fs->sb)) != 0 || (rc = ulfs_dev_flush(dev)) != 0) goto fail;

  size_t bbytes = fs->sb.bbitmap_blocks * BS, ibytes = fs->sb.ibitmap_blocks * BS;
  fs->bdisk = ulfs_alloc_aligned(bbytes);
  fs->balloc = malloc(bbytes);
  fs->idisk = ulfs_alloc_aligned(ibytes);
  fs->ialloc = malloc(ibytes);
  fs->bounce = ulfs_alloc_aligned((size_t)BOUNCE_PAGES * BS);
  fs->jopen = ulfs_alloc_aligned(BS);
  fs->nihash = 4099;
  fs->ihash = calloc(fs->nihash, sizeof *fs->ihash);
  fs->nithash = 1021;
  fs->ithash = calloc(fs->nithash, sizeof *fs->ithash);
  fs->nfds = 64;
  fs->fds = calloc((size_t)fs->nfds, sizeof *fs->fds);
  if (!fs->bdisk || !fs->balloc || !fs->idisk || !fs->ialloc || !fs->bounce || !fs->jopen ||
      !fs->ihash || !fs->ithash || !fs->fds) {
    rc = -ENOMEM;
    goto fail;
  }
  if ((rc = ulfs_dev_read(dev, fs->bdisk, fs->sb.bbitmap_start * BS, bbytes)) != 0) goto fail;
  if ((rc = ulfs_dev_read(dev, fs->idisk, fs->sb.ibitmap_start * BS, ibytes)) != 0) goto fail;
  memcpy(fs->balloc, fs->bdisk, bbytes);
  memcpy(fs->ialloc, fs->idisk, ibytes);
  fs->free_blocks = fs->sb.total_blocks - count_bits(fs->bdisk, fs->sb.total_blocks);
  fs->free_inodes = fs->sb.inode_count - count_bits(fs->idisk, fs->sb.inode_count);
  fs->alloc_hint = fs->sb.data_start;

  uint64_t cb = opts && opts->cache_bytes ? opts->cache_bytes : 64ull << 20;
  if ((rc = cache_init(&fs->cache, cb / BS, opts ? opts->cache_policy : NULL, true)) != 0)
    goto fail;
  if (opts && opts->trace_path && (rc = trace_open(opts->trace_path, &fs->trace)) != 0)
    goto fail;
  if (dev->ops->register_buffer)
    dev->ops->register_buffer(dev, fs->cache.arena, fs->cache.npages * BS);
  fs->flush_interval_ms = opts && opts->flush_interval_ms ? opts->flush_interval_ms : 1000;

  int err = 0;
  if (!iget(fs, ULFS_ROOT_INO, &err)) {
    rc = err;
    goto fail;
  }
  if (!was_clean && (rc = free_orphans(fs)) != 0) goto fail;
  if (pthread_create(&fs->flusher, NULL, flusher_main, fs) != 0) {
    rc = -EAGAIN;
    goto fail;
  }
  fs->flusher_started = true;
  if (pthread_create(&fs->prefetcher, NULL, prefetcher_main, fs) != 0) {
    rc = -EAGAIN;
    goto fail;
  }
  fs->prefetcher_started = true;
  if (opts && opts->stats_path &&
      (rc = stats_pub_start(fs, opts->stats_path, opts->stats_interval_ms, &fs->pub)) != 0)
    ulfs_log(ULFS_LOG_WARN, "counters not published to %s: %s", opts->stats_path,
             strerror(-rc)); /* the file system works without them */
  *out = fs;
  return 0;
fail:
  stop_threads(fs);
  fs_free(fs);
  return rc;
}

int ulfs_shutdown(ulfs *fs) {
  pthread_mutex_lock(&fs->lock);
  bool shut = fs->shut;
  pthread_mutex_unlock(&fs->lock);
  if (shut) return 0;
  if (fs->pub) stats_pub_stop(fs->pub); /* it takes fs->lock: before taking it here */
  stop_threads(fs);
  int first = 0;
  for (int fd = 0; fd < fs->nfds; fd++) {
    if (!fs->fds[fd].used) continue;
    int rc = ulfs_close(fs, fd);
    if (rc && !first) first = rc;
  }
  pthread_mutex_lock(&fs->lock);
  flush_all(fs);
  for (size_t h = 0; h < fs->nihash && !first; h++)
    for (inode_m *ip = fs->ihash[h]; ip; ip = ip->hnext)
      if (ip->ndirty || ip->wb_err) first = ip->wb_err ? ip->wb_err : -EIO;
  if (!first && fs->broken) first = fs->broken;
  if (!first) {
    int rc = ulfs_dev_flush(fs->dev);
    if (rc == 0) {
      /* the next record starts at a block boundary, as after a replay */
      uint64_t head = (fs->jbyte + BS - 1) / BS;
      fs->sb.journal_head = head < fs->sb.journal_blocks ? head : 0;
      fs->sb.journal_seq = fs->jseq;
      fs->sb.clean = 1;
      rc = sb_write(fs->dev, &fs->sb);
    }
    if (rc == 0) rc = ulfs_dev_flush(fs->dev);
    first = rc;
  }
  if (fs->trace) {
    int rc = trace_close(fs->trace);
    fs->trace = NULL;
    if (rc && !first) first = rc;
  }
  fs->shut = true;
  /* Nothing touches the device from now on: another process may mount it at once, even while
   * this one keeps it open (the JVM's exit hook; an exiting process's io_uring rings are torn
   * down asynchronously and would keep the lock meanwhile). */
  ulfs_dev_unlock(fs->dev);
  pthread_mutex_unlock(&fs->lock);
  return first;
}

int ulfs_unmount(ulfs *fs) {
  int rc = ulfs_shutdown(fs);
  fs_free(fs);
  return rc;
}

/* ================================ namespace API ======================================== */

/* Runs expr under fs->lock: each public call below is LOCKED(fs, <name>_locked(...)), and a
 * *_locked function assumes the lock is held (REQUIRES) and never takes it. After ulfs_shutdown
 * the call fails with -ESHUTDOWN instead; COUNTED runs expr regardless (read-only counters). */
#define LOCKED(fs, expr)                                       \
  ({                                                           \
    pthread_mutex_lock(&(fs)->lock);                           \
    __typeof__(expr) r_ = (fs)->shut ? -ESHUTDOWN : (expr);    \
    pthread_mutex_unlock(&(fs)->lock);                         \
    r_;                                                        \
  })
#define COUNTED(fs, expr)               \
  ({                                    \
    pthread_mutex_lock(&(fs)->lock);    \
    __typeof__(expr) r_ = (expr);       \
    pthread_mutex_unlock(&(fs)->lock);  \
    r_;                                 \
  })

static int alloc_fd(ulfs *fs, inode_m *ip, int flags) {
  for (int i = 0; i < fs->nfds; i++) {
    if (!fs->fds[i].used) {
      fs->fds[i] = (fdesc){.ip = ip, .pos = 0, .flags = flags, .advice = 0, .used = true};
      ip->opens++;
      return i;
    }
  }
  int n = fs->nfds * 2;
  fdesc *nf = realloc(fs->fds, (size_t)n * sizeof *nf);
  if (!nf) return -ENOMEM;
  memset(nf + fs->nfds, 0, (size_t)(n - fs->nfds) * sizeof *nf);
  fs->fds = nf;
  fs->nfds = n;
  return alloc_fd(fs, ip, flags);
}

/* REQUIRES: fs->lock held. */
static int open_locked(ulfs *fs, const char *path, int flags, mode_t mode) {
  inode_m *parent, *ip;
  const char *name;
  size_t nlen;
  int acc = flags & O_ACCMODE;
  int rc = walk(fs, path, false, &ip, NULL, NULL);
  if (rc == -ENOENT && (flags & O_CREAT)) {
    if (fs->broken) return fs->broken;
    if ((rc = lookup_parent(fs, path, &parent, &name, &nlen, &ip)) != 0) return rc;
    if (ip) return -EEXIST; /* raced: impossible under the lock, kept for clarity of intent */
    if ((rc = inode_new(fs, S_IFREG | (mode & 07777), &ip)) != 0) return rc;
    if ((rc = dir_add(fs, parent, name, nlen, ip->ino, DT_REG)) != 0) {
      inode_forget(fs, ip);
      return rc;
    }
    inode_m *two[2] = {parent, ip};
    if ((rc = commit(fs, two, 2)) != 0) return rc;
    return alloc_fd(fs, ip, flags);
  }
  if (rc) return rc;
  if ((flags & O_CREAT) && (flags & O_EXCL)) return -EEXIST;
  if (S_ISDIR(ip->mode)) {
    if (acc != O_RDONLY) return -EISDIR;
  } else if (flags & O_DIRECTORY) {
    return -ENOTDIR;
  }
  if ((flags & O_TRUNC) && acc != O_RDONLY && ip->size > 0 &&
      (rc = do_truncate(fs, ip, 0)) != 0)
    return rc;
  return alloc_fd(fs, ip, flags);
}

int ulfs_open(ulfs *fs, const char *path, int flags, mode_t mode) {
  return LOCKED(fs, open_locked(fs, path, flags, mode));
}

/* REQUIRES: fs->lock held. */
static int close_locked(ulfs *fs, int fd) {
  fdesc *f = getfd(fs, fd);
  if (!f) return -EBADF;
  inode_m *ip = f->ip;
  int acc = f->flags & O_ACCMODE;
  /* close of a writer makes the file durable (see the durability contract above); before the
   * descriptor goes, so the inode stays while a group commit releases the lock */
  int rc = 0;
  if (acc != O_RDONLY && ip->nlink > 0 && (ip->ndirty || ip->meta_dirty || ip->wb_err))
    rc = sync_inode(fs, ip);
  f->used = false;
  ip->opens--;
  if (ip->nlink == 0 && ip->opens == 0) return inode_destroy(fs, ip);
  return rc;
}

int ulfs_close(ulfs *fs, int fd) { return LOCKED(fs, close_locked(fs, fd)); }

/* REQUIRES: fs->lock held. */
static ssize_t rw_locked(ulfs *fs, int fd, void *buf, size_t len, int64_t off, bool wr,
                         int role) {
  fdesc *f = getfd(fs, fd);
  if (!f) return -EBADF;
  int acc = f->flags & O_ACCMODE;
  if (wr && acc == O_RDONLY) return -EBADF;
  if (!wr && acc == O_WRONLY) return -EBADF;
  bool positional = off >= 0;
  uint64_t pos = positional ? (uint64_t)off : f->pos;
  if (wr && !positional && (f->flags & O_APPEND)) pos = f->ip->size;
  if (role < -1 || role >= ULFS_ROLE_COUNT) return -EINVAL;
  uint8_t r8 = role < 0 ? f->role : (uint8_t)role;
  ssize_t r = wr ? do_pwrite(fs, f, buf, len, pos) : do_pread(fs, f, buf, len, pos, r8);
  if (r > 0 && !positional) f->pos = pos + (uint64_t)r;
  return r;
}

ssize_t ulfs_read(ulfs *fs, int fd, void *buf, size_t len) {
  return LOCKED(fs, rw_locked(fs, fd, buf, len, -1, false, -1));
}
ssize_t ulfs_write(ulfs *fs, int fd, const void *buf, size_t len) {
  return LOCKED(fs, rw_locked(fs, fd, (void *)buf, len, -1, true, -1));
}
ssize_t ulfs_pread(ulfs *fs, int fd, void *buf, size_t len, uint64_t off) {
  if (off > INT64_MAX) return -EINVAL;
  return LOCKED(fs, rw_locked(fs, fd, buf, len, (int64_t)off, false, -1));
}

ssize_t ulfs_pread_as(ulfs *fs, int fd, void *buf, size_t len, uint64_t off, int role) {
  return LOCKED(fs, rw_locked(fs, fd, buf, len, (int64_t)off, false, role));
}
ssize_t ulfs_pwrite(ulfs *fs, int fd, const void *buf, size_t len, uint64_t off) {
  if (off > INT64_MAX) return -EINVAL;
  return LOCKED(fs, rw_locked(fs, fd, (void *)buf, len, (int64_t)off, true, -1));
}

/* REQUIRES: fs->lock held. */
static int64_t lseek_locked(ulfs *fs, int fd, int64_t off, int whence) {
  fdesc *f = getfd(fs, fd);
  if (!f) return -EBADF;
  int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (int64_t)f->pos
               : whence == SEEK_END ? (int64_t)f->ip->size : -1;
  if (base < 0) return -EINVAL;
  if ((off < 0 && base + off < 0) || (off > 0 && base > INT64_MAX - off)) return -EINVAL;
  f->pos = (uint64_t)(base + off);
  return (int64_t)f->pos;
}

int64_t ulfs_lseek(ulfs *fs, int fd, int64_t off, int whence) {
  return LOCKED(fs, lseek_locked(fs, fd, off, whence));
}

/* REQUIRES: fs->lock held. */
static int fsync_locked(ulfs *fs, int fd) {
  fdesc *f = getfd(fs, fd);
  if (!f) return -EBADF;
  return sync_inode(fs, f->ip);
}

int ulfs_fsync(ulfs *fs, int fd) { return LOCKED(fs, fsync_locked(fs, fd)); }

/* REQUIRES: fs->lock held. */
static int hflush_locked(ulfs *fs, int fd) {
  fdesc *f = getfd(fs, fd);
  if (!f) return -EBADF;
  return hflush_inode(fs, f->ip);
}

int ulfs_hflush(ulfs *fs, int fd) { return LOCKED(fs, hflush_locked(fs, fd)); }
/* The size is metadata needed to read the data back, so fdatasync commits it too; the
 * difference to fsync would only be timestamps, which are committed alongside anyway. */
int ulfs_fdatasync(ulfs *fs, int fd) { return ulfs_fsync(fs, fd); }

/* REQUIRES: fs->lock held. */
static int ftruncate_locked(ulfs *fs, int fd, uint64_t size) {
  fdesc *f = getfd(fs, fd);
  if (!f) return -EBADF;
  if ((f->flags & O_ACCMODE) == O_RDONLY) return -EBADF;
  return do_truncate(fs, f->ip, size);
}

int ulfs_ftruncate(ulfs *fs, int fd, uint64_t size) {
  return LOCKED(fs, ftruncate_locked(fs, fd, size));
}

/* REQUIRES: fs->lock held. */
static int truncate_locked(ulfs *fs, const char *path, uint64_t size) {
  inode_m *ip;
  int rc = walk(fs, path, false, &ip, NULL, NULL);
  return rc ? rc : do_truncate(fs, ip, size);
}

int ulfs_truncate(ulfs *fs, const char *path, uint64_t size) {
  return LOCKED(fs, truncate_locked(fs, path, size));
}

/* REQUIRES: fs->lock held. */
static int fallocate_locked(ulfs *fs, int fd, int mode, uint64_t off, uint64_t len) {
  fdesc *f = getfd(fs, fd);
  if (!f) return -EBADF;
  if ((f->flags & O_ACCMODE) == O_RDONLY) return -EBADF;
  if (mode & ~FALLOC_FL_KEEP_SIZE) return -EOPNOTSUPP;
  if (len == 0) return -EINVAL;
  if (off + len < off || (off + len + BS - 1) / BS > MAX_FILE_BLOCKS) return -EFBIG;
  if (fs->broken) return fs->broken;
  inode_m *ip = f->ip;
  if (S_ISDIR(ip->mode)) return -EISDIR;
  uint64_t l = off / BS, end = (off + len + BS - 1) / BS;
  memset(fs->bounce, 0, (size_t)BOUNCE_PAGES * BS);
  while (l < end) {
    uint64_t contig;
    uint64_t p = ext_map(ip, l, &contig);
    uint64_t n = end - l < contig ? end - l : contig;
    if (p) {
      l += n;
      continue;
    }
    if (cache_lookup(&fs->cache, ip->ino, l)) { /* a dirty page will be allocated later */
      l++;
      continue;
    }
    if (n > BOUNCE_PAGES) n = BOUNCE_PAGES;
    uint64_t k = 1;
    while (k < n && !cache_lookup(&fs->cache, ip->ino, l + k)) k++;
    uint64_t unused, goal = l ? ext_map(ip, l - 1, &unused) : 0;
    int64_t got = balloc_run(fs, goal ? goal + 1 : 0, k, &p);
    if (got < 0) return (int)got;
    /* allocated blocks must read as zeros: write zeros before mapping them */
    int rc = ulfs_dev_write(fs->dev, fs->bounce, p * BS, (uint64_t)got * BS);
    if (rc == 0) rc = ext_add(ip, l, p, (uint64_t)got);
    if (rc) {
      bfree_mem(fs, p, (uint64_t)got);
      return rc;
    }
    fs->data_unflushed = true;
    fs->unflushed_gen++;
    l += (uint64_t)got;
  }
  if (!(mode & FALLOC_FL_KEEP_SIZE) && off + len > ip->size) ip->size = off + len;
  ip->meta_dirty = true;
  inode_m *one[1] = {ip};
  return commit(fs, one, 1);
}

int ulfs_fallocate(ulfs *fs, int fd, int mode, uint64_t off, uint64_t len) {
  return LOCKED(fs, fallocate_locked(fs, fd, mode, off, len));
}

/* Drops the clean pages of [first, last) of ip; dirty ones stay (C2). */
static void drop_clean(ulfs *fs, inode_m *ip, uint64_t first, uint64_t last) {
  if (fs->trace && ip->pages)
    trace_drop(fs->trace, ip, first,
               last - first > UINT32_MAX ? UINT32_MAX : (uint32_t)(last - first));
  for (page *pg = ip->pages, *nx; pg; pg = nx) {
    nx = pg->inext;
    if (!pg->dirty && pg->idx >= first && pg->idx < last) cache_remove(&fs->cache, pg, ip, false);
  }
}

/* REQUIRES: fs->lock held. */
static int fadvise_locked(ulfs *fs, int fd, uint64_t off, uint64_t len, int advice) {
  fdesc *f = getfd(fs, fd);
  if (!f) return -EBADF;
  inode_m *ip = f->ip;
  uint64_t first = off / BS;
  uint64_t last = len == 0 ? UINT64_MAX : (off + len + BS - 1) / BS;
  switch (advice) {
    case POSIX_FADV_NORMAL:
    case POSIX_FADV_SEQUENTIAL:
    case POSIX_FADV_RANDOM:
      f->advice = advice;
      return 0;
    case POSIX_FADV_NOREUSE:
      return 0;
    case POSIX_FADV_DONTNEED:
      drop_clean(fs, ip, first, last);
      return 0;
    case POSIX_FADV_WILLNEED: {
      cache_acc a = acc_of(ip, f->role, false);
      return fill_range(fs, ip, first, last, &a);
    }
    default:
      return -EINVAL;
  }
}

int ulfs_fadvise(ulfs *fs, int fd, uint64_t off, uint64_t len, int advice) {
  return LOCKED(fs, fadvise_locked(fs, fd, off, len, advice));
}

static void fill_stat(const inode_m *ip, ulfs_stat *st) {
  st->ino = ip->ino;
  st->mode = ip->mode;
  st->nlink = ip->nlink;
  st->size = ip->size;
  st->blocks = ext_blocks(ip);
  st->mtime_ns = ip->mtime_ns;
  st->ctime_ns = ip->ctime_ns;
}

/* REQUIRES: fs->lock held. */
static int stat_locked(ulfs *fs, const char *path, ulfs_stat *st) {
  inode_m *ip;
  int rc = walk(fs, path, false, &ip, NULL, NULL);
  if (rc == 0) fill_stat(ip, st);
  return rc;
}

int ulfs_stat_path(ulfs *fs, const char *path, ulfs_stat *st) {
  return LOCKED(fs, stat_locked(fs, path, st));
}

/* REQUIRES: fs->lock held. */
static int fstat_locked(ulfs *fs, int fd, ulfs_stat *st) {
  fdesc *f = getfd(fs, fd);
  if (!f) return -EBADF;
  fill_stat(f->ip, st);
  return 0;
}

int ulfs_fstat(ulfs *fs, int fd, ulfs_stat *st) { return LOCKED(fs, fstat_locked(fs, fd, st)); }

/* REQUIRES: fs->lock held. */
static int access_locked(ulfs *fs, const char *path, int mode) {
  inode_m *ip;
  int rc = walk(fs, path, false, &ip, NULL, NULL);
  if (rc) return rc;
  if ((mode & R_OK) && !(ip->mode & S_IRUSR)) return -EACCES;
  if ((mode & W_OK) && !(ip->mode & S_IWUSR)) return -EACCES;
  if ((mode & X_OK) && !(ip->mode & S_IXUSR)) return -EACCES;
  return 0;
}

int ulfs_access(ulfs *fs, const char *path, int mode) {
  return LOCKED(fs, access_locked(fs, path, mode));
}

/* REQUIRES: fs->lock held. */
static int mkdir_locked(ulfs *fs, const char *path, mode_t mode) {
  inode_m *parent, *ip;
  const char *name;
  size_t nlen;
  if (fs->broken) return fs->broken;
  int rc = lookup_parent(fs, path, &parent, &name, &nlen, &ip);
  if (rc == -EBUSY) return -EEXIST; /* the root */
  if (rc) return rc;
  if (ip) return -EEXIST;
  if ((rc = inode_new(fs, S_IFDIR | (mode & 07777), &ip)) != 0) return rc;
  ip->dir = calloc(1, sizeof(dir_m));
  if (!ip->dir || (rc = dir_add(fs, parent, name, nlen, ip->ino, DT_DIR)) != 0) {
    inode_forget(fs, ip);
    return rc ? rc : -ENOMEM;
  }
  inode_m *two[2] = {parent, ip};
  return commit(fs, two, 2);
}

int ulfs_mkdir(ulfs *fs, const char *path, mode_t mode) {
  return LOCKED(fs, mkdir_locked(fs, path, mode));
}

/* REQUIRES: fs->lock held. */
static int remove_locked(ulfs *fs, const char *path, bool dir) {
  inode_m *parent, *ip;
  const char *name;
  size_t nlen;
  if (fs->broken) return fs->broken;
  int rc = lookup_parent(fs, path, &parent, &name, &nlen, &ip);
  if (rc == -EBUSY) return dir ? -EBUSY : -EISDIR; /* the root */
  if (rc) return rc;
  if (!ip) return -ENOENT;
  if (dir) {
    if (!S_ISDIR(ip->mode)) return -ENOTDIR;
    if ((rc = dir_load(fs, ip)) != 0) return rc;
    if (ip->dir->n) return -ENOTEMPTY;
  } else if (S_ISDIR(ip->mode)) {
    return -EISDIR;
  }
  dir_remove(parent, dir_find(parent->dir, name, nlen));
  ip->nlink = 0;
  ip->ctime_ns = ulfs_now_ns();
  ip->meta_dirty = true;
  if (ip->opens == 0) {
    drop_pages_from(fs, ip, 0);
    if ((rc = ext_truncate(ip, 0)) != 0) return rc;
    ip->size = 0;
  }
  inode_m *two[2] = {parent, ip};
  if ((rc = commit(fs, two, 2)) != 0) return rc;
  if (ip->opens == 0) inode_forget(fs, ip);
  return 0;
}

int ulfs_unlink(ulfs *fs, const char *path) { return LOCKED(fs, remove_locked(fs, path, false)); }
int ulfs_rmdir(ulfs *fs, const char *path) { return LOCKED(fs, remove_locked(fs, path, true)); }

/* REQUIRES: fs->lock held. */
static int rename_locked(ulfs *fs, const char *from, const char *to) {
  inode_m *fp, *fip, *tp, *tip;
  const char *fname, *tname;
  size_t fl, tl;
  if (fs->broken) return fs->broken;
  int rc = lookup_parent(fs, from, &fp, &fname, &fl, &fip);
  if (rc) return rc;
  if (!fip) return -ENOENT;
  rc = lookup_parent(fs, to, &tp, &tname, &tl, &tip);
  if (rc == -EBUSY) return -EEXIST;
  if (rc) return rc;
  if (fip == tip) return 0;
  if (S_ISDIR(fip->mode)) {
    /* a directory cannot move below itself: paths are canonical (no links, no dot entries), so
     * a prefix test on the resolved names decides it */
    size_t flen = strlen(from);
    while (flen > 1 && from[flen - 1] == '/') flen--;
    if (strncmp(to, from, flen) == 0 && (to[flen] == '/' || to[flen] == 0)) return -EINVAL;
  }
  if (tip) {
    if (S_ISDIR(fip->mode) && !S_ISDIR(tip->mode)) return -ENOTDIR;
    if (!S_ISDIR(fip->mode) && S_ISDIR(tip->mode)) return -EISDIR;
    if (S_ISDIR(tip->mode)) {
      if ((rc = dir_load(fs, tip)) != 0) return rc;
      if (tip->dir->n) return -ENOTEMPTY;
    }
  }
  if (!tip) { /* add first: the only step that can fail for lack of space */
    if ((rc = dir_add(fs, tp, tname, tl, fip->ino, S_ISDIR(fip->mode) ? DT_DIR : DT_REG)) != 0)
      return rc;
  } else {
    dirent_m *te = dir_find(tp->dir, tname, tl);
    te->ino = fip->ino;
    te->type = S_ISDIR(fip->mode) ? DT_DIR : DT_REG;
    tp->dir->blk_dirty[te->blk] = 1;
    tp->meta_dirty = true;
    tip->nlink = 0;
    tip->meta_dirty = true;
    if (tip->opens == 0) {
      drop_pages_from(fs, tip, 0);
      if ((rc = ext_truncate(tip, 0)) != 0) return rc;
      tip->size = 0;
    }
  }
  dir_remove(fp, dir_find(fp->dir, fname, fl));
  fip->ctime_ns = ulfs_now_ns();
  inode_m *set[3] = {fp, tp != fp ? tp : NULL, tip};
  if ((rc = commit(fs, set, 3)) != 0) return rc;
  if (tip && tip->opens == 0) inode_forget(fs, tip);
  return 0;
}

int ulfs_rename(ulfs *fs, const char *from, const char *to) {
  return LOCKED(fs, rename_locked(fs, from, to));
}

/* REQUIRES: fs->lock held. */
static int getdents_locked(ulfs *fs, const char *path, uint64_t *cookie, void *buf, size_t len) {
  inode_m *ip;
  int rc = walk(fs, path, false, &ip, NULL, NULL);
  if (rc) return rc;
  if (!S_ISDIR(ip->mode)) return -ENOTDIR;
  if ((rc = dir_load(fs, ip)) != 0) return rc;
  size_t used = 0;
  while (*cookie < ip->dir->n) {
    const dirent_m *e = &ip->dir->ents[*cookie];
    size_t nl = strlen(e->name);
    size_t rl = (sizeof(ulfs_dirent) + nl + 1 + 7) & ~(size_t)7;
    if (used + rl > len) break;
    ulfs_dirent *d = (ulfs_dirent *)((uint8_t *)buf + used);
    d->ino = e->ino;
    d->reclen = (uint16_t)rl;
    d->type = e->type;
    memcpy(d->name, e->name, nl + 1);
    used += rl;
    (*cookie)++;
  }
  if (used == 0 && *cookie < ip->dir->n) return -EINVAL; /* buffer smaller than one record */
  return (int)used;
}

int ulfs_getdents(ulfs *fs, const char *path, uint64_t *cookie, void *buf, size_t len) {
  return LOCKED(fs, getdents_locked(fs, path, cookie, buf, len));
}

/* REQUIRES: fs->lock held. */
static int statfs_locked(ulfs *fs, ulfs_statfs *st) {
  st->block_size = BS;
  st->blocks = fs->sb.total_blocks - fs->sb.data_start;
  st->blocks_free = fs->free_blocks;
  st->inodes = fs->sb.inode_count;
  st->inodes_free = fs->free_inodes;
  return 0;
}

int ulfs_statfs_get(ulfs *fs, ulfs_statfs *st) { return COUNTED(fs, statfs_locked(fs, st)); }

/* REQUIRES: fs->lock held. */
static int counters_locked(ulfs *fs, ulfs_counters *c) {
  ulfs_dev *d = fs->dev;
  c->dev_reads = atomic_load(&d->reads);
  c->dev_writes = atomic_load(&d->writes);
  c->dev_flushes = atomic_load(&d->flushes);
  c->dev_read_bytes = atomic_load(&d->read_bytes);
  c->dev_write_bytes = atomic_load(&d->write_bytes);
  c->cache_hits = atomic_load(&fs->c_hits);
  c->cache_misses = atomic_load(&fs->c_misses);
  c->cache_evictions = atomic_load(&fs->c_evictions);
  c->cache_writebacks = atomic_load(&fs->c_writebacks);
  c->cache_wb_errors = atomic_load(&fs->c_wb_errors);
  c->cache_pages = fs->cache.npages;
  c->cache_dirty_pages = fs->cache.dirty;
  c->journal_commits = fs->c_commits;
  c->journal_blocks = fs->c_jblocks;
  c->journal_replayed_txns = fs->c_replayed;
  c->journal_wraps = fs->c_wraps;
  c->syncs = fs->c_syncs;
  c->hflushes = fs->c_hflushes;
  c->sync_waiters = fs->c_sync_waiters;
  return 0;
}

void ulfs_get_counters(ulfs *fs, ulfs_counters *c) { (void)COUNTED(fs, counters_locked(fs, c)); }

/* ================================ cache hints and counters ============================= */

/* commit: only turn a TMP file into OTHER (ulfs_hint_commit). REQUIRES: fs->lock held. */
static int hint_path_locked(ulfs *fs, const char *path, int kind, int level, bool commit) {
  if (kind < 0 || kind >= ULFS_KIND_COUNT || level < 0 || level > (int)ULFS_LEVEL_NONE)
    return -EINVAL;
  inode_m *ip;
  int rc = walk(fs, path, false, &ip, NULL, NULL);
  if (rc) return rc;
  if (commit && ip->kind != ULFS_KIND_TMP) return 0;
  ip->kind = (uint8_t)kind;
  ip->level = (uint8_t)level;
  /* cached pages count under the new hint; their policy list stays until they are reused */
  for (page *pg = ip->pages; pg; pg = pg->inext) {
    pg->kind = ip->kind;
    pg->level = ip->level;
  }
  return 0;
}

int ulfs_hint_path(ulfs *fs, const char *path, int kind, int level) {
  return LOCKED(fs, hint_path_locked(fs, path, kind, level, false));
}

/* REQUIRES: fs->lock held. */
static int drop_cache_locked(ulfs *fs, const char *path) {
  inode_m *ip;
  int rc = walk(fs, path, false, &ip, NULL, NULL);
  if (rc) return rc;
  if (S_ISDIR(ip->mode)) return -EISDIR;
  drop_clean(fs, ip, 0, UINT64_MAX);
  return 0;
}

int ulfs_drop_cache(ulfs *fs, const char *path) { return LOCKED(fs, drop_cache_locked(fs, path)); }

int ulfs_hint_commit(ulfs *fs, const char *path) {
  return LOCKED(fs, hint_path_locked(fs, path, ULFS_KIND_OTHER, (int)ULFS_LEVEL_NONE, true));
}

/* REQUIRES: fs->lock held. */
static int hint_fd_locked(ulfs *fs, int fd, int role) {
  fdesc *f = getfd(fs, fd);
  if (!f) return -EBADF;
  if (role < 0 || role >= ULFS_ROLE_COUNT) return -EINVAL;
  f->role = (uint8_t)role;
  f->pf_end = 0;
  return 0;
}

int ulfs_hint_fd(ulfs *fs, int fd, int role) { return LOCKED(fs, hint_fd_locked(fs, fd, role)); }

int ulfs_stats_publish(ulfs *fs) { return fs->pub ? stats_pub_now(fs->pub) : -EINVAL; }

/* REQUIRES: fs->lock held. */
static int cache_stats_locked(ulfs *fs, ulfs_cache_stats *st) {
  *st = fs->cache.st;
  memset(st->list_pages, 0, sizeof st->list_pages);
  if (fs->cache.pol->describe) fs->cache.pol->describe(fs->cache.polstate, st);
  st->dirty_writebacks = atomic_load(&fs->c_writebacks);
  return 0;
}

void ulfs_get_cache_stats(ulfs *fs, ulfs_cache_stats *st) {
  (void)COUNTED(fs, cache_stats_locked(fs, st));
}

const char *ulfs_cache_policy(ulfs *fs) { return fs->cache.pol->name; }

const char *ulfs_cache_list_name(ulfs *fs, unsigned i) {
  const char *const *l = fs->cache.pol->lists;
  for (unsigned k = 0; k < i; k++)
    if (!l[k]) return NULL;
  return l[i];
}
