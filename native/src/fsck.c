/* fsck.c -- offline check of an unmounted device: optional journal replay, then a walk of the
 * directory tree from the root that rebuilds both bitmaps and compares them with the persisted
 * ones. Checked invariants: every reachable inode is allocated and reached once; extents lie in
 * the data area, are sorted and never share a block; directory blocks parse; the persisted block
 * and inode bitmaps equal the rebuilt ones (orphans, i.e. unlinked-while-open inodes, count as
 * used and are reported, not as errors: mount frees them). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

typedef struct fck {
  ulfs_dev *dev;
  superblock sb;
  uint8_t *bdisk, *idisk, *bseen, *iseen;
  uint64_t *stack;
  size_t nstack, capstack;
  ulfs_fsck_report *r;
} fck;

static void problem(fck *c, const char *fmt, ...) {
  if (c->r->errors++ == 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->r->first_error, sizeof c->r->first_error, fmt, ap);
    va_end(ap);
  }
}

static int read_slot(fck *c, uint64_t ino, uint8_t *slot) {
  uint8_t *b = ulfs_alloc_aligned(BS);
  if (!b) return -ENOMEM;
  uint64_t blk = c->sb.itable_start + (ino - 1) / INODES_PER_BLOCK;
  int rc = ulfs_dev_read(c->dev, b, blk * BS, BS);
  if (rc == 0) memcpy(slot, b + ((ino - 1) % INODES_PER_BLOCK) * INODE_SIZE, INODE_SIZE);
  free(b);
  return rc;
}

static void use_block(fck *c, uint64_t ino, uint64_t b, uint64_t n) {
  for (uint64_t i = b; i < b + n; i++) {
    if (i < c->sb.data_start || i >= c->sb.total_blocks) {
      problem(c, "inode %llu maps block %llu outside the data area", (unsigned long long)ino,
              (unsigned long long)i);
      return;
    }
    if (bit_get(c->bseen, i)) {
      problem(c, "block %llu used twice (inode %llu)", (unsigned long long)i,
              (unsigned long long)ino);
      return;
    }
    bit_set(c->bseen, i);
  }
  c->r->blocks_used += n;
}

/* Loads an inode's extents (inline and overflow chain), marking the blocks it uses. */
static int load_inode(fck *c, uint64_t ino, inode_m *ip) {
  uint8_t slot[INODE_SIZE];
  int rc = read_slot(c, ino, slot);
  if (rc) return rc;
  memset(ip, 0, sizeof *ip);
  uint64_t xblk;
  inode_decode(slot, ip, &xblk);
  ip->ino = ino;
  uint32_t n, nchain;
  memcpy(&n, slot + 32, 4);
  memcpy(&nchain, slot + 36, 4);
  ip->ext = calloc(n ? n : 1, sizeof(extent));
  if (!ip->ext) return -ENOMEM;
  uint32_t have = 0;
  for (; have < n && have < INLINE_EXTENTS; have++) {
    const uint8_t *e = slot + 64 + have * 16;
    memcpy(&ip->ext[have].lblk, e, 4);
    memcpy(&ip->ext[have].len, e + 4, 4);
    memcpy(&ip->ext[have].pblk, e + 8, 8);
  }
  uint8_t *xb = ulfs_alloc_aligned(BS);
  if (!xb) return -ENOMEM;
  uint32_t chained = 0;
  while (have < n) {
    if (chained >= nchain || xblk < c->sb.data_start || xblk >= c->sb.total_blocks) {
      problem(c, "inode %llu: broken extent chain", (unsigned long long)ino);
      break;
    }
    if ((rc = ulfs_dev_read(c->dev, xb, xblk * BS, BS)) != 0) break;
    uint32_t magic, cnt;
    memcpy(&magic, xb, 4);
    memcpy(&cnt, xb + 4, 4);
    if (magic != ULFS_XBLK_MAGIC || cnt == 0 || cnt > XBLK_EXTENTS) {
      problem(c, "inode %llu: bad extent block %llu", (unsigned long long)ino,
              (unsigned long long)xblk);
      break;
    }
    use_block(c, ino, xblk, 1);
    chained++;
    for (uint32_t i = 0; i < cnt && have < n; i++, have++) {
      const uint8_t *e = xb + 16 + i * 16;
      memcpy(&ip->ext[have].lblk, e, 4);
      memcpy(&ip->ext[have].len, e + 4, 4);
      memcpy(&ip->ext[have].pblk, e + 8, 8);
    }
    memcpy(&xblk, xb + 8, 8);
  }
  free(xb);
  ip->next = have;
  for (uint32_t i = 0; i < have; i++) {
    if (ip->ext[i].len == 0 || (i && ip->ext[i].lblk < ip->ext[i - 1].lblk + ip->ext[i - 1].len))
      problem(c, "inode %llu: extents unsorted or overlapping", (unsigned long long)ino);
    use_block(c, ino, ip->ext[i].pblk, ip->ext[i].len);
  }
  return rc;
}

struct walk_ctx { fck *c; uint64_t dir; };

static int visit_entry(void *arg, const char *name, size_t nlen, uint64_t ino, uint8_t type) {
  struct walk_ctx *w = arg;
  fck *c = w->c;
  (void)type;
  if (ino < 1 || ino > c->sb.inode_count) {
    problem(c, "directory %llu: entry '%.*s' names inode %llu out of range",
            (unsigned long long)w->dir, (int)nlen, name, (unsigned long long)ino);
    return 0;
  }
  if (c->nstack == c->capstack) {
    size_t nc = c->capstack ? c->capstack * 2 : 64;
    uint64_t *ns = realloc(c->stack, nc * sizeof *ns);
    if (!ns) return -ENOMEM;
    c->stack = ns;
    c->capstack = nc;
  }
  c->stack[c->nstack++] = ino;
  return 0;
}

static int check_inode(fck *c, uint64_t ino, bool reachable) {
  if (bit_get(c->iseen, ino - 1)) {
    problem(c, "inode %llu reached twice", (unsigned long long)ino);
    return 0;
  }
  bit_set(c->iseen, ino - 1);
  if (!bit_get(c->idisk, ino - 1))
    problem(c, "inode %llu in use but free in the inode bitmap", (unsigned long long)ino);
  inode_m ip;
  int rc = load_inode(c, ino, &ip);
  if (rc) {
    free(ip.ext);
    return rc;
  }
  c->r->inodes_used++;
  if (!S_ISDIR(ip.mode) && !S_ISREG(ip.mode)) {
    problem(c, "inode %llu has bad mode %o", (unsigned long long)ino, ip.mode);
  } else if (S_ISDIR(ip.mode)) {
    c->r->dirs++;
    if (ip.size % BS) problem(c, "directory %llu size not block aligned", (unsigned long long)ino);
    uint8_t *b = ulfs_alloc_aligned(BS);
    if (!b) rc = -ENOMEM;
    for (uint64_t l = 0; rc == 0 && l < ip.size / BS; l++) {
      uint64_t p = ext_map(&ip, l, NULL);
      if (!p) {
        problem(c, "directory %llu has a hole", (unsigned long long)ino);
        break;
      }
      if ((rc = ulfs_dev_read(c->dev, b, p * BS, BS)) != 0) break;
      struct walk_ctx w = {c, ino};
      if (reachable) {
        int prc = dir_parse_block(b, visit_entry, &w);
        if (prc == -EUCLEAN) problem(c, "directory %llu block %llu malformed",
                                     (unsigned long long)ino, (unsigned long long)l);
        else if (prc) rc = prc;
      }
    }
    free(b);
  } else {
    c->r->files++;
  }
  if (!reachable && ip.nlink != 0)
    problem(c, "inode %llu allocated but unreachable", (unsigned long long)ino);
  if (reachable && ip.nlink == 0)
    problem(c, "inode %llu reachable but unlinked", (unsigned long long)ino);
  free(ip.ext);
  return rc;
}

int ulfs_fsck(ulfs_dev *dev, int replay, ulfs_fsck_report *r) {
  memset(r, 0, sizeof *r);
  fck c = {.dev = dev, .r = r};
  int rc = sb_read_best(dev, &c.sb);
  if (rc) {
    snprintf(r->first_error, sizeof r->first_error, "no valid superblock (%s)", strerror(-rc));
    r->errors = 1;
    return 0;
  }
  r->clean_unmount = c.sb.clean != 0;
  uint64_t pos, seq;
  rc = journal_replay(dev, &c.sb, replay != 0, &pos, &seq);
  if (rc < 0) return rc;
  r->replayed_txns = (uint64_t)rc;
  if (rc > 0 && replay) {
    c.sb.journal_head = pos;
    c.sb.journal_seq = seq;
    if ((rc = sb_write(dev, &c.sb)) != 0 || (rc = ulfs_dev_flush(dev)) != 0) return rc;
  } else if (rc > 0) {
    /* Without replay the home locations may be stale: report and stop. */
    problem(&c, "%d committed journal transaction(s) not replayed", rc);
    return 0;
  }
  size_t bb = c.sb.bbitmap_blocks * BS, ib = c.sb.ibitmap_blocks * BS;
  c.bdisk = ulfs_alloc_aligned(bb);
  c.idisk = ulfs_alloc_aligned(ib);
  c.bseen = calloc(1, bb);
  c.iseen = calloc(1, ib);
  rc = (!c.bdisk || !c.idisk || !c.bseen || !c.iseen) ? -ENOMEM : 0;
  if (rc == 0) rc = ulfs_dev_read(dev, c.bdisk, c.sb.bbitmap_start * BS, bb);
  if (rc == 0) rc = ulfs_dev_read(dev, c.idisk, c.sb.ibitmap_start * BS, ib);
  for (uint64_t i = 0; i < c.sb.data_start; i++) bit_set(c.bseen, i);
  if (rc == 0) {
    c.stack = malloc(64 * sizeof *c.stack);
    c.capstack = c.stack ? 64 : 0;
    if (!c.stack) rc = -ENOMEM;
    else c.stack[c.nstack++] = ULFS_ROOT_INO;
  }
  while (rc == 0 && c.nstack) rc = check_inode(&c, c.stack[--c.nstack], true);
  for (uint64_t i = 0; rc == 0 && i < c.sb.inode_count; i++)
    if (bit_get(c.idisk, i) && !bit_get(c.iseen, i)) rc = check_inode(&c, i + 1, false);
  if (rc == 0) {
    for (uint64_t i = 0; i < c.sb.total_blocks; i++) {
      if (bit_get(c.bdisk, i) != bit_get(c.bseen, i)) {
        problem(&c, "block %llu is %s in the bitmap but %s", (unsigned long long)i,
                bit_get(c.bdisk, i) ? "used" : "free", bit_get(c.bseen, i) ? "used" : "unused");
        break;
      }
    }
  }
  free(c.bdisk);
  free(c.idisk);
  free(c.bseen);
  free(c.iseen);
  free(c.stack);
  return rc;
}
