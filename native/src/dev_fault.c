/* dev_fault.c -- the fault device: wraps any backend and simulates power loss and I/O errors
 * (tests only; docs/kill-loop.md says precisely what is modelled).
 *
 * Power loss. With the volatile model on, a write is not sent to the inner device: it is kept
 * in a list (the "drive's write cache") that reads see, and only a flush writes the list to the
 * inner device, in order, and flushes that. A crash then decides what the volatile writes
 * become: all lost (DROP), a random subset of their 4 KB blocks persisted in random order
 * (SUBSET), or that plus torn blocks that keep only some of their 512-byte sectors (TORN).
 * After a crash the device is "off" until ulfs_dev_fault_power_on: writes and flushes are
 * accepted and dropped, as a mount that is still running on a dead machine would see them, so a
 * test can crash in the middle of any operation and let it finish.
 *
 * Errors. One rule per request kind (read, write, flush): fail the at-th request from now, or
 * each request with a probability, once or persistently; the error is -EIO, -ENOSPC or a short
 * write (a prefix of whole sectors is stored, then -EIO is returned, as the vtable contract asks
 * for a transfer that did not complete).
 *
 * All state is under one mutex: the fault device is for tests, not for speed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define SECTOR 512u

typedef struct vwrite { /* one volatile write */
  uint64_t off;
  size_t len;
  uint8_t *data;
} vwrite;

typedef struct fault_rule {
  int err;       /* 0: no rule; -EIO, -ENOSPC or ULFS_FAULT_SHORT */
  uint64_t at;   /* fail request number `at` counted from when the rule was set; 0: use p */
  double p;
  int persistent;
  uint64_t seen; /* requests of this kind since the rule was set */
  int fired;
} fault_rule;

typedef struct fault_dev {
  ulfs_dev dev;
  ulfs_dev *inner;
  pthread_mutex_t mu; /* guards every field below */
  uint64_t rng;
  int volatile_on;
  vwrite *v;
  size_t nv, capv;
  int off;                 /* power is off: drop writes and flushes */
  int64_t crash_left;      /* < 0: no crash scheduled */
  ulfs_crash_mode crash_mode;
  fault_rule rules[3];
  ulfs_fault_stats st;
} fault_dev;

static const ulfs_dev_ops fault_ops;

static uint64_t rnd(fault_dev *f) { /* xorshift64* */
  f->rng ^= f->rng >> 12;
  f->rng ^= f->rng << 25;
  f->rng ^= f->rng >> 27;
  return f->rng * 0x2545F4914F6CDD1Dull;
}

static double rnd01(fault_dev *f) { return (double)(rnd(f) >> 11) / (double)(1ull << 53); }

/* Decides whether this request of kind `op` fails; returns the error (0: proceed). */
static int rule_check(fault_dev *f, ulfs_fault_op op) {
  fault_rule *r = &f->rules[op];
  if (!r->err) return 0;
  r->seen++;
  int fire = r->fired && r->persistent;
  if (!fire) fire = r->at ? r->seen == r->at : (r->p > 0 && rnd01(f) < r->p);
  if (!fire) return 0;
  r->fired = 1;
  f->st.errors_injected++;
  return r->err;
}

static void drop_volatile(fault_dev *f) {
  for (size_t i = 0; i < f->nv; i++) free(f->v[i].data);
  f->nv = 0;
}

/* Reads what the host would see: the inner device overlaid with the volatile writes. */
static int read_view(fault_dev *f, void *buf, uint64_t off, size_t len) {
  int rc = f->inner->ops->read(f->inner, buf, off, len);
  if (rc) return rc;
  for (size_t i = 0; i < f->nv; i++) {
    const vwrite *w = &f->v[i];
    uint64_t lo = w->off > off ? w->off : off;
    uint64_t hi = w->off + w->len < off + len ? w->off + w->len : off + len;
    if (lo < hi) memcpy((uint8_t *)buf + (lo - off), w->data + (lo - w->off), hi - lo);
  }
  return 0;
}

/* Stores a write: into the volatile list, or straight to the inner device. */
static int store(fault_dev *f, const void *buf, uint64_t off, size_t len) {
  if (!f->volatile_on) return f->inner->ops->write(f->inner, buf, off, len);
  if (f->nv == f->capv) {
    size_t cap = f->capv ? f->capv * 2 : 64;
    vwrite *nv = realloc(f->v, cap * sizeof *nv);
    if (!nv) return -ENOMEM;
    f->v = nv;
    f->capv = cap;
  }
  uint8_t *copy = ulfs_alloc_aligned(len); /* aligned: it is written to O_DIRECT backends */
  if (!copy) return -ENOMEM;
  memcpy(copy, buf, len);
  f->v[f->nv++] = (vwrite){off, len, copy};
  return 0;
}

/* Writes the sectors of `mask` (bit i = sector i) of one block through to the inner device,
 * keeping the rest of the block as the inner device has it. */
static int write_sectors(fault_dev *f, const uint8_t *blk, uint64_t off, unsigned mask) {
  uint8_t *cur = ulfs_alloc_aligned(BS);
  if (!cur) return -ENOMEM;
  int rc = f->inner->ops->read(f->inner, cur, off, BS);
  if (rc == 0) {
    for (unsigned s = 0; s < BS / SECTOR; s++) {
      if (mask & (1u << s)) memcpy(cur + s * SECTOR, blk + s * SECTOR, SECTOR);
    }
    rc = f->inner->ops->write(f->inner, cur, off, BS);
  }
  free(cur);
  return rc;
}

/* Power loss: materialises the volatile writes as `mode` says, then switches the power off.
 * REQUIRES: f->mu held. */
static int crash_locked(fault_dev *f, ulfs_crash_mode mode) {
  int rc = 0;
  if (mode == ULFS_CRASH_DROP) {
    for (size_t i = 0; i < f->nv; i++) f->st.blocks_lost += f->v[i].len / BS;
  } else if (f->nv) {
    size_t nb = 0;
    for (size_t i = 0; i < f->nv; i++) nb += f->v[i].len / BS;
    typedef struct { const uint8_t *data; uint64_t off; } blk;
    blk *b = malloc(nb * sizeof *b);
    if (!b) return -ENOMEM;
    size_t n = 0;
    for (size_t i = 0; i < f->nv; i++) {
      for (size_t k = 0; k < f->v[i].len / BS; k++) {
        b[n++] = (blk){f->v[i].data + k * BS, f->v[i].off + k * BS};
      }
    }
    for (size_t i = n; i > 1; i--) { /* random order: a drive cache reorders freely */
      size_t j = rnd(f) % i;
      blk t = b[i - 1];
      b[i - 1] = b[j];
      b[j] = t;
    }
    uint8_t *tmp = ulfs_alloc_aligned(BS);
    for (size_t i = 0; i < n && rc == 0 && tmp; i++) {
      if (rnd(f) & 1) { /* this block never reached the medium */
        f->st.blocks_lost++;
        continue;
      }
      unsigned all = (1u << (BS / SECTOR)) - 1;
      unsigned mask = mode == ULFS_CRASH_TORN && (rnd(f) & 1) ? (unsigned)(rnd(f) & all) : all;
      f->st.blocks_persisted += mask == all;
      f->st.blocks_torn += mask != all;
      if (mask == all) {
        memcpy(tmp, b[i].data, BS);
        rc = f->inner->ops->write(f->inner, tmp, b[i].off, BS);
      } else if (mask) {
        rc = write_sectors(f, b[i].data, b[i].off, mask);
      }
    }
    if (!tmp) rc = -ENOMEM;
    free(tmp);
    free(b);
    if (rc == 0) rc = f->inner->ops->flush(f->inner);
  }
  drop_volatile(f);
  f->off = 1;
  f->crash_left = -1;
  f->st.crashes++;
  return rc;
}

static int fault_read(ulfs_dev *d, void *buf, uint64_t off, size_t len) {
  fault_dev *f = (fault_dev *)d;
  pthread_mutex_lock(&f->mu);
  int rc = rule_check(f, ULFS_FAULT_READ);
  if (rc == ULFS_FAULT_SHORT) rc = -EIO; /* a short read is an error like any other */
  if (rc == 0) rc = read_view(f, buf, off, len);
  pthread_mutex_unlock(&f->mu);
  return rc;
}

/* A short write: a random prefix of whole sectors (possibly none) is stored. */
static int short_write(fault_dev *f, const uint8_t *buf, uint64_t off, size_t len) {
  size_t keep = (size_t)(rnd(f) % (len / SECTOR)) * SECTOR;
  size_t whole = keep / BS * BS;
  int rc = whole ? store(f, buf, off, whole) : 0;
  if (rc == 0 && keep > whole) {
    uint8_t *blk = ulfs_alloc_aligned(BS);
    if (!blk) return -ENOMEM;
    rc = read_view(f, blk, off + whole, BS);
    if (rc == 0) {
      memcpy(blk, buf + whole, keep - whole);
      rc = store(f, blk, off + whole, BS);
    }
    free(blk);
  }
  return rc ? rc : -EIO;
}

static int fault_write(ulfs_dev *d, const void *buf, uint64_t off, size_t len) {
  fault_dev *f = (fault_dev *)d;
  int rc = 0;
  pthread_mutex_lock(&f->mu);
  if (!f->off && f->crash_left == 0) rc = crash_locked(f, f->crash_mode);
  if (f->off) {
    pthread_mutex_unlock(&f->mu);
    return rc; /* dropped: the machine is dead */
  }
  if (f->crash_left > 0) f->crash_left--;
  rc = rule_check(f, ULFS_FAULT_WRITE);
  if (rc == ULFS_FAULT_SHORT) rc = short_write(f, buf, off, len);
  else if (rc == 0) rc = store(f, buf, off, len);
  pthread_mutex_unlock(&f->mu);
  return rc;
}

static int fault_flush(ulfs_dev *d) {
  fault_dev *f = (fault_dev *)d;
  pthread_mutex_lock(&f->mu);
  int rc = f->off ? 0 : rule_check(f, ULFS_FAULT_FLUSH);
  if (rc == ULFS_FAULT_SHORT) rc = -EIO;
  if (rc == 0 && !f->off) {
    size_t i = 0;
    for (; i < f->nv && rc == 0; i++) {
      rc = f->inner->ops->write(f->inner, f->v[i].data, f->v[i].off, f->v[i].len);
    }
    if (rc) i--; /* the failed write stays volatile, with everything after it */
    for (size_t k = 0; k < i; k++) free(f->v[k].data);
    /* v is NULL while nothing was volatile (memmove must not get NULL) */
    if (f->nv) memmove(f->v, f->v + i, (f->nv - i) * sizeof *f->v);
    f->nv -= i;
    if (rc == 0) rc = f->inner->ops->flush(f->inner);
  }
  pthread_mutex_unlock(&f->mu);
  return rc;
}

static int fault_register_buffer(ulfs_dev *d, void *base, size_t len) {
  fault_dev *f = (fault_dev *)d;
  /* Writes may go to the inner device from the fault device's own copies, so the inner backend
   * must not rely on registered buffers; registering is an optimisation, skipping it is safe. */
  (void)f;
  (void)base;
  (void)len;
  return 0;
}

static void fault_close(ulfs_dev *d) {
  fault_dev *f = (fault_dev *)d;
  drop_volatile(f); /* closing without a flush loses the cache, as a power cut would */
  free(f->v);
  ulfs_dev_close(f->inner);
  pthread_mutex_destroy(&f->mu);
  free(f);
}

static void fault_unlock(ulfs_dev *d) { ulfs_dev_unlock(((fault_dev *)d)->inner); }

static const ulfs_dev_ops fault_ops = {
    .name = "fault", .read = fault_read, .write = fault_write, .flush = fault_flush,
    .register_buffer = fault_register_buffer, .close = fault_close, .unlock = fault_unlock};

int ulfs_dev_fault_wrap(ulfs_dev *inner, uint64_t seed, ulfs_dev **out) {
  if (!inner || !out) return -EINVAL;
  fault_dev *f = calloc(1, sizeof *f);
  if (!f) return -ENOMEM;
  pthread_mutex_init(&f->mu, NULL);
  f->inner = inner;
  f->rng = seed ? seed : 0x9E3779B97F4A7C15ull;
  f->crash_left = -1;
  f->dev.ops = &fault_ops;
  f->dev.backend = inner->backend;
  f->dev.size = inner->size;
  f->dev.direct = inner->direct;
  *out = &f->dev;
  return 0;
}

static fault_dev *as_fault(ulfs_dev *dev) {
  return dev && dev->ops == &fault_ops ? (fault_dev *)dev : NULL;
}

int ulfs_dev_fault_set_volatile(ulfs_dev *dev, int on) {
  fault_dev *f = as_fault(dev);
  if (!f) return -EINVAL;
  pthread_mutex_lock(&f->mu);
  int rc = 0;
  if (!on && f->nv) rc = -EBUSY; /* flush first: turning it off must not lose or apply writes */
  else f->volatile_on = on != 0;
  pthread_mutex_unlock(&f->mu);
  return rc;
}

int ulfs_dev_fault_crash(ulfs_dev *dev, ulfs_crash_mode mode) {
  fault_dev *f = as_fault(dev);
  if (!f || mode < ULFS_CRASH_DROP || mode > ULFS_CRASH_TORN) return -EINVAL;
  pthread_mutex_lock(&f->mu);
  int rc = f->off ? 0 : crash_locked(f, mode);
  pthread_mutex_unlock(&f->mu);
  return rc;
}

int ulfs_dev_fault_crash_after(ulfs_dev *dev, uint64_t writes, ulfs_crash_mode mode) {
  fault_dev *f = as_fault(dev);
  if (!f || mode < ULFS_CRASH_DROP || mode > ULFS_CRASH_TORN || writes > INT64_MAX) {
    return -EINVAL;
  }
  pthread_mutex_lock(&f->mu);
  f->crash_left = (int64_t)writes;
  f->crash_mode = mode;
  pthread_mutex_unlock(&f->mu);
  return 0;
}

int ulfs_dev_fault_power_on(ulfs_dev *dev) {
  fault_dev *f = as_fault(dev);
  if (!f) return -EINVAL;
  pthread_mutex_lock(&f->mu);
  f->off = 0;
  f->crash_left = -1;
  pthread_mutex_unlock(&f->mu);
  return 0;
}

int ulfs_dev_fault_inject(ulfs_dev *dev, ulfs_fault_op op, int err, uint64_t at,
                          double probability, int persistent) {
  fault_dev *f = as_fault(dev);
  if (!f || op < ULFS_FAULT_READ || op > ULFS_FAULT_FLUSH) return -EINVAL;
  if (err != 0 && err != -EIO && err != -ENOSPC && err != ULFS_FAULT_SHORT) return -EINVAL;
  if (err == ULFS_FAULT_SHORT && op != ULFS_FAULT_WRITE) return -EINVAL;
  if (!(probability >= 0 && probability <= 1)) return -EINVAL;
  pthread_mutex_lock(&f->mu);
  f->rules[op] = (fault_rule){.err = err, .at = at, .p = probability,
                              .persistent = persistent != 0};
  pthread_mutex_unlock(&f->mu);
  return 0;
}

int ulfs_dev_fault_get_stats(const ulfs_dev *dev, ulfs_fault_stats *st) {
  fault_dev *f = as_fault((ulfs_dev *)dev);
  if (!f || !st) return -EINVAL;
  pthread_mutex_lock(&f->mu);
  *st = f->st;
  pthread_mutex_unlock(&f->mu);
  return 0;
}

/* One "<op>:<err>[:at=K][:p=P][:persistent]" item of a spec; `item` is modified. */
static int configure_rule(ulfs_dev *dev, char *item) {
  char *save = NULL;
  const char *opname = strtok_r(item, ":", &save);
  const char *errname = strtok_r(NULL, ":", &save);
  if (!opname || !errname) return -EINVAL;
  ulfs_fault_op op;
  if (!strcmp(opname, "read")) op = ULFS_FAULT_READ;
  else if (!strcmp(opname, "write")) op = ULFS_FAULT_WRITE;
  else if (!strcmp(opname, "flush")) op = ULFS_FAULT_FLUSH;
  else return -EINVAL;
  int err;
  if (!strcmp(errname, "eio")) err = -EIO;
  else if (!strcmp(errname, "enospc")) err = -ENOSPC;
  else if (!strcmp(errname, "short")) err = ULFS_FAULT_SHORT;
  else return -EINVAL;
  uint64_t at = 0;
  double p = 0;
  int persistent = 0;
  for (char *opt; (opt = strtok_r(NULL, ":", &save));) {
    char *end = NULL;
    if (!strncmp(opt, "at=", 3)) at = strtoull(opt + 3, &end, 10);
    else if (!strncmp(opt, "p=", 2)) p = strtod(opt + 2, &end);
    else if (!strcmp(opt, "persistent")) persistent = 1;
    else return -EINVAL;
    if (end && (*end || end == opt + (opt[0] == 'a' ? 3 : 2))) return -EINVAL;
  }
  if (at == 0 && p == 0) return -EINVAL; /* a rule that can never fire is a typo */
  return ulfs_dev_fault_inject(dev, op, err, at, p, persistent);
}

int ulfs_dev_fault_configure(ulfs_dev *dev, const char *spec) {
  fault_dev *f = as_fault(dev);
  if (!f || !spec) return -EINVAL;
  char *copy = strdup(spec);
  if (!copy) return -ENOMEM;
  int rc = 0;
  char *save = NULL;
  for (char *item = strtok_r(copy, ";", &save); item && rc == 0;
       item = strtok_r(NULL, ";", &save)) {
    while (*item == ' ') item++;
    if (!*item) continue;
    if (!strcmp(item, "volatile")) {
      rc = ulfs_dev_fault_set_volatile(dev, 1);
    } else if (!strncmp(item, "seed=", 5)) {
      char *end = NULL;
      uint64_t seed = strtoull(item + 5, &end, 10);
      if (!*(item + 5) || *end) {
        rc = -EINVAL;
      } else {
        pthread_mutex_lock(&f->mu);
        f->rng = seed ? seed : 0x9E3779B97F4A7C15ull;
        pthread_mutex_unlock(&f->mu);
      }
    } else {
      rc = configure_rule(dev, item);
    }
  }
  free(copy);
  return rc;
}
