/* dir.c -- directories. A directory's data blocks are journaled metadata; each block holds
 *   u32 magic "UDIR" | u32 bytes used | records { u64 ino, u16 reclen, u8 namelen, u8 type,
 *   name bytes } packed, reclen = 12 + namelen rounded up to 8.
 * In memory a directory is the entry array plus per-block byte counts; a change rewrites only
 * the blocks it touched (blk_dirty), which the next transaction logs whole.
 * Invariant D1: blk_used[b] == DIR_HDR + sum of reclen of the entries with blk == b <= BS.
 * Invariant D2: every entry index is in exactly one hash chain, the one of its name's bucket,
 * and nbuckets >= n (lookups are O(1) on average). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static uint32_t reclen_of(size_t nlen) { return (uint32_t)((12 + nlen + 7) & ~(size_t)7); }

static uint32_t name_hash(const char *name, size_t nlen) {
  uint32_t h = 2166136261u; /* FNV-1a */
  for (size_t i = 0; i < nlen; i++) h = (h ^ (uint8_t)name[i]) * 16777619u;
  return h;
}

static void hash_link(dir_m *d, uint32_t idx) {
  dirent_m *e = &d->ents[idx];
  uint32_t b = name_hash(e->name, e->nlen) & (d->nbuckets - 1);
  e->hnext = d->buckets[b];
  d->buckets[b] = (int32_t)idx;
}

static void hash_unlink(dir_m *d, uint32_t idx) {
  dirent_m *e = &d->ents[idx];
  int32_t *pp = &d->buckets[name_hash(e->name, e->nlen) & (d->nbuckets - 1)];
  while (*pp != (int32_t)idx) pp = &d->ents[*pp].hnext;
  *pp = e->hnext;
}

static int rehash(dir_m *d, uint32_t want) {
  uint32_t nb = 16;
  while (nb < want) nb *= 2;
  int32_t *nbk = malloc(nb * sizeof *nbk);
  if (!nbk) return -ENOMEM;
  for (uint32_t i = 0; i < nb; i++) nbk[i] = -1;
  free(d->buckets);
  d->buckets = nbk;
  d->nbuckets = nb;
  for (uint32_t i = 0; i < d->n; i++) hash_link(d, i);
  return 0;
}

void dir_free(dir_m *d) {
  for (uint32_t i = 0; i < d->n; i++) free(d->ents[i].name);
  free(d->buckets);
  free(d->ents);
  free(d->blk_used);
  free(d->blk_dirty);
  free(d);
}

int dir_parse_block(const uint8_t *b, int (*fn)(void *, const char *, size_t, uint64_t, uint8_t),
                    void *arg) {
  uint32_t magic, used;
  memcpy(&magic, b, 4);
  memcpy(&used, b + 4, 4);
  if (magic != ULFS_DIR_MAGIC || used < DIR_HDR || used > BS) return -EUCLEAN;
  uint32_t off = DIR_HDR;
  while (off < used) {
    if (used - off < 12) return -EUCLEAN;
    uint64_t ino;
    uint16_t rl;
    memcpy(&ino, b + off, 8);
    memcpy(&rl, b + off + 8, 2);
    uint8_t nl = b[off + 10], ty = b[off + 11];
    if (nl == 0 || rl != reclen_of(nl) || rl > used - off || ino == 0) return -EUCLEAN;
    int rc = fn(arg, (const char *)b + off + 12, nl, ino, ty);
    if (rc) return rc;
    off += rl;
  }
  return 0;
}

static int grow_blocks(dir_m *d, uint32_t nblk) {
  uint32_t *u = realloc(d->blk_used, nblk * sizeof *u);
  if (!u) return -ENOMEM;
  d->blk_used = u;
  uint8_t *dd = realloc(d->blk_dirty, nblk);
  if (!dd) return -ENOMEM;
  d->blk_dirty = dd;
  for (uint32_t i = d->nblk; i < nblk; i++) {
    d->blk_used[i] = DIR_HDR;
    d->blk_dirty[i] = 0;
  }
  d->nblk = nblk;
  return 0;
}

static int push_ent(dir_m *d, const char *name, size_t nlen, uint64_t ino, uint8_t type,
                    uint32_t blk) {
  if (d->n == d->cap) {
    uint32_t nc = d->cap ? d->cap * 2 : 16;
    dirent_m *ne = realloc(d->ents, nc * sizeof *ne);
    if (!ne) return -ENOMEM;
    d->ents = ne;
    d->cap = nc;
  }
  if (d->n + 1 > d->nbuckets && rehash(d, (d->n + 1) * 2) != 0) return -ENOMEM;
  char *nm = malloc(nlen + 1);
  if (!nm) return -ENOMEM;
  memcpy(nm, name, nlen);
  nm[nlen] = 0;
  d->ents[d->n] = (dirent_m){.name = nm, .nlen = (uint32_t)nlen, .hnext = -1, .ino = ino,
                             .type = type, .blk = blk};
  hash_link(d, d->n);
  d->n++;
  return 0;
}

struct load_ctx { dir_m *d; uint32_t blk; };

static int load_one(void *arg, const char *name, size_t nlen, uint64_t ino, uint8_t type) {
  struct load_ctx *c = arg;
  c->d->blk_used[c->blk] += reclen_of(nlen);
  return push_ent(c->d, name, nlen, ino, type, c->blk);
}

int dir_load(ulfs *fs, inode_m *dp) {
  if (dp->dir) return 0;
  dir_m *d = calloc(1, sizeof *d);
  if (!d) return -ENOMEM;
  uint32_t nblk = (uint32_t)(dp->size / BS);
  int rc = grow_blocks(d, nblk ? nblk : 1);
  d->nblk = nblk;
  uint8_t *b = ulfs_alloc_aligned(BS);
  if (!b) rc = -ENOMEM;
  for (uint32_t i = 0; rc == 0 && i < nblk; i++) {
    uint64_t p = ext_map(dp, i, NULL);
    if (p == 0) {
      rc = -EUCLEAN;
      break;
    }
    if ((rc = ulfs_dev_read(fs->dev, b, p * BS, BS)) != 0) break;
    struct load_ctx c = {d, i};
    rc = dir_parse_block(b, load_one, &c);
  }
  free(b);
  if (rc) {
    dir_free(d);
    return rc;
  }
  dp->dir = d;
  return 0;
}

dirent_m *dir_find(dir_m *d, const char *name, size_t nlen) {
  if (d->nbuckets == 0) return NULL;
  for (int32_t i = d->buckets[name_hash(name, nlen) & (d->nbuckets - 1)]; i >= 0;
       i = d->ents[i].hnext) {
    if (d->ents[i].nlen == nlen && memcmp(d->ents[i].name, name, nlen) == 0) return &d->ents[i];
  }
  return NULL;
}

int dir_add(ulfs *fs, inode_m *dp, const char *name, size_t nlen, uint64_t ino, uint8_t type) {
  dir_m *d = dp->dir;
  uint32_t rl = reclen_of(nlen);
  uint32_t blk = 0;
  while (blk < d->nblk && d->blk_used[blk] + rl > BS) blk++;
  if (blk == d->nblk) { /* a new block at the end of the directory */
    uint64_t goal = dp->next ? dp->ext[dp->next - 1].pblk + dp->ext[dp->next - 1].len : 0, p;
    int64_t got = balloc_run(fs, goal, 1, &p);
    if (got < 0) return (int)got;
    int rc = ext_add(dp, blk, p, 1);
    if (rc == 0) rc = grow_blocks(d, blk + 1);
    if (rc) {
      bfree_mem(fs, p, 1);
      return rc;
    }
    dp->size += BS;
  }
  int rc = push_ent(d, name, nlen, ino, type, blk);
  if (rc) return rc;
  d->blk_used[blk] += rl;
  d->blk_dirty[blk] = 1;
  dp->mtime_ns = ulfs_now_ns();
  dp->meta_dirty = true;
  return 0;
}

void dir_remove(inode_m *dp, dirent_m *e) {
  dir_m *d = dp->dir;
  uint32_t idx = (uint32_t)(e - d->ents), last = d->n - 1;
  d->blk_used[e->blk] -= reclen_of(e->nlen);
  d->blk_dirty[e->blk] = 1;
  hash_unlink(d, idx);
  free(e->name);
  if (idx != last) { /* move the last entry into the hole, keeping its chain (D2) */
    hash_unlink(d, last);
    d->ents[idx] = d->ents[last];
    hash_link(d, idx);
  }
  d->n--;
  dp->mtime_ns = ulfs_now_ns();
  dp->meta_dirty = true;
}

int dir_persist(ulfs *fs, inode_m *dp, txn *t) {
  (void)fs;
  dir_m *d = dp->dir;
  if (!d) return 0;
  for (uint32_t b = 0; b < d->nblk; b++) {
    if (!d->blk_dirty[b]) continue;
    uint8_t *img = txn_block(t, ext_map(dp, b, NULL));
    if (!img) return -ENOMEM;
    memset(img, 0, BS);
    uint32_t magic = ULFS_DIR_MAGIC, off = DIR_HDR;
    memcpy(img, &magic, 4);
    for (uint32_t i = 0; i < d->n; i++) {
      const dirent_m *e = &d->ents[i];
      if (e->blk != b) continue;
      size_t nl = e->nlen;
      uint16_t rl = (uint16_t)reclen_of(nl);
      memcpy(img + off, &e->ino, 8);
      memcpy(img + off + 8, &rl, 2);
      img[off + 10] = (uint8_t)nl;
      img[off + 11] = e->type;
      memcpy(img + off + 12, e->name, nl);
      off += rl;
    }
    memcpy(img + 4, &off, 4);
    d->blk_dirty[b] = 0;
  }
  return 0;
}
