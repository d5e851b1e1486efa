/* inode.c -- block and inode allocation, inode load/persist, extent lists.
 *
 * Two copies of each bitmap exist: `balloc`/`ialloc` say what memory has handed out, and
 * `bdisk`/`idisk` say what the persisted metadata refers to (what the next transaction logs).
 * Invariants:
 *  A1 bdisk ⊆ balloc and idisk ⊆ ialloc: a block is never free in memory while persisted
 *     metadata still refers to it (frees go through ip->pfree and reach balloc only after the
 *     commit that clears bdisk);
 *  A2 an inode's extents are sorted by logical block and never overlap, logically or physically;
 *  A3 every extent of a persisted inode has its bits set in bdisk in the same transaction that
 *     persists the inode.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* ---- block allocation ------------------------------------------------------------------ */
static int64_t find_free(const uint8_t *bm, uint64_t from, uint64_t end) {
  uint64_t i = from;
  while (i < end) {
    if ((i & 7) == 0 && i + 8 <= end && bm[i >> 3] == 0xff) {
      i += 8;
      continue;
    }
    if (!bit_get(bm, i)) return (int64_t)i;
    i++;
  }
  return -1;
}

int64_t balloc_run(ulfs *fs, uint64_t goal, uint64_t want, uint64_t *start) {
  uint64_t lo = fs->sb.data_start, hi = fs->sb.total_blocks;
  if (fs->free_blocks == 0 || want == 0) return -ENOSPC;
  if (goal < lo || goal >= hi) goal = fs->alloc_hint;
  if (goal < lo || goal >= hi) goal = lo;
  int64_t s = find_free(fs->balloc, goal, hi);
  if (s < 0) s = find_free(fs->balloc, lo, goal);
  if (s < 0) return -ENOSPC;
  uint64_t n = 0;
  while (n < want && (uint64_t)s + n < hi && !bit_get(fs->balloc, (uint64_t)s + n)) {
    bit_set(fs->balloc, (uint64_t)s + n);
    n++;
  }
  fs->free_blocks -= n;
  fs->alloc_hint = (uint64_t)s + n;
  *start = (uint64_t)s;
  return (int64_t)n;
}

void bfree_mem(ulfs *fs, uint64_t start, uint64_t len) {
  for (uint64_t i = 0; i < len; i++) bit_clr(fs->balloc, start + i);
  fs->free_blocks += len;
}

/* ---- extents --------------------------------------------------------------------------- */
/* Index of the last extent with lblk <= l, or -1. */
static int64_t ext_find(const inode_m *ip, uint64_t l) {
  int64_t lo = 0, hi = (int64_t)ip->next - 1, ans = -1;
  while (lo <= hi) {
    int64_t mid = (lo + hi) / 2;
    if (ip->ext[mid].lblk <= l) {
      ans = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return ans;
}

uint64_t ext_map(const inode_m *ip, uint64_t l, uint64_t *contig) {
  int64_t i = ext_find(ip, l);
  if (i >= 0 && l < (uint64_t)ip->ext[i].lblk + ip->ext[i].len) {
    const extent *e = &ip->ext[i];
    if (contig) *contig = e->lblk + e->len - l;
    return e->pblk + (l - e->lblk);
  }
  if (contig) { /* length of the hole */
    uint64_t nxt = (uint64_t)(i + 1) < ip->next ? ip->ext[i + 1].lblk : UINT32_MAX;
    *contig = nxt - l;
  }
  return 0;
}

int ext_add(inode_m *ip, uint64_t l, uint64_t p, uint64_t len) {
  if (l + len > UINT32_MAX) return -EFBIG;
  int64_t i = ext_find(ip, l);
  if (i >= 0) {
    extent *e = &ip->ext[i];
    if ((uint64_t)e->lblk + e->len == l && e->pblk + e->len == p && e->len + len <= UINT32_MAX) {
      e->len += (uint32_t)len;
      return 0;
    }
  }
  if (ip->next == ip->extcap) {
    uint32_t nc = ip->extcap ? ip->extcap * 2 : 8;
    extent *ne = realloc(ip->ext, nc * sizeof *ne);
    if (!ne) return -ENOMEM;
    ip->ext = ne;
    ip->extcap = nc;
  }
  uint32_t at = (uint32_t)(i + 1);
  memmove(&ip->ext[at + 1], &ip->ext[at], (ip->next - at) * sizeof(extent));
  ip->ext[at] = (extent){.lblk = (uint32_t)l, .len = (uint32_t)len, .pblk = p};
  ip->next++;
  return 0;
}

int pfree_add(inode_m *ip, uint64_t start, uint64_t len, bool journaled) {
  if (ip->npfree == ip->pfreecap) {
    uint32_t nc = ip->pfreecap ? ip->pfreecap * 2 : 8;
    run *nr = realloc(ip->pfree, nc * sizeof *nr);
    if (!nr) return -ENOMEM;
    ip->pfree = nr;
    ip->pfreecap = nc;
  }
  ip->pfree[ip->npfree++] = (run){.start = start, .len = len, .journaled = journaled};
  return 0;
}

int ext_truncate(inode_m *ip, uint64_t l) {
  bool journaled = S_ISDIR(ip->mode); /* directory blocks are journaled metadata */
  while (ip->next > 0) {
    extent *e = &ip->ext[ip->next - 1];
    if ((uint64_t)e->lblk + e->len <= l) break;
    uint64_t keep = e->lblk >= l ? 0 : l - e->lblk;
    int rc = pfree_add(ip, e->pblk + keep, e->len - keep, journaled);
    if (rc) return rc;
    if (keep == 0) {
      ip->next--;
    } else {
      e->len = (uint32_t)keep;
      break;
    }
  }
  ip->meta_dirty = true;
  return 0;
}

uint64_t ext_blocks(const inode_m *ip) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < ip->next; i++) n += ip->ext[i].len;
  return n;
}

/* ---- inode table ----------------------------------------------------------------------- */
int itable_block(ulfs *fs, uint64_t blk, uint8_t **img) {
  size_t h = blk % fs->nithash;
  for (struct itblk *b = fs->ithash[h]; b; b = b->next)
    if (b->blk == blk) {
      *img = b->img;
      return 0;
    }
  struct itblk *b = calloc(1, sizeof *b);
  if (!b) return -ENOMEM;
  b->img = ulfs_alloc_aligned(BS);
  if (!b->img) {
    free(b);
    return -ENOMEM;
  }
  int rc = ulfs_dev_read(fs->dev, b->img, blk * BS, BS);
  if (rc) {
    free(b->img);
    free(b);
    return rc;
  }
  b->blk = blk;
  b->next = fs->ithash[h];
  fs->ithash[h] = b;
  *img = b->img;
  return 0;
}

void inode_decode(const uint8_t *s, inode_m *ip, uint64_t *xblk) {
  ip->mode = get32(s);
  ip->nlink = get32(s + 4);
  ip->size = get64(s + 8);
  ip->mtime_ns = (int64_t)get64(s + 16);
  ip->ctime_ns = (int64_t)get64(s + 24);
  *xblk = get64(s + 40);
}

static void inode_encode(const inode_m *ip, uint8_t *s, uint64_t xblk) {
  memset(s, 0, INODE_SIZE);
  put32(s, ip->mode);
  put32(s + 4, ip->nlink);
  put64(s + 8, ip->size);
  put64(s + 16, (uint64_t)ip->mtime_ns);
  put64(s + 24, (uint64_t)ip->ctime_ns);
  put32(s + 32, ip->next);
  put32(s + 36, ip->nchain);
  put64(s + 40, xblk);
  for (uint32_t i = 0; i < ip->next && i < INLINE_EXTENTS; i++) {
    uint8_t *e = s + 64 + i * 16;
    put32(e, ip->ext[i].lblk);
    put32(e + 4, ip->ext[i].len);
    put64(e + 8, ip->ext[i].pblk);
  }
}

/* Also gives the in-memory inode its trace file id and the default hints. */
static void inode_hash_insert(ulfs *fs, inode_m *ip) {
  ip->kind = ULFS_KIND_OTHER;
  ip->level = ULFS_LEVEL_NONE;
  ip->fid = ++fs->next_fid;
  size_t h = ip->ino % fs->nihash;
  ip->hnext = fs->ihash[h];
  fs->ihash[h] = ip;
}

void inode_free_mem(inode_m *ip) {
  free(ip->ext);
  free(ip->chain);
  free(ip->chain_img);
  free(ip->pfree);
  if (ip->dir) dir_free(ip->dir);
  free(ip);
}

inode_m *iget(ulfs *fs, uint64_t ino, int *err) {
  if (ino == 0 || ino > fs->sb.inode_count) {
    *err = -EUCLEAN;
    return NULL;
  }
  for (inode_m *ip = fs->ihash[ino % fs->nihash]; ip; ip = ip->hnext)
    if (ip->ino == ino) return ip;
  uint64_t blk = fs->sb.itable_start + (ino - 1) / INODES_PER_BLOCK;
  uint8_t *img;
  int rc = itable_block(fs, blk, &img);
  if (rc) {
    *err = rc;
    return NULL;
  }
  const uint8_t *s = img + ((ino - 1) % INODES_PER_BLOCK) * INODE_SIZE;
  inode_m *ip = calloc(1, sizeof *ip);
  if (!ip) {
    *err = -ENOMEM;
    return NULL;
  }
  uint64_t xblk;
  inode_decode(s, ip, &xblk);
  if (ip->mode == 0) {
    free(ip);
    *err = -EUCLEAN; /* a directory entry names a free inode */
    return NULL;
  }
  ip->ino = ino;
  ip->persisted = true;
  uint32_t n = get32(s + 32);
  uint32_t nchain = get32(s + 36);
  ip->ext = calloc(n ? n : 1, sizeof(extent));
  ip->extcap = n ? n : 1;
  ip->chain = calloc(nchain ? nchain : 1, sizeof(uint64_t));
  if (!ip->ext || !ip->chain) {
    inode_free_mem(ip);
    *err = -ENOMEM;
    return NULL;
  }
  for (uint32_t i = 0; i < n && i < INLINE_EXTENTS; i++) {
    const uint8_t *e = s + 64 + i * 16;
    ip->ext[i] = (extent){.lblk = get32(e), .len = get32(e + 4), .pblk = get64(e + 8)};
  }
  uint32_t have = n < INLINE_EXTENTS ? n : INLINE_EXTENTS;
  uint8_t *xb = NULL;
  while (have < n) {
    if (!xb && !(xb = ulfs_alloc_aligned(BS))) {
      rc = -ENOMEM;
      break;
    }
    if (ip->nchain >= nchain || xblk < fs->sb.data_start || xblk >= fs->sb.total_blocks) {
      rc = -EUCLEAN;
      break;
    }
    if ((rc = ulfs_dev_read(fs->dev, xb, xblk * BS, BS)) != 0) break;
    if (get32(xb) != ULFS_XBLK_MAGIC) {
      rc = -EUCLEAN;
      break;
    }
    ip->chain[ip->nchain++] = xblk;
    uint32_t cnt = get32(xb + 4);
    for (uint32_t i = 0; i < cnt && have < n && i < XBLK_EXTENTS; i++) {
      const uint8_t *e = xb + 16 + i * 16;
      ip->ext[have++] = (extent){.lblk = get32(e), .len = get32(e + 4), .pblk = get64(e + 8)};
    }
    xblk = get64(xb + 8);
  }
  free(xb);
  if (rc) {
    inode_free_mem(ip);
    *err = rc;
    return NULL;
  }
  ip->next = n;
  inode_hash_insert(fs, ip);
  return ip;
}

int inode_new(ulfs *fs, uint32_t mode, inode_m **out) {
  if (fs->free_inodes == 0) return -ENOSPC;
  uint64_t n = fs->sb.inode_count;
  int64_t bit = find_free(fs->ialloc, 1, n); /* bit i is inode i+1; bit 0 is the root's */
  if (bit < 0) return -ENOSPC;
  inode_m *ip = calloc(1, sizeof *ip);
  if (!ip) return -ENOMEM;
  bit_set(fs->ialloc, (uint64_t)bit);
  fs->free_inodes--;
  ip->ino = (uint64_t)bit + 1;
  ip->mode = mode;
  ip->nlink = 1;
  ip->mtime_ns = ip->ctime_ns = ulfs_now_ns();
  ip->meta_dirty = true;
  inode_hash_insert(fs, ip);
  *out = ip;
  return 0;
}

/* Drops the in-memory inode (its pages must be gone) and frees its number in memory. Call only
 * after the transaction that freed it on disk committed, or for an inode never persisted. */
void inode_forget(ulfs *fs, inode_m *ip) {
  inode_m **pp = &fs->ihash[ip->ino % fs->nihash];
  while (*pp && *pp != ip) pp = &(*pp)->hnext;
  if (*pp) *pp = ip->hnext;
  bit_clr(fs->ialloc, ip->ino - 1);
  fs->free_inodes++;
  inode_free_mem(ip);
}

static uint8_t *txn_bitmap_touch(ulfs *fs, txn *t, uint64_t start, uint64_t bitno) {
  (void)fs;
  return txn_block(t, start + bitno / (BS * 8));
}

/* Sets (or clears) bits [s, s+len) in a persisted bitmap, logging each bitmap block it
 * changes. Every persist of an inode passes all its extents here (A3), so runs of 64 bits that
 * already hold the value are skipped a word at a time: an hflush of a long file costs
 * O(blocks / 64), not O(blocks). */
static int disk_bits(ulfs *fs, txn *t, uint8_t *bm, uint64_t region, uint64_t s, uint64_t len,
                     bool set) {
  const uint64_t same = set ? UINT64_MAX : 0;
  for (uint64_t i = s; i < s + len; i++) {
    if ((i & 63) == 0 && i + 64 <= s + len) {
      uint64_t w;
      memcpy(&w, bm + (i >> 3), 8);
      if (w == same) {
        i += 63;
        continue;
      }
    }
    if (bit_get(bm, i) == set) continue;
    if (set) bit_set(bm, i);
    else bit_clr(bm, i);
    if (!txn_bitmap_touch(fs, t, region, i)) return -ENOMEM;
  }
  return 0;
}

/* Sets the range of overflow block image e->img that an inode record logs (J6): the bytes that
 * differ from `old`, the image as last persisted, when `known`; else the `used` bytes, with the
 * rest of the block zero (ZERO_TAIL). Then keeps the new image in old. */
static void chain_changes(txn_blk *e, uint8_t *old, bool known, uint32_t used) {
  uint32_t lo = 0, hi = used;
  if (known) { /* 8 bytes at a time from both ends */
    while (lo < BS && memcmp(old + lo, e->img + lo, 8) == 0) lo += 8;
    hi = BS;
    while (hi > lo && memcmp(old + hi - 8, e->img + hi - 8, 8) == 0) hi -= 8;
    if (lo == BS) lo = hi = 0; /* unchanged */
  }
  e->lo = (uint16_t)lo;
  e->hi = (uint16_t)hi;
  e->zero_tail = !known;
  memcpy(old, e->img, BS);
}

int inode_persist(ulfs *fs, inode_m *ip, txn *t) {
  int rc;
  uint64_t blk = fs->sb.itable_start + (ip->ino - 1) / INODES_PER_BLOCK;
  uint8_t *img;
  if ((rc = itable_block(fs, blk, &img)) != 0) return rc;
  uint8_t *slot = img + ((ip->ino - 1) % INODES_PER_BLOCK) * INODE_SIZE;
  if (!txn_block(t, blk)) return -ENOMEM;
  bool gone = ip->nlink == 0 && ip->opens == 0;
  /* overflow blocks needed for the extents beyond the inline ones */
  uint32_t need = 0;
  if (!gone && ip->next > INLINE_EXTENTS)
    need = (ip->next - INLINE_EXTENTS + XBLK_EXTENTS - 1) / XBLK_EXTENTS;
  if (ip->nchain > need && ip->chain_known > need) ip->chain_known = need;
  if (need > ip->chain_cap) {
    uint8_t *ni = realloc(ip->chain_img, (size_t)need * BS);
    if (!ni) return -ENOMEM;
    ip->chain_img = ni;
    ip->chain_cap = need;
  }
  while (ip->nchain > need) {
    uint64_t b = ip->chain[--ip->nchain];
    if ((rc = disk_bits(fs, t, fs->bdisk, fs->sb.bbitmap_start, b, 1, false)) != 0) return rc;
    if ((rc = pfree_add(ip, b, 1, true)) != 0) return rc;
  }
  if (ip->nchain < need) {
    uint64_t *nc = realloc(ip->chain, need * sizeof *nc);
    if (!nc) return -ENOMEM;
    ip->chain = nc;
    while (ip->nchain < need) {
      uint64_t b;
      int64_t got = balloc_run(fs, ip->nchain ? ip->chain[ip->nchain - 1] + 1 : 0, 1, &b);
      if (got < 0) return (int)got;
      ip->chain[ip->nchain++] = b;
    }
  }
  for (uint32_t c = 0; c < ip->nchain; c++) {
    txn_blk *te = txn_entry(t, ip->chain[c]);
    if (!te) return -ENOMEM;
    uint8_t *xb = te->img;
    memset(xb, 0, BS);
    uint32_t first = INLINE_EXTENTS + c * XBLK_EXTENTS;
    uint32_t cnt = ip->next - first < XBLK_EXTENTS ? ip->next - first : XBLK_EXTENTS;
    put32(xb, ULFS_XBLK_MAGIC);
    put32(xb + 4, cnt);
    put64(xb + 8, c + 1 < ip->nchain ? ip->chain[c + 1] : 0);
    for (uint32_t i = 0; i < cnt; i++) {
      uint8_t *e = xb + 16 + i * 16;
      put32(e, ip->ext[first + i].lblk);
      put32(e + 4, ip->ext[first + i].len);
      put64(e + 8, ip->ext[first + i].pblk);
    }
    chain_changes(te, ip->chain_img + (size_t)c * BS, c < ip->chain_known, 16 + cnt * 16);
    if ((rc = disk_bits(fs, t, fs->bdisk, fs->sb.bbitmap_start, ip->chain[c], 1, true)) != 0)
      return rc;
  }
  ip->chain_known = ip->nchain;
  for (uint32_t i = 0; i < ip->npfree; i++) {
    rc = disk_bits(fs, t, fs->bdisk, fs->sb.bbitmap_start, ip->pfree[i].start, ip->pfree[i].len,
                   false);
    if (rc) return rc;
  }
  if (gone) {
    memset(slot, 0, INODE_SIZE);
    rc = disk_bits(fs, t, fs->idisk, fs->sb.ibitmap_start, ip->ino - 1, 1, false);
  } else {
    for (uint32_t i = 0; i < ip->next; i++) { /* A3 */
      rc = disk_bits(fs, t, fs->bdisk, fs->sb.bbitmap_start, ip->ext[i].pblk, ip->ext[i].len,
                     true);
      if (rc) return rc;
    }
    inode_encode(ip, slot, ip->nchain ? ip->chain[0] : 0);
    rc = disk_bits(fs, t, fs->idisk, fs->sb.ibitmap_start, ip->ino - 1, 1, true);
  }
  if (rc) return rc;
  ip->meta_dirty = false;
  ip->persisted = !gone;
  return 0;
}

void inode_release_pfree(ulfs *fs, inode_m *ip) {
  for (uint32_t i = 0; i < ip->npfree; i++) {
    run r = ip->pfree[i];
    if (!r.journaled) {
      bfree_mem(fs, r.start, r.len);
      continue;
    }
    if (fs->nquar == fs->quarcap) { /* J3: keep it out of reuse until the next journal wrap */
      uint32_t nc = fs->quarcap ? fs->quarcap * 2 : 16;
      run *nq = realloc(fs->quar, nc * sizeof *nq);
      if (!nq) continue; /* leaks the blocks until remount rather than risk reuse */
      fs->quar = nq;
      fs->quarcap = nc;
    }
    fs->quar[fs->nquar++] = r;
  }
  ip->npfree = 0;
}

void txn_finalize(ulfs *fs, txn *t) {
  const superblock *sb = &fs->sb;
  for (uint32_t i = 0; i < t->n; i++) {
    uint64_t b = t->b[i].blk;
    if (b >= sb->bbitmap_start && b < sb->bbitmap_start + sb->bbitmap_blocks) {
      memcpy(t->b[i].img, fs->bdisk + (b - sb->bbitmap_start) * BS, BS);
    } else if (b >= sb->ibitmap_start && b < sb->ibitmap_start + sb->ibitmap_blocks) {
      memcpy(t->b[i].img, fs->idisk + (b - sb->ibitmap_start) * BS, BS);
    } else if (b >= sb->itable_start && b < sb->itable_start + sb->itable_blocks) {
      uint8_t *img;
      if (itable_block(fs, b, &img) == 0) memcpy(t->b[i].img, img, BS);
    }
  }
}
