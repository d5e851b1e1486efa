/* ulfs-cachesim -- replays an access trace (docs/format/ulfs-trace.md) through every page-cache
 * policy of ulfs (the cache code itself, without data buffers: cache_sim_access) and Belady's
 * OPT, for a range of cache sizes, and writes read miss-ratio curves as CSV:
 *   policy,cache_pages,cache_bytes,reads,read_misses,read_miss_ratio
 * Usage: ulfs-cachesim <trace> <out.csv> [sizes] [--ablate]
 *   sizes: comma-separated cache sizes (4096, 64M, ...; at least 64 pages are used); default:
 *   ten sizes from 64 pages up to the trace's distinct pages, evenly on a log scale;
 *   --ablate: also lsm-arc with each of its four rules switched off (lsm-arc-no-a .. -no-d).
 * The simulator sees demand accesses only: readahead and the prefetcher are not replayed (every
 * policy and OPT see the same reference string). Drop records (unlink, truncate, DONTNEED)
 * remove pages from the simulated caches; OPT needs none: a file id is never reused, so a
 * deleted file's pages are never referenced again and OPT evicts them first. */
#include <errno.h>
#include <math.h>

#include "common.h"
#include "internal.h"

#define REC 24u

typedef struct rec {
  uint64_t idx;
  uint32_t fid, count; /* count: pages of a drop record */
  uint8_t kind, level, role, op;
} rec;

static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

/* Loads and validates the trace; on bad input prints the file and offset and returns NULL. */
static rec *load(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "ulfs-cachesim: %s: %s\n", path, strerror(errno));
    return NULL;
  }
  uint8_t h[16], r[REC];
  if (fread(h, 1, 16, f) != 16 || memcmp(h, "ULFSTRC1", 8) != 0 || get32(h + 8) != 1 ||
      get32(h + 12) != REC) {
    fprintf(stderr, "ulfs-cachesim: %s: offset 0: not a version 1 ulfs access trace\n", path);
    fclose(f);
    return NULL;
  }
  size_t cap = 1 << 16, cnt = 0;
  rec *v = malloc(cap * sizeof *v);
  size_t got;
  while (v && (got = fread(r, 1, REC, f)) == REC) {
    uint64_t off = 16 + (uint64_t)cnt * REC;
    bool drop = r[19] & TRACE_OP_DROP;
    if (r[16] >= ULFS_KIND_COUNT || r[18] >= ULFS_ROLE_COUNT || r[19] > 7 ||
        (drop && r[19] != TRACE_OP_DROP) || get32(r + 8) == 0) {
      fprintf(stderr, "ulfs-cachesim: %s: offset %llu: bad record (kind %u, role %u, op %u)\n",
              path, (unsigned long long)off, r[16], r[18], r[19]);
      free(v);
      fclose(f);
      return NULL;
    }
    if (cnt == cap) {
      rec *nv = realloc(v, (cap *= 2) * sizeof *v);
      if (!nv) free(v);
      v = nv;
      if (!v) break;
    }
    v[cnt++] = (rec){.idx = get64(r), .fid = get32(r + 8), .count = get32(r + 20),
                     .kind = r[16], .level = r[17], .role = r[18], .op = r[19]};
  }
  if (!v) {
    fprintf(stderr, "ulfs-cachesim: out of memory\n");
  } else if (got != 0) {
    fprintf(stderr, "ulfs-cachesim: %s: offset %llu: truncated record (%zu of %u bytes)\n",
            path, (unsigned long long)(16 + (uint64_t)cnt * REC), got, REC);
    free(v);
    v = NULL;
  }
  fclose(f);
  *n = cnt;
  return v;
}

/* (file id, page) as one key for OPT; page indexes are below 2^40 (4 PB files) */
static uint64_t key_of(const rec *r) {
  return (uint64_t)r->fid << 40 | (r->idx & ((1ull << 40) - 1));
}

/* The simulated files: inode i holds the resident pages of file id i. */
static inode_m *file_of(void *ctx, uint64_t fid) { return (inode_m *)ctx + fid; }

/* Replays the trace through one policy with `frames` frames; returns the read misses. */
static int replay(const rec *t, size_t n, uint32_t maxfid, const char *policy, unsigned rules,
                  size_t frames, uint64_t *read_misses) {
  cache c;
  int rc = cache_init(&c, frames, policy, false);
  if (rc) return rc;
  if (c.pol == &ulfs_policy_lsm_arc) cache_lsm_arc_set_rules(c.polstate, rules);
  inode_m *files = calloc((size_t)maxfid + 1, sizeof *files);
  if (!files) {
    cache_destroy(&c);
    return -ENOMEM;
  }
  for (uint32_t i = 0; i <= maxfid; i++) files[i].ino = i;
  *read_misses = 0;
  for (size_t i = 0; i < n; i++) {
    inode_m *ip = &files[t[i].fid];
    if (t[i].op & TRACE_OP_DROP) {
      for (page *pg = ip->pages, *nx; pg; pg = nx) {
        nx = pg->inext;
        if (pg->idx >= t[i].idx && pg->idx - t[i].idx < t[i].count)
          cache_remove(&c, pg, ip, false);
      }
      continue;
    }
    cache_acc a = {.kind = t[i].kind, .level = t[i].level, .role = t[i].role, .prefetch = false};
    bool hit;
    cache_sim_access(&c, ip, t[i].idx, &a, &hit, file_of, files);
    *read_misses += !hit && !(t[i].op & TRACE_OP_WRITE);
  }
  free(files);
  cache_destroy(&c);
  return 0;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  const char *spec_arg = NULL;
  bool ablate = false;
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "--ablate") == 0) ablate = true;
    else spec_arg = argv[i];
  }
  if (argc < 3 || argc > 5) {
    fprintf(stderr, "usage: ulfs-cachesim <trace> <out.csv> [size,size,...] [--ablate]\n");
    return 2;
  }
  size_t n;
  rec *t = load(argv[1], &n);
  if (!t) return 1;
  uint64_t *keys = malloc((n ? n : 1) * sizeof *keys);
  bool *reads = malloc((n ? n : 1) * sizeof *reads);
  uint64_t *sorted = malloc((n ? n : 1) * sizeof *sorted);
  if (!keys || !reads || !sorted) {
    fprintf(stderr, "ulfs-cachesim: out of memory\n");
    return 1;
  }
  uint64_t nreads = 0;
  size_t nacc = 0; /* accesses: the records OPT sees */
  uint32_t maxfid = 0;
  for (size_t i = 0; i < n; i++) {
    if (t[i].fid > maxfid) maxfid = t[i].fid;
    if (t[i].op & TRACE_OP_DROP) continue;
    keys[nacc] = sorted[nacc] = key_of(&t[i]);
    reads[nacc] = !(t[i].op & TRACE_OP_WRITE);
    nreads += reads[nacc++];
  }
  qsort(sorted, nacc, sizeof *sorted, cmp_u64);
  size_t distinct = 0;
  for (size_t i = 0; i < nacc; i++) distinct += i == 0 || sorted[i] != sorted[i - 1];
  free(sorted);

  size_t sizes[64], nsizes = 0;
  if (spec_arg) {
    char *spec = strdup(spec_arg);
    for (char *tok = strtok(spec, ","); tok && nsizes < 64; tok = strtok(NULL, ",")) {
      unsigned long long b = parse_size(tok);
      if (b == 0) {
        fprintf(stderr, "ulfs-cachesim: bad size %s\n", tok);
        return 2;
      }
      sizes[nsizes++] = (size_t)(b / ULFS_BLOCK_SIZE);
    }
    free(spec);
  } else {
    double lo = 64, hi = distinct > 128 ? (double)distinct : 128;
    for (int i = 0; i < 10; i++) sizes[nsizes++] = (size_t)(lo * pow(hi / lo, i / 9.0));
  }
  FILE *out = fopen(argv[2], "w");
  if (!out) {
    fprintf(stderr, "ulfs-cachesim: %s: %s\n", argv[2], strerror(errno));
    return 1;
  }
  fprintf(out, "policy,cache_pages,cache_bytes,reads,read_misses,read_miss_ratio\n");
  /* the policies, then (--ablate) lsm-arc less one rule each */
  static const struct { const char *label, *policy; unsigned rules; } runs[] = {
      {"lru", "lru", 0},
      {"lru-level", "lru-level", 0},
      {"arc", "arc", 0},
      {"lsm-arc", "lsm-arc", CACHE_LSM_RULES},
      {"lsm-arc-no-a", "lsm-arc", CACHE_LSM_RULES & ~CACHE_LSM_RULE_A},
      {"lsm-arc-no-b", "lsm-arc", CACHE_LSM_RULES & ~CACHE_LSM_RULE_B},
      {"lsm-arc-no-c", "lsm-arc", CACHE_LSM_RULES & ~CACHE_LSM_RULE_C},
      {"lsm-arc-no-d", "lsm-arc", CACHE_LSM_RULES & ~CACHE_LSM_RULE_D}};
  int nruns = ablate ? 8 : 4;
  for (size_t z = 0; z < nsizes; z++) {
    size_t frames = sizes[z] < 64 ? 64 : sizes[z]; /* the cache's minimum */
    for (int k = 0; k < nruns; k++) {
      uint64_t rmiss;
      int rc = replay(t, n, maxfid, runs[k].policy, runs[k].rules, frames, &rmiss);
      if (rc) {
        fprintf(stderr, "ulfs-cachesim: %s: %s\n", runs[k].label, strerror(-rc));
        return 1;
      }
      fprintf(out, "%s,%zu,%llu,%llu,%llu,%.6f\n", runs[k].label, frames,
              (unsigned long long)frames * ULFS_BLOCK_SIZE, (unsigned long long)nreads,
              (unsigned long long)rmiss, nreads ? (double)rmiss / (double)nreads : 0.0);
    }
    uint64_t rmiss, miss;
    if (cache_opt_misses(keys, reads, nacc, frames, &rmiss, &miss) != 0) {
      fprintf(stderr, "ulfs-cachesim: OPT: out of memory\n");
      return 1;
    }
    fprintf(out, "opt,%zu,%llu,%llu,%llu,%.6f\n", frames,
            (unsigned long long)frames * ULFS_BLOCK_SIZE, (unsigned long long)nreads,
            (unsigned long long)rmiss, nreads ? (double)rmiss / (double)nreads : 0.0);
  }
  if (fclose(out) != 0) {
    fprintf(stderr, "ulfs-cachesim: %s: write failed\n", argv[2]);
    return 1;
  }
  printf("%zu accesses (%llu reads) of %zu distinct pages, %zu cache sizes: %s\n", nacc,
         (unsigned long long)nreads, distinct, nsizes, argv[2]);
  free(t), free(keys), free(reads);
  return 0;
}
