/* journal.c -- superblock codec and the metadata journal.
 *
 * The journal is physical redo logging of whole blocks: metadata blocks (inode table, bitmaps,
 * directory blocks, extent overflow blocks) and, for hflush and small hsyncs, the data blocks a
 * file gained (docs/format/ulfs-device.md, "Journal"). A transaction is written as ONE
 * contiguous device write:
 *   header block(s) | block images | commit block (crc32c over headers and images)
 * Then, for a durable commit, the device is flushed (the commit point) and the images are
 * written to their home locations ("checkpoint"). A commit without the flush (hflush) leaves
 * the record in the kernel (it survives the death of the process, not a power loss) and keeps
 * its metadata images in fs->pend until the next flush, when they are checkpointed: home
 * blocks never get an image whose record may still be lost. Its data ranges go home with the
 * pages they came from, which stay dirty in the page cache until then (J5). Invariants:
 *  J1 a transaction is either replayed whole or not at all: a torn or stale tail fails the
 *     magic, sequence or checksum test and ends the replay;
 *  J2 replay is idempotent, so replaying an already checkpointed transaction is harmless;
 *  J3 a block freed by a transaction that logged an image of it is not reused before the
 *     superblock's journal head moves past that transaction (quarantine in fs.c), so a replay
 *     never overwrites live file data with an old metadata image;
 *  J4 an ORDERED transaction is written only after every data block written home before it
 *     reached stable storage (the device flush before its record), journal-only pages
 *     included (J5). A transaction whose data is not in the journal is always ORDERED;
 *  J5 replay applies the data images of a transaction only when no ORDERED transaction follows
 *     it: the ORDERED one's flush made the home blocks at least as new as those images, so an
 *     older image never overwrites newer data; blocks freed later are freed by ORDERED
 *     transactions (fs.c), so a data image never lands on a block reused by another file.
 *     Since an hflush no longer writes its pages home (fs.c, PG_JLOG: the record may be the
 *     only copy of a page's bytes), "at least as new" holds because journal_commit writes
 *     every such journal-only page home (jlog_home) before an ORDERED record's preflush, and
 *     journal_wrap before the flush that lets the head move past their records; a clean
 *     unmount writes them home (flusher pass) before it moves the head. A journal-only page
 *     written home at any other time (flusher, eviction, too many of them) holds exactly the
 *     bytes its records replay, or, if changed since, stays dirty with those changes or marks
 *     its inode wb_unlogged, so a replay of its records never undoes a later hflush either.
 *     Replay itself is unchanged: every record after the head is read, and data ranges after
 *     the last ORDERED record are applied in order.
 *  J6 an inode record (JTX_INODE, format version 3) is the compact form of one inode's hflush:
 *     the inode's 256-byte slot and, per data block written, only the bytes that changed since
 *     the block was last written home (with the rest of the file's last block zero), instead of
 *     whole images of its table block, bitmap blocks and data blocks. Its replay patches the
 *     slot into the table block, sets the bitmap bits of the slot's extents (A3) and of the
 *     inode, and patches the data bytes (J5 applies as to data images). This is equivalent to
 *     the whole images because replay applies every record after the head in order: each
 *     metadata byte ends as the last record that logged it left it, and an inode record logs
 *     exactly the bytes the transaction changed (a slot, bits it sets; hflush frees nothing, or
 *     it is logged whole). Since format version 4 it also carries, as META ranges, the bytes of
 *     the inode's extent overflow blocks that differ from their last persisted images (kept in
 *     inode_m.chain_img; a block new to the chain whole, with ZERO_TAIL); replay writes those
 *     always, like metadata images, and then sets the bits of the chain's extents read back
 *     from the device. The bytes of a data block outside a record's range are, on the device,
 *     as the last ORDERED commit's flush left them, as an earlier replayed record patched
 *     them, or as a write-home of a journal-only page left them (the bytes its records
 *     replay); a block an hflush allocated is logged whole (from byte 0, to the file size on
 *     the last block with ZERO_TAIL), since its home holds none of the page; those of an
 *     overflow block as the last record or checkpoint that wrote it left them, which is the
 *     image its next record's ranges are computed against.
 *  J7 packing (format version 4): an inode record starts at the journal's byte offset after
 *     the previous record, rounded up to IREC_ALIGN, so successive hflushes share journal
 *     blocks; a block record starts at the next block boundary. A record written into a block
 *     that holds earlier records rewrites that block whole with those records' bytes unchanged
 *     (fs->jopen), so a torn or failed rewrite leaves them intact, and the kernel's page cache
 *     turns the rewrites of one block into one device write at the next flush (group commit
 *     of hflushes). Replay, at an offset inside a block, accepts only an inode record there
 *     and otherwise continues at the next block boundary; the sequence numbers chain the
 *     records as before, so a lost record still ends the replay (J1).
 * Only one thread writes the journal at a time (fs->jbusy, fs.c "group commit"); a commit may
 * release fs->lock around its device I/O (JC_UNLOCK) so other callers keep working meanwhile.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

void sb_encode(const superblock *sb, uint8_t *b) {
  memset(b, 0, BS);
  put32(b + 0, sb->magic);
  put32(b + 4, sb->version);
  put64(b + 8, sb->generation);
  memcpy(b + 16, sb->uuid, 16);
  put32(b + 32, sb->block_size);
  put32(b + 36, sb->flags);
  put64(b + 40, sb->total_blocks);
  put64(b + 48, sb->journal_start);
  put64(b + 56, sb->journal_blocks);
  put64(b + 64, sb->bbitmap_start);
  put64(b + 72, sb->bbitmap_blocks);
  put64(b + 80, sb->ibitmap_start);
  put64(b + 88, sb->ibitmap_blocks);
  put64(b + 96, sb->itable_start);
  put64(b + 104, sb->itable_blocks);
  put64(b + 112, sb->inode_count);
  put64(b + 120, sb->data_start);
  put64(b + 128, sb->journal_head);
  put64(b + 136, sb->journal_seq);
  put32(b + 144, sb->clean);
  /* bytes 148..163 reserved, zero */
  put32(b + SB_ENCODED, ulfs_crc32c(0, b, SB_ENCODED));
}

int sb_decode(const uint8_t *b, superblock *sb) {
  if (get32(b) != ULFS_MAGIC) return -EINVAL;
  if (get32(b + SB_ENCODED) != ulfs_crc32c(0, b, SB_ENCODED)) return -EUCLEAN;
  sb->magic = get32(b + 0);
  sb->version = get32(b + 4);
  if (sb->version < ULFS_VERSION_MIN || sb->version > ULFS_VERSION) return -EPROTONOSUPPORT;
  sb->generation = get64(b + 8);
  memcpy(sb->uuid, b + 16, 16);
  sb->block_size = get32(b + 32);
  sb->flags = get32(b + 36);
  sb->total_blocks = get64(b + 40);
  sb->journal_start = get64(b + 48);
  sb->journal_blocks = get64(b + 56);
  sb->bbitmap_start = get64(b + 64);
  sb->bbitmap_blocks = get64(b + 72);
  sb->ibitmap_start = get64(b + 80);
  sb->ibitmap_blocks = get64(b + 88);
  sb->itable_start = get64(b + 96);
  sb->itable_blocks = get64(b + 104);
  sb->inode_count = get64(b + 112);
  sb->data_start = get64(b + 120);
  sb->journal_head = get64(b + 128);
  sb->journal_seq = get64(b + 136);
  sb->clean = get32(b + 144);
  if (sb->block_size != BS || sb->journal_head >= sb->journal_blocks ||
      sb->data_start > sb->total_blocks)
    return -EUCLEAN;
  return 0;
}

/* Two superblock slots (blocks 0 and 1) written alternately: a torn superblock write leaves the
 * other slot, one generation older, intact. */
int sb_read_best(ulfs_dev *dev, superblock *out) {
  uint8_t *b = ulfs_alloc_aligned(2 * BS);
  if (!b) return -ENOMEM;
  int rc = ulfs_dev_read(dev, b, 0, 2 * BS);
  if (rc) {
    free(b);
    return rc;
  }
  superblock s[2];
  int ok[2];
  for (int i = 0; i < 2; i++) ok[i] = sb_decode(b + i * BS, &s[i]);
  free(b);
  if (ok[0] && ok[1]) return ok[0] == -EPROTONOSUPPORT || ok[1] == -EPROTONOSUPPORT
                                 ? -EPROTONOSUPPORT : -EINVAL;
  int best = ok[0] ? 1 : ok[1] ? 0 : (s[1].generation > s[0].generation ? 1 : 0);
  *out = s[best];
  return 0;
}

int sb_write(ulfs_dev *dev, superblock *sb) {
  sb->generation++;
  uint8_t *b = ulfs_alloc_aligned(BS);
  if (!b) return -ENOMEM;
  sb_encode(sb, b);
  int rc = ulfs_dev_write(dev, b, (sb->generation % 2) * BS, BS);
  free(b);
  return rc;
}

/* ---- transactions --------------------------------------------------------------------- */
void txn_init(txn *t) { memset(t, 0, sizeof *t); }

void txn_free(txn *t) {
  for (uint32_t i = 0; i < t->n; i++) free(t->b[i].img);
  free(t->b);
  memset(t, 0, sizeof *t);
}

txn_blk *txn_entry(txn *t, uint64_t blk) {
  for (uint32_t i = 0; i < t->n; i++)
    if (t->b[i].blk == blk) return &t->b[i];
  if (t->n == t->cap) {
    uint32_t nc = t->cap ? t->cap * 2 : 16;
    txn_blk *nb = realloc(t->b, nc * sizeof *nb);
    if (!nb) return NULL;
    t->b = nb;
    t->cap = nc;
  }
  uint8_t *img = ulfs_alloc_aligned(BS);
  if (!img) return NULL;
  t->b[t->n] = (txn_blk){.blk = blk, .img = img, .lo = 0, .hi = BS, .zero_tail = false};
  return &t->b[t->n++];
}

uint8_t *txn_block(txn *t, uint64_t blk) {
  txn_blk *e = txn_entry(t, blk);
  return e ? e->img : NULL;
}

static uint32_t hdr_blocks(uint32_t n) {
  if (n <= JHDR_TARGETS_FIRST) return 1;
  return 1 + (n - JHDR_TARGETS_FIRST + BS / 8 - 1) / (BS / 8);
}

static uint64_t *hdr_target(uint8_t *hdr, uint32_t i) {
  return (uint64_t *)(hdr + JHDR_FIXED + (size_t)i * 8);
}

/* Writes the images of t home, and those waiting in fs->pend (unflushed commits) that t does not
 * supersede; empties fs->pend. Only after a device flush made their records durable. */
static int checkpoint(ulfs *fs, const txn *t) {
  int rc = 0;
  for (uint32_t i = 0; i < fs->pend.n && rc == 0; i++) {
    bool newer = false;
    for (uint32_t k = 0; t && k < t->n && !newer; k++) newer = t->b[k].blk == fs->pend.b[i].blk;
    if (!newer) rc = ulfs_dev_write(fs->dev, fs->pend.b[i].img, fs->pend.b[i].blk * BS, BS);
  }
  for (uint32_t i = 0; t && i < t->n && rc == 0; i++)
    if (!(t->b[i].blk & JDATA))
      rc = ulfs_dev_write(fs->dev, t->b[i].img, t->b[i].blk * BS, BS);
  txn_free(&fs->pend);
  return rc;
}

static int journal_wrap(ulfs *fs) {
  /* Every earlier transaction is checkpointed, or waits in fs->pend: write those home, and the
   * journal-only pages whose only copy the records are (J5), make the home writes durable, then
   * move the head so none of them is replayed again (J3). */
  int rc = jlog_home(fs);
  if (rc == 0) rc = ulfs_dev_flush(fs->dev);
  if (rc == 0) rc = checkpoint(fs, NULL);
  if (rc == 0) rc = ulfs_dev_flush(fs->dev);
  if (rc) return rc;
  fs->journal_unflushed = false;
  fs->sb.journal_head = 0;
  fs->sb.journal_seq = fs->jseq;
  rc = sb_write(fs->dev, &fs->sb);
  if (rc) return rc;
  rc = ulfs_dev_flush(fs->dev);
  if (rc) return rc;
  fs->jbyte = 0;
  fs->c_wraps++;
  for (uint32_t i = 0; i < fs->nquar; i++) bfree_mem(fs, fs->quar[i].start, fs->quar[i].len);
  fs->nquar = 0;
  return 0;
}

/* Serialises the record of t (header blocks, images, commit block) into a new buffer. */
static uint8_t *encode_record(const txn *t, uint64_t seq, bool ordered, uint32_t nh,
                              uint64_t total) {
  uint8_t *buf = ulfs_alloc_aligned(total * BS);
  if (!buf) return NULL;
  put32(buf, ULFS_JHDR_MAGIC);
  put32(buf + 4, ordered ? JTX_ORDERED : 0);
  put64(buf + 8, seq);
  put32(buf + 16, t->n);
  put32(buf + 20, nh);
  for (uint32_t i = 0; i < t->n; i++) {
    /* targets continue across header blocks without per-block headers after the first */
    put64((uint8_t *)hdr_target(buf, i), t->b[i].blk);
    memcpy(buf + (nh + i) * (size_t)BS, t->b[i].img, BS);
  }
  uint8_t *cm = buf + (nh + t->n) * (size_t)BS;
  put32(cm, ULFS_JCMT_MAGIC);
  put64(cm + 8, seq);
  put32(cm + 16, t->n);
  put32(cm + 20, ulfs_crc32c(0, buf, (nh + t->n) * (size_t)BS));
  return buf;
}

/* ---- inode records (J6) ---------------------------------------------------------------- */
#define IREC_FIXED (32u + INODE_SIZE) /* header fields, then the inode's slot */
#define IREC_DESC 16u                 /* per data range: home block, offset, length, flags */
#define IREC_TRAILER 16u              /* commit magic, ranges, sequence (low half), CRC32C */
#define IREC_ZERO_TAIL 0x1u           /* range flag: the block's bytes past the range are zero */
#define IREC_META 0x2u /* range flag (version 4): of an extent overflow block, not of file data */

/* Whether an inode record logs entry e of its transaction as a range: a data block's changed
 * bytes, or an extent overflow block's (the metadata blocks of t in the data region) when they
 * changed or the block is new. The inode-table and bitmap blocks are not ranges (J6). */
static bool irec_ranged(const ulfs *fs, const txn_blk *e) {
  if (e->blk & JDATA) return true;
  return e->blk >= fs->sb.data_start && (e->hi > e->lo || e->zero_tail);
}

/* The length of t's inode record, a multiple of IREC_ALIGN (J7). */
static uint64_t irec_bytes(const ulfs *fs, const txn *t) {
  uint64_t bytes = IREC_FIXED + IREC_TRAILER;
  for (uint32_t i = 0; i < t->n; i++)
    if (irec_ranged(fs, &t->b[i])) bytes += IREC_DESC + (uint64_t)(t->b[i].hi - t->b[i].lo);
  return (bytes + IREC_ALIGN - 1) / IREC_ALIGN * IREC_ALIGN;
}

/* Serialises t as an inode record of `len` bytes into buf, every byte of them
 * (docs/format/ulfs-device.md, "Inode record"); false when t lacks the inode's table block. */
static bool encode_irec(const ulfs *fs, const txn *t, uint64_t seq, uint64_t len, uint8_t *buf) {
  uint64_t tblk = fs->sb.itable_start + (t->ino - 1) / INODES_PER_BLOCK;
  const uint8_t *table = NULL;
  uint32_t nd = 0;
  for (uint32_t i = 0; i < t->n; i++) {
    if (t->b[i].blk == tblk) table = t->b[i].img;
    if (irec_ranged(fs, &t->b[i])) nd++;
  }
  if (!table) return false;
  put32(buf, ULFS_JHDR_MAGIC);
  put32(buf + 4, JTX_INODE);
  put64(buf + 8, seq);
  put32(buf + 16, nd);
  put32(buf + 20, (uint32_t)(len / IREC_ALIGN));
  put64(buf + 24, t->ino);
  memcpy(buf + 32, table + ((t->ino - 1) % INODES_PER_BLOCK) * INODE_SIZE, INODE_SIZE);
  uint8_t *desc = buf + IREC_FIXED, *bytes = desc + (size_t)nd * IREC_DESC;
  for (uint32_t i = 0; i < t->n; i++) {
    const txn_blk *e = &t->b[i];
    if (!irec_ranged(fs, e)) continue;
    put64(desc, e->blk & ~JDATA);
    put32(desc + 8, (uint32_t)e->lo | (uint32_t)(e->hi - e->lo) << 16);
    put32(desc + 12, (e->zero_tail ? IREC_ZERO_TAIL : 0) | (e->blk & JDATA ? 0 : IREC_META));
    memcpy(bytes, e->img + e->lo, e->hi - e->lo);
    desc += IREC_DESC;
    bytes += e->hi - e->lo;
  }
  uint8_t *tr = buf + len - IREC_TRAILER;
  memset(bytes, 0, (size_t)(tr - bytes));
  put32(tr, ULFS_JCMT_MAGIC);
  put32(tr + 4, nd);
  put32(tr + 8, (uint32_t)seq);
  put32(tr + 12, ulfs_crc32c(0, buf, len - 4));
  return true;
}

/* Places t's inode record at fs->jbyte (J7): returns the blocks to write, from block *first,
 * which start with the bytes of the open block already written; NULL when out of memory or t
 * cannot be an inode record. Advances fs->jbyte and keeps the new open block in fs->jopen. */
static uint8_t *place_irec(ulfs *fs, const txn *t, uint64_t len, uint64_t *first,
                           uint64_t *nblk) {
  uint64_t start = fs->jbyte, in = start % BS, end = start + len;
  *first = start / BS;
  *nblk = (end + BS - 1) / BS - *first;
  uint8_t *buf = ulfs_alloc_aligned(*nblk * BS);
  if (!buf) return NULL;
  if (in) memcpy(buf, fs->jopen, in);
  memset(buf + in + len, 0, *nblk * BS - in - len); /* the rest of the last block */
  if (!encode_irec(fs, t, fs->jseq, len, buf + in)) {
    free(buf);
    return NULL;
  }
  if (end % BS) memcpy(fs->jopen, buf + (*nblk - 1) * BS, BS);
  fs->c_jblocks += (end + BS - 1) / BS - (start + BS - 1) / BS; /* blocks begun */
  fs->jbyte = end;
  return buf;
}

/* Keeps the metadata images of an unflushed commit (record seq) for the checkpoint after the
 * next flush; a later image of the same block replaces an earlier one. */
static int pend_add(ulfs *fs, const txn *t, uint64_t seq) {
  for (uint32_t i = 0; i < t->n; i++) {
    if (t->b[i].blk & JDATA) continue;
    txn_blk *e = txn_entry(&fs->pend, t->b[i].blk);
    if (!e) return -ENOMEM;
    memcpy(e->img, t->b[i].img, BS);
    e->seq = seq;
  }
  return 0;
}

int journal_harden(ulfs *fs) {
  if (!fs->journal_unflushed && !fs->data_unflushed && fs->pend.n == 0) return 0;
  /* Records before `upto` and writes before `gen` were issued before the flush starts. A
   * flush or wrap of another writer meanwhile may checkpoint fs->pend itself (emptying it). */
  uint64_t upto = fs->jseq, gen = fs->unflushed_gen;
  pthread_mutex_unlock(&fs->lock);
  int rc = ulfs_dev_flush(fs->dev);
  pthread_mutex_lock(&fs->lock);
  if (rc) return rc;
  if (fs->unflushed_gen == gen) fs->data_unflushed = fs->journal_unflushed = false;
  /* Home blocks get only images whose record is durable now; an image replaced by a later
   * record's (seq >= upto) waits for the next flush, and its record stays in the journal. */
  uint32_t keep = 0;
  for (uint32_t i = 0; i < fs->pend.n; i++) {
    txn_blk *e = &fs->pend.b[i];
    if (e->seq >= upto) {
      fs->pend.b[keep++] = *e;
      continue;
    }
    if (rc == 0) rc = ulfs_dev_write(fs->dev, e->img, e->blk * BS, BS);
    if (rc) {
      fs->pend.b[keep++] = *e; /* not home: stays pending */
      continue;
    }
    free(e->img);
  }
  fs->pend.n = keep;
  return rc;
}

/* Device I/O of a commit, with fs->lock released when `unlock` (the caller holds fs->jbusy, so
 * no other journal writer runs meanwhile). */
static void io_unlock(ulfs *fs, bool unlock) {
  if (unlock) pthread_mutex_unlock(&fs->lock);
}
static void io_relock(ulfs *fs, bool unlock) {
  if (unlock) pthread_mutex_lock(&fs->lock);
}

int journal_commit(ulfs *fs, txn *t, unsigned flags) {
  bool unlock = flags & JC_UNLOCK, durable = flags & JC_FLUSH;
  bool ordered = flags & JC_ORDERED;
  int rc;
  if (t->n == 0) {
    /* nothing to log: a durable commit still hardens earlier unflushed ones */
    if (!durable || (!fs->journal_unflushed && !fs->data_unflushed && fs->pend.n == 0)) return 0;
    fs->data_unflushed = false;
    io_unlock(fs, unlock);
    rc = ulfs_dev_flush(fs->dev);
    io_relock(fs, unlock);
    if (rc == 0) fs->journal_unflushed = false;
    return rc ? rc : checkpoint(fs, NULL);
  }
  /* J5: an ORDERED record ends the replay of every earlier data range, so the pages whose only
   * copy those ranges are go home first, before the flush that precedes the record (J4) */
  if (ordered && (rc = jlog_home(fs)) != 0) return rc;
  /* an hflush of one inode (never durable nor ORDERED) goes as an inode record (J6, J7) */
  bool irec = t->ino && !durable && !ordered;
  uint32_t nh = hdr_blocks(t->n);
  uint64_t len = irec ? irec_bytes(fs, t) : ((uint64_t)nh + t->n + 1) * BS;
  uint64_t jbytes = fs->sb.journal_blocks * BS;
  if (len > jbytes) return -ENOSPC;
  if (!irec) fs->jbyte = (fs->jbyte + BS - 1) / BS * BS; /* a block record: a block boundary */
  if (fs->jbyte + len > jbytes && (rc = journal_wrap(fs)) != 0) return rc;
  bool preflush = ordered && fs->data_unflushed; /* J4 */
  /* Cleared before the flush: home writes issued while the lock is released set it again. */
  if (ordered) fs->data_unflushed = false;
  uint64_t first, total;
  uint8_t *buf;
  if (irec) {
    buf = place_irec(fs, t, len, &first, &total);
  } else {
    first = fs->jbyte / BS;
    total = len / BS;
    buf = encode_record(t, fs->jseq, ordered, nh, total);
    if (buf) {
      fs->jbyte += len;
      fs->c_jblocks += total;
    }
  }
  if (!buf) return -ENOMEM;
  uint64_t at = (fs->sb.journal_start + first) * BS;
  fs->jseq++;
  fs->c_commits++;
  io_unlock(fs, unlock);
  rc = preflush ? ulfs_dev_flush(fs->dev) : 0;
  /* a record that needs no flush needs only reach the kernel (hflush) */
  if (rc == 0)
    rc = durable ? ulfs_dev_write(fs->dev, buf, at, total * BS)
                 : ulfs_dev_write_cached(fs->dev, buf, at, total * BS);
  if (rc == 0 && durable) rc = ulfs_dev_flush(fs->dev); /* the commit point */
  io_relock(fs, unlock);
  free(buf);
  if (rc) return rc;
  if (!durable) {
    fs->journal_unflushed = true;
    fs->unflushed_gen++;
    return pend_add(fs, t, fs->jseq - 1);
  }
  fs->journal_unflushed = false;
  return checkpoint(fs, t);
}

/* Checks an inode record (J6) of `len` bytes at rec: trailer, CRC, and that the inode, its
 * extents and every data range lie where they may. */
static bool irec_valid(const superblock *sb, const uint8_t *rec, uint64_t seq, uint32_t nd,
                       uint64_t len) {
  const uint8_t *tr = rec + len - IREC_TRAILER;
  if (get32(tr) != ULFS_JCMT_MAGIC || get32(tr + 4) != nd || get32(tr + 8) != (uint32_t)seq ||
      get32(tr + 12) != ulfs_crc32c(0, rec, len - 4))
    return false;
  uint64_t ino = get64(rec + 24);
  const uint8_t *slot = rec + 32;
  uint32_t next = get32(slot + 32), nx = get32(slot + 36);
  /* version 3: inline extents only; version 4 also logs overflow blocks (IREC_META ranges) */
  bool chained = sb->version >= 4 && nx > 0;
  if (ino == 0 || ino > sb->inode_count || (next > INLINE_EXTENTS && !chained) ||
      (nx && !chained))
    return false;
  if (chained && (get64(slot + 40) < sb->data_start || get64(slot + 40) >= sb->total_blocks))
    return false;
  for (uint32_t i = 0; i < next && i < INLINE_EXTENTS; i++) {
    uint64_t p = get64(slot + 64 + i * 16 + 8), n = get32(slot + 64 + i * 16 + 4);
    if (p < sb->data_start || p + n > sb->total_blocks || p + n < p) return false;
  }
  uint64_t bytes = IREC_FIXED + (uint64_t)nd * IREC_DESC + IREC_TRAILER;
  for (uint32_t i = 0; i < nd; i++) {
    const uint8_t *d = rec + IREC_FIXED + (size_t)i * IREC_DESC;
    uint64_t blk = get64(d);
    uint32_t off = get32(d + 8) & 0xffff, n = get32(d + 8) >> 16, flags = get32(d + 12);
    if (blk < sb->data_start || blk >= sb->total_blocks || off + n > BS) return false;
    if (flags & ~(IREC_ZERO_TAIL | (sb->version >= 4 ? IREC_META : 0))) return false;
    bytes += n;
  }
  return bytes <= len;
}

/* A record read from the journal: buf holds the blocks it lies in, rec points at its header. */
typedef struct jrec {
  uint8_t *buf;
  const uint8_t *rec;
  uint64_t start, len; /* journal-relative bytes */
  uint32_t n, nh;      /* images (data ranges of an inode record) and header blocks (0 then) */
} jrec;

/* Reads and checks the record at journal byte `pos` with sequence seq, only an inode record when
 * `irec_only`: 1 when found (r filled; free r->buf), 0 when the chain does not go on there (torn,
 * stale or out of range), a negative errno on an I/O error. */
static int read_at(ulfs_dev *dev, const superblock *sb, uint8_t *hdr, uint64_t pos, uint64_t seq,
                   bool irec_only, jrec *r) {
  uint64_t jbytes = sb->journal_blocks * BS, in = pos % BS;
  if (pos + JHDR_FIXED > jbytes) return 0;
  int rc = ulfs_dev_read(dev, hdr, (sb->journal_start + pos / BS) * BS, BS);
  if (rc) return rc;
  const uint8_t *h = hdr + in;
  if (get32(h) != ULFS_JHDR_MAGIC || get64(h + 8) != seq) return 0;
  uint32_t flags = get32(h + 4);
  bool irec = flags == JTX_INODE && sb->version >= 3;
  if (!irec && (irec_only || (flags & ~JTX_ORDERED))) return 0;
  uint32_t n = get32(h + 16), nh = get32(h + 20);
  uint64_t len;
  if (irec) {
    len = (uint64_t)nh * (sb->version >= 4 ? IREC_ALIGN : BS); /* J7: 64-byte units */
    nh = 0;
    if (len < IREC_FIXED + IREC_TRAILER) return 0;
  } else {
    if (n == 0 || nh != hdr_blocks(n)) return 0;
    len = ((uint64_t)nh + n + 1) * BS;
  }
  if (pos + len > jbytes) return 0;
  uint64_t nblk = (in + len + BS - 1) / BS;
  uint8_t *buf = ulfs_alloc_aligned(nblk * BS);
  if (!buf) return -ENOMEM;
  if ((rc = ulfs_dev_read(dev, buf, (sb->journal_start + pos / BS) * BS, nblk * BS)) != 0) {
    free(buf);
    return rc;
  }
  const uint8_t *rec = buf + in;
  bool ok;
  if (irec) {
    ok = irec_valid(sb, rec, seq, n, len);
  } else {
    const uint8_t *cm = rec + (nh + n) * (size_t)BS;
    ok = get32(cm) == ULFS_JCMT_MAGIC && get64(cm + 8) == seq && get32(cm + 16) == n &&
         get32(cm + 20) == ulfs_crc32c(0, rec, (nh + n) * (size_t)BS);
    for (uint32_t i = 0; ok && i < n; i++) {
      uint64_t tgt = *hdr_target(buf, i), blk = tgt & ~JDATA;
      /* only metadata locations outside the superblocks and the journal may be targets, and
       * only data blocks may carry data images */
      if (blk < sb->bbitmap_start || blk >= sb->total_blocks) ok = false;
      if ((tgt & JDATA) && blk < sb->data_start) ok = false;
    }
  }
  if (!ok) {
    free(buf);
    return 0;
  }
  *r = (jrec){.buf = buf, .rec = rec, .start = pos, .len = len, .n = n, .nh = nh};
  return 1;
}

/* The record with sequence seq that follows the one ending at journal byte `pos` (J7): an inode
 * record right there, else any record at the next block boundary. Returns as read_at. */
static int next_record(ulfs_dev *dev, const superblock *sb, uint8_t *hdr, uint64_t pos,
                       uint64_t seq, jrec *r) {
  if (pos % BS) {
    int got = read_at(dev, sb, hdr, pos, seq, true, r);
    if (got) return got;
    pos += BS - pos % BS;
  }
  return read_at(dev, sb, hdr, pos, seq, false, r);
}

/* The block and inode bitmaps while a replay applies records: held in memory and written once
 * at its end, where setting a record's extent bits on the device took a read and a write per
 * extent and record (a WAL's record names every extent of the file). Every replay write to a
 * bitmap block goes through here (block records' images of it included), so the result is
 * that of applying the records in order. */
typedef struct rmaps {
  uint64_t start[2], blocks[2]; /* block bitmap, inode bitmap */
  uint8_t *bits[2];
  bool *dirty[2];
} rmaps;

static void rmaps_free(rmaps *m) {
  for (int k = 0; k < 2; k++) {
    free(m->bits[k]);
    free(m->dirty[k]);
  }
}

static int rmaps_load(ulfs_dev *dev, const superblock *sb, rmaps *m) {
  memset(m, 0, sizeof *m);
  m->start[0] = sb->bbitmap_start;
  m->blocks[0] = sb->bbitmap_blocks;
  m->start[1] = sb->ibitmap_start;
  m->blocks[1] = sb->ibitmap_blocks;
  for (int k = 0; k < 2; k++) {
    m->bits[k] = ulfs_alloc_aligned(m->blocks[k] * BS);
    m->dirty[k] = calloc(m->blocks[k] ? m->blocks[k] : 1, sizeof(bool));
    if (!m->bits[k] || !m->dirty[k]) return -ENOMEM;
    int rc = ulfs_dev_read(dev, m->bits[k], m->start[k] * BS, m->blocks[k] * BS);
    if (rc) return rc;
  }
  return 0;
}

/* A record's image of block blk: kept when blk is a bitmap block (true), else not (false). */
static bool rmaps_put(rmaps *m, uint64_t blk, const uint8_t *img) {
  for (int k = 0; k < 2; k++) {
    if (blk < m->start[k] || blk >= m->start[k] + m->blocks[k]) continue;
    memcpy(m->bits[k] + (blk - m->start[k]) * BS, img, BS);
    m->dirty[k][blk - m->start[k]] = true;
    return true;
  }
  return false;
}

/* Sets bits [s, s + len) of map k (0: blocks, 1: inodes); the record was validated, but a bit
 * past the map is refused rather than written. */
static int rmaps_set(rmaps *m, int k, uint64_t s, uint64_t len) {
  if (s + len > m->blocks[k] * BS * 8 || s + len < s) return -EUCLEAN;
  for (uint64_t i = s; i < s + len; i++) bit_set(m->bits[k], i);
  for (uint64_t b = s / (BS * 8); len && b <= (s + len - 1) / (BS * 8); b++)
    m->dirty[k][b] = true;
  return 0;
}

static int rmaps_store(ulfs_dev *dev, const rmaps *m) {
  int rc = 0;
  for (int k = 0; k < 2; k++)
    for (uint64_t b = 0; b < m->blocks[k] && rc == 0; b++)
      if (m->dirty[k][b])
        rc = ulfs_dev_write(dev, m->bits[k] + b * BS, (m->start[k] + b) * BS, BS);
  return rc;
}

/* Sets the bitmap bits of the extents in the overflow chain starting at block x (nx blocks)
 * and of the chain's blocks, reading them from the device (A3). */
static int replay_chain_bits(ulfs_dev *dev, const superblock *sb, rmaps *m, uint64_t x,
                             uint32_t nx) {
  uint8_t *xb = ulfs_alloc_aligned(BS);
  if (!xb) return -ENOMEM;
  int rc = 0;
  for (uint32_t c = 0; c < nx && rc == 0; c++) {
    if (x < sb->data_start || x >= sb->total_blocks) {
      rc = -EUCLEAN;
      break;
    }
    if ((rc = ulfs_dev_read(dev, xb, x * BS, BS)) != 0) break;
    uint32_t cnt = get32(xb + 4);
    if (get32(xb) != ULFS_XBLK_MAGIC || cnt > XBLK_EXTENTS) {
      rc = -EUCLEAN;
      break;
    }
    rc = rmaps_set(m, 0, x, 1);
    for (uint32_t i = 0; i < cnt && rc == 0; i++) {
      uint64_t p = get64(xb + 16 + i * 16 + 8), n = get32(xb + 16 + i * 16 + 4);
      if (p < sb->data_start || p + n > sb->total_blocks || p + n < p) rc = -EUCLEAN;
      else rc = rmaps_set(m, 0, p, n);
    }
    x = get64(xb + 8);
  }
  free(xb);
  return rc;
}

/* Applies an inode record (J6); its data ranges only when `data`, its overflow blocks' ranges
 * always (metadata), before the bitmap bits of the extents they hold are set. */
static int replay_irec(ulfs_dev *dev, const superblock *sb, rmaps *m, const uint8_t *buf,
                       uint32_t nd, bool data) {
  uint8_t *blk = ulfs_alloc_aligned(BS);
  if (!blk) return -ENOMEM;
  uint64_t ino = get64(buf + 24);
  const uint8_t *slot = buf + 32;
  uint64_t tb = (sb->itable_start + (ino - 1) / INODES_PER_BLOCK) * BS;
  int rc = ulfs_dev_read(dev, blk, tb, BS);
  if (rc == 0) {
    memcpy(blk + ((ino - 1) % INODES_PER_BLOCK) * INODE_SIZE, slot, INODE_SIZE);
    rc = ulfs_dev_write(dev, blk, tb, BS);
  }
  if (rc == 0) rc = rmaps_set(m, 1, ino - 1, 1);
  const uint8_t *bytes = buf + IREC_FIXED + (size_t)nd * IREC_DESC;
  for (uint32_t i = 0; i < nd && rc == 0; i++) {
    const uint8_t *d = buf + IREC_FIXED + (size_t)i * IREC_DESC;
    uint32_t off = get32(d + 8) & 0xffff, len = get32(d + 8) >> 16, flags = get32(d + 12);
    if (data || (flags & IREC_META)) {
      uint64_t at = get64(d) * BS;
      if ((rc = ulfs_dev_read(dev, blk, at, BS)) != 0) break;
      memcpy(blk + off, bytes, len);
      if (flags & IREC_ZERO_TAIL) memset(blk + off + len, 0, BS - off - len);
      rc = ulfs_dev_write(dev, blk, at, BS);
    }
    bytes += len;
  }
  uint32_t next = get32(slot + 32);
  for (uint32_t i = 0; i < next && i < INLINE_EXTENTS && rc == 0; i++) /* A3 */
    rc = rmaps_set(m, 0, get64(slot + 64 + i * 16 + 8), get32(slot + 64 + i * 16 + 4));
  if (rc == 0 && get32(slot + 36))
    rc = replay_chain_bits(dev, sb, m, get64(slot + 40), get32(slot + 36));
  free(blk);
  return rc;
}

/* Two passes: the first finds the valid chain and its last ORDERED transaction, the second
 * applies metadata images of every transaction and data images only after that one (J5). */
int journal_replay(ulfs_dev *dev, const superblock *sb, bool apply, uint64_t *end_pos,
                   uint64_t *end_seq) {
  uint8_t *hdr = ulfs_alloc_aligned(BS);
  if (!hdr) return -ENOMEM;
  int rc = 0;
  int64_t count = 0, last_ordered = -1;
  uint64_t pos = sb->journal_head * BS, seq = sb->journal_seq;
  jrec r;
  int got;
  while ((got = next_record(dev, sb, hdr, pos, seq, &r)) > 0) {
    if (get32(r.rec + 4) & JTX_ORDERED) last_ordered = count;
    free(r.buf);
    pos = r.start + r.len;
    seq++;
    count++;
  }
  if (got < 0) rc = got;
  uint64_t apos = sb->journal_head * BS, aseq = sb->journal_seq;
  rmaps maps;
  memset(&maps, 0, sizeof maps);
  if (apply && count && rc == 0) rc = rmaps_load(dev, sb, &maps);
  for (int64_t k = 0; apply && rc == 0 && k < count; k++) {
    if ((got = next_record(dev, sb, hdr, apos, aseq, &r)) <= 0) {
      rc = got ? got : -EIO; /* the record changed under us between the passes */
      break;
    }
    if (get32(r.rec + 4) & JTX_INODE)
      rc = replay_irec(dev, sb, &maps, r.rec, r.n, k >= last_ordered);
    for (uint32_t i = 0; r.nh && i < r.n && rc == 0; i++) {
      uint64_t tgt = *hdr_target(r.buf, i);
      const uint8_t *img = r.buf + (r.nh + i) * (size_t)BS;
      if ((tgt & JDATA) && k < last_ordered) continue;
      if (!(tgt & JDATA) && rmaps_put(&maps, tgt, img)) continue;
      rc = ulfs_dev_write(dev, img, (tgt & ~JDATA) * BS, BS);
    }
    free(r.buf);
    apos = r.start + r.len;
    aseq++;
  }
  if (apply && count && rc == 0) rc = rmaps_store(dev, &maps);
  rmaps_free(&maps);
  free(hdr);
  if (rc) return rc;
  if (apply && count && (rc = ulfs_dev_flush(dev)) != 0) return rc;
  /* the next record starts at a block boundary: the open block's bytes are not kept (J7) */
  uint64_t blk = (pos + BS - 1) / BS;
  *end_pos = blk < sb->journal_blocks ? blk : 0;
  *end_seq = seq;
  return (int)count;
}
