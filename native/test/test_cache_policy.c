/* test_cache_policy.c -- every replacement policy against hand-made reference traces with
 * known outcomes, driven through the cache's own access path (cache_sim_access) on a
 * metadata-only cache of 64 frames:
 *  - lru: recency order and the victim walk;
 *  - lru-level: the deepest level goes first, pages without a level before any level;
 *  - arc: scan resistance (a hot set seen twice survives a long scan that flushes LRU), the
 *    adaptation of p on B1 and B2 ghost hits, and the published case IV (no ghost when T1 is
 *    the whole cache);
 *  - lsm-arc: each of its four LSM rules on its own, each against plain arc on the same
 *    trace so that the rule is what makes the difference. */
#include "internal.h"
#include "t.h"

#define C 64u

static cache_acc acc(uint8_t kind, uint8_t level, uint8_t role) {
  return (cache_acc){.kind = kind, .level = level, .role = role, .prefetch = false};
}
static const cache_acc USER = {.kind = ULFS_KIND_OTHER, .level = ULFS_LEVEL_NONE,
                               .role = ULFS_ROLE_USER, .prefetch = false};

typedef struct sim {
  cache c;
  inode_m ip;
} sim;

static void sim_init(sim *s, const char *policy) {
  memset(s, 0, sizeof *s);
  s->ip.ino = 1;
  OK(cache_init(&s->c, C, policy, false));
  CHECK(s->c.npages == C);
}

static inode_m *the_inode(void *ctx, uint64_t ino) {
  (void)ino;
  return ctx;
}

static bool touch(sim *s, uint64_t idx, const cache_acc *a) {
  bool hit;
  CHECK(cache_sim_access(&s->c, &s->ip, idx, a, &hit, the_inode, &s->ip) != NULL);
  return hit;
}
static bool resident(sim *s, uint64_t idx) { return cache_lookup(&s->c, 1, idx) != NULL; }
static page *pg(sim *s, uint64_t idx) {
  page *p = cache_lookup(&s->c, 1, idx);
  CHECK(p != NULL);
  return p;
}
static page *victim(sim *s) {
  page *dirty;
  return cache_victim(&s->c, &dirty);
}
static ulfs_cache_stats stats(sim *s) {
  ulfs_cache_stats st;
  memset(&st, 0, sizeof st);
  s->c.pol->describe(s->c.polstate, &st);
  return st;
}

static void test_lru(void) {
  sim s;
  sim_init(&s, "lru");
  for (uint64_t i = 0; i < C; i++) CHECK(!touch(&s, i, &USER));
  CHECK(touch(&s, 0, &USER)); /* 0 becomes the most recent: 1 is now the oldest */
  CHECK(victim(&s)->idx == 1);
  CHECK(!touch(&s, 100, &USER)); /* evicts 1 */
  CHECK(resident(&s, 0) && !resident(&s, 1) && resident(&s, 2));
  /* the victim walk visits the rest oldest first */
  page *v = s.c.pol->victim_next(s.c.polstate, NULL);
  for (uint64_t want = 2; want < C; want++, v = s.c.pol->victim_next(s.c.polstate, v))
    CHECK(v && v->idx == want);
  CHECK(v->idx == 0);
  v = s.c.pol->victim_next(s.c.polstate, v);
  CHECK(v->idx == 100);
  CHECK(s.c.pol->victim_next(s.c.polstate, v) == NULL);
  CHECK(s.c.st.evictions[0] == 1 && s.c.st.hits_kind[ULFS_KIND_OTHER] == 1);
  CHECK(s.c.st.misses_kind[ULFS_KIND_OTHER] == C + 1);
  cache_destroy(&s.c);
}

static void test_lru_level(void) {
  sim s;
  sim_init(&s, "lru-level");
  cache_acc l0 = acc(ULFS_KIND_L0, 0, ULFS_ROLE_USER);
  cache_acc l1 = acc(ULFS_KIND_L1_SEGMENT, 1, ULFS_ROLE_USER);
  cache_acc wal = acc(ULFS_KIND_WAL, ULFS_LEVEL_NONE, ULFS_ROLE_USER);
  for (uint64_t i = 0; i < 20; i++) touch(&s, i, &l0);        /* oldest: Level-0 */
  for (uint64_t i = 20; i < 40; i++) touch(&s, i, &l1);
  for (uint64_t i = 40; i < 50; i++) touch(&s, i, &wal);
  for (uint64_t i = 50; i < C; i++) touch(&s, i, &l0);
  /* the no-level list goes first, then Level-1, Level-0 last although it is the oldest */
  for (uint64_t i = 0; i < 10; i++) touch(&s, 100 + i, &l0);
  for (uint64_t i = 40; i < 50; i++) CHECK(!resident(&s, i));
  for (uint64_t i = 0; i < 20; i++) CHECK(resident(&s, i));
  touch(&s, 200, &l0);
  CHECK(!resident(&s, 20) && resident(&s, 21) && resident(&s, 0));
  ulfs_cache_stats st = stats(&s);
  CHECK(st.list_pages[0] == 20 + 14 + 11 && st.list_pages[1] == 19 && st.list_pages[7] == 0);
  CHECK(s.c.st.evictions[7] == 10 && s.c.st.evictions[1] == 1 && s.c.st.evictions[0] == 0);
  CHECK(s.c.st.misses_level[0] == 20 + 14 + 11 && s.c.st.misses_level[1] == 20);
  CHECK(s.c.st.misses_level[ULFS_HINT_LEVELS] == 10);
  cache_destroy(&s.c);
}

/* A hot set of 32 pages read twice, then a scan of 1000 pages read once, then the hot set:
 * LRU has lost it entirely, ARC keeps all of it in T2. */
static uint64_t scan_then_hot_hits(const char *policy) {
  sim s;
  sim_init(&s, policy);
  for (int round = 0; round < 2; round++)
    for (uint64_t i = 0; i < 32; i++) touch(&s, i, &USER);
  for (uint64_t i = 0; i < 1000; i++) CHECK(!touch(&s, 1000 + i, &USER));
  uint64_t hits = 0;
  for (uint64_t i = 0; i < 32; i++) hits += touch(&s, i, &USER);
  cache_destroy(&s.c);
  return hits;
}

static void test_arc_scan_resistance(void) {
  CHECK(scan_then_hot_hits("lru") == 0);
  CHECK(scan_then_hot_hits("arc") == 32);
  CHECK(scan_then_hot_hits("lsm-arc") == 32);
}

static void test_arc_adaptation(void) {
  sim s;
  sim_init(&s, "arc");
  /* 64 pages twice: all in T2, p = 0 */
  for (int round = 0; round < 2; round++)
    for (uint64_t i = 0; i < C; i++) touch(&s, i, &USER);
  ulfs_cache_stats st = stats(&s);
  CHECK(st.list_pages[1] == C && st.list_pages[0] == 0 && st.arc_p == 0);
  /* 32 new pages: the first finds T1 empty, so T2 pays (page 0 to B2); after that
   * |T1| = 1 > p = 0, so each new page replaces the previous one (100..130 to B1) */
  for (uint64_t i = 0; i < 32; i++) touch(&s, 100 + i, &USER);
  st = stats(&s);
  CHECK(st.list_pages[0] == 1 && st.list_pages[1] == C - 1);
  CHECK(st.ghost_b1 == 31 && st.ghost_b2 == 1 && st.arc_p == 0);
  /* a B1 hit grows p by max(|B2|/|B1|, 1) = 1 and brings the page into T2; |T1| = p now, so
   * T2 pays (page 1 to B2) */
  CHECK(!touch(&s, 100, &USER));
  st = stats(&s);
  CHECK(st.arc_p == 1 && pg(&s, 100)->list == 1 && st.ghost_b1 == 30 && st.ghost_b2 == 2);
  CHECK(!touch(&s, 101, &USER)); /* B1 hit: p += max(2/30, 1); page 2 to B2 */
  st = stats(&s);
  CHECK(st.arc_p == 2 && st.ghost_b1 == 29 && st.ghost_b2 == 3);
  /* a B2 hit shrinks p by max(|B1|/|B2|, 1) = 29/3 = 9, clamped at 0; |T1| = 1 > p: T1 pays */
  CHECK(!touch(&s, 0, &USER));
  st = stats(&s);
  CHECK(st.arc_p == 0 && pg(&s, 0)->list == 1 && st.ghost_b1 == 30 && st.ghost_b2 == 2);
  CHECK(!resident(&s, 131));
  cache_destroy(&s.c);

  /* case IV with |T1| = c: the T1 victim leaves no ghost, so B1 stays empty */
  sim_init(&s, "arc");
  for (uint64_t i = 0; i < 3 * C; i++) touch(&s, i, &USER);
  st = stats(&s);
  CHECK(st.list_pages[0] == C && st.ghost_b1 == 0 && st.ghost_b2 == 0);
  cache_destroy(&s.c);
}

/* Rule a: a compaction read leaves pages cached before it where they were, and its own pages
 * stay in T1 however often it reads them, leaving no ghost. */
static void test_lsm_rule_a(void) {
  cache_acc comp = acc(ULFS_KIND_L1_SEGMENT, 1, ULFS_ROLE_COMPACTION_INPUT);
  const char *pols[] = {"arc", "lsm-arc"};
  for (int k = 0; k < 2; k++) {
    bool lsm = k == 1;
    sim s;
    sim_init(&s, pols[k]);
    touch(&s, 1, &USER); /* cached before the compaction, in T1 */
    touch(&s, 2, &USER);
    touch(&s, 1, &comp); /* compaction reads it */
    CHECK(pg(&s, 1)->list == (lsm ? 0 : 1));
    CHECK(lsm ? victim(&s)->idx == 1 : victim(&s)->idx == 2); /* not even moved to T1's head */
    touch(&s, 10, &comp); /* the compaction's own page, read twice */
    touch(&s, 10, &comp);
    CHECK(pg(&s, 10)->list == (lsm ? 0 : 1));
    CHECK(pg(&s, 10)->flags & PG_COMPACT_IN);
    /* a stream of new user pages: under arc page 10 is in T2 and survives it; under lsm-arc
     * it leaves, and leaves no ghost: read again, it is a new page (T1, p unchanged) */
    for (int r = 0; r < 2; r++) touch(&s, 3, &USER); /* T2 not empty: T1 victims leave ghosts */
    for (uint64_t i = 0; i < 2 * C; i++) touch(&s, 1000 + i, &USER);
    CHECK(resident(&s, 10) == !lsm);
    if (lsm) {
      CHECK(stats(&s).ghost_b1 > 0); /* user pages did leave ghosts */
      CHECK(!touch(&s, 10, &USER));
      CHECK(pg(&s, 10)->list == 0 && stats(&s).arc_p == 0);
    }
    cache_destroy(&s.c);
  }
}

/* Rule b: flush outputs and Level-0 compaction outputs go to T2; Level-1 ones to T1, marked. */
static void test_lsm_rule_b(void) {
  cache_acc flush = acc(ULFS_KIND_L0, 0, ULFS_ROLE_FLUSH_OUTPUT);
  cache_acc out0 = acc(ULFS_KIND_L0, 0, ULFS_ROLE_COMPACTION_OUTPUT);
  cache_acc out1 = acc(ULFS_KIND_L1_SEGMENT, 1, ULFS_ROLE_COMPACTION_OUTPUT);
  for (int k = 0; k < 2; k++) {
    bool lsm = k == 1;
    sim s;
    sim_init(&s, k ? "lsm-arc" : "arc");
    touch(&s, 1, &flush);
    touch(&s, 2, &out0);
    touch(&s, 3, &out1);
    touch(&s, 3, &out1); /* an output stream rewriting its last page is not a second use */
    CHECK(pg(&s, 1)->list == (lsm ? 1 : 0) && pg(&s, 2)->list == (lsm ? 1 : 0));
    CHECK(pg(&s, 3)->list == (lsm ? 0 : 1));
    CHECK(pg(&s, 3)->flags & PG_OUTPUT);
    cache_destroy(&s.c);
  }
}

/* Rule c: WAL pages sit on their own list; a clean WAL tail is the first victim, a dirty one is
 * passed over (left to the flusher) without holding up eviction. */
static void test_lsm_rule_c(void) {
  cache_acc wal = acc(ULFS_KIND_WAL, ULFS_LEVEL_NONE, ULFS_ROLE_USER);
  sim s;
  sim_init(&s, "lsm-arc");
  for (uint64_t i = 0; i < 10; i++) touch(&s, i, &USER);
  for (uint64_t i = 10; i < 20; i++) touch(&s, i, &wal);
  for (uint64_t i = 20; i < C; i++) touch(&s, i, &USER);
  CHECK(pg(&s, 10)->list == 2 && stats(&s).list_pages[2] == 10);
  CHECK(victim(&s)->idx == 10); /* the oldest WAL page, though 0..9 are older */
  pg(&s, 10)->dirty = true;
  CHECK(victim(&s)->idx == 0); /* the dirty WAL tail is skipped: T1 pays */
  pg(&s, 10)->dirty = false;
  pg(&s, 10)->flags |= PG_PARTIAL; /* an append tail is spared and rotated to the head */
  CHECK(victim(&s)->idx == 11);
  pg(&s, 10)->flags &= (uint8_t)~PG_PARTIAL;
  for (uint64_t i = 11; i < 20; i++) touch(&s, 500 + i, &USER); /* evicts WAL pages 11..19 */
  CHECK(resident(&s, 10) && !resident(&s, 11) && !resident(&s, 19));
  touch(&s, 600, &USER);
  CHECK(!resident(&s, 10) && resident(&s, 0) && s.c.st.evictions[2] == 10);
  cache_destroy(&s.c);
  /* under arc the same trace evicts the oldest page, whatever its kind */
  sim_init(&s, "arc");
  for (uint64_t i = 0; i < 10; i++) touch(&s, i, &USER);
  for (uint64_t i = 10; i < 20; i++) touch(&s, i, &wal);
  for (uint64_t i = 20; i < C; i++) touch(&s, i, &USER);
  CHECK(victim(&s)->idx == 0);
  cache_destroy(&s.c);
}

/* Rule c through the file system: a WAL appended in small synced records keeps its partly
 * written last page while other files' reads evict, so appends never read it back. */
static void test_lsm_rule_c_append_tail(void) {
  ulfs_dev *dev = t_memdev(64u << 20, NULL);
  ulfs_mount_opts o = {.cache_bytes = 64 * 4096, .flush_interval_ms = 3600000u,
                       .cache_policy = "lsm-arc"};
  ulfs *fs;
  OK(ulfs_mount(dev, &o, &fs));
  int data = ulfs_open(fs, "/data", O_CREAT | O_RDWR, 0644);
  uint8_t page[4096] = {0};
  for (int i = 0; i < 256; i++) CHECK_RC(ulfs_write(fs, data, page, sizeof page), sizeof page);
  OK(ulfs_fsync(fs, data));
  int wal = ulfs_open(fs, "/wal", O_CREAT | O_WRONLY | O_APPEND, 0644);
  OK(ulfs_hint_path(fs, "/wal", ULFS_KIND_WAL, (int)ULFS_LEVEL_NONE));
  uint8_t rec[1000] = {1};
  uint64_t reads = 0;
  for (int r = 0; r < 40; r++) {
    CHECK_RC(ulfs_write(fs, wal, rec, sizeof rec), sizeof rec);
    OK(ulfs_fsync(fs, wal)); /* the tail page is clean now */
    for (int i = 0; i < 8; i++) /* user reads that evict */
      CHECK_RC(ulfs_pread(fs, data, page, sizeof page, (uint64_t)((r * 8 + i) % 256) * 4096), 4096);
    ulfs_counters before, after;
    ulfs_get_counters(fs, &before);
    CHECK_RC(ulfs_write(fs, wal, rec, sizeof rec), sizeof rec);
    ulfs_get_counters(fs, &after);
    reads += after.dev_read_bytes - before.dev_read_bytes;
  }
  CHECK_RC(reads, 0); /* no append read its page back from the device */
  OK(ulfs_close(fs, wal));
  OK(ulfs_close(fs, data));
  OK(ulfs_unmount(fs));
  ulfs_dev_close(dev);
}

/* Rule d: when REPLACE picks T1 and T1's tail is a compaction output or an unused prefetched
 * page, T2 pays instead, once per page. */
static void test_lsm_rule_d(void) {
  cache_acc out1 = acc(ULFS_KIND_L1_SEGMENT, 1, ULFS_ROLE_COMPACTION_OUTPUT);
  cache_acc pre = acc(ULFS_KIND_L1_SEGMENT, 1, ULFS_ROLE_COMPACTION_INPUT);
  pre.prefetch = true;
  for (int k = 0; k < 2; k++) {
    bool lsm = k == 1;
    sim s;
    sim_init(&s, k ? "lsm-arc" : "arc");
    for (uint64_t i = 0; i < 10; i++) { touch(&s, i, &USER); touch(&s, i, &USER); } /* T2 */
    touch(&s, 100, &out1);
    touch(&s, 101, &pre);
    CHECK(pg(&s, 101)->flags & PG_PREFETCHED);
    for (uint64_t i = 0; i < C - 12; i++) touch(&s, 200 + i, &USER); /* fills T1 */
    CHECK(s.c.free_list == NULL && pg(&s, 100)->list == 0);
    /* |T1| = 54 > p = 0: T1 pays, but its tail is the compaction output */
    CHECK(victim(&s)->idx == (lsm ? 0 : 100));
    if (lsm) {
      CHECK(pg(&s, 100)->flags & PG_SPARED); /* spared once, not forever */
      CHECK(victim(&s)->idx == 100);
      touch(&s, 300, &USER); /* evicts 100: T1's tail is now the unused prefetched page */
      CHECK(!resident(&s, 100) && resident(&s, 0));
      CHECK(victim(&s)->idx == 0);
      CHECK(pg(&s, 101)->flags & PG_SPARED);
      CHECK(victim(&s)->idx == 101);
    }
    cache_destroy(&s.c);
  }
  /* a prefetched page read by a demand access counts as used and loses its protection */
  sim s;
  sim_init(&s, "lsm-arc");
  cache_acc comp = pre;
  comp.prefetch = false;
  touch(&s, 7, &pre);
  CHECK(s.c.st.prefetch_issued == 1 && s.c.st.prefetch_used == 0);
  CHECK(touch(&s, 7, &comp));
  CHECK(s.c.st.prefetch_used == 1 && !(pg(&s, 7)->flags & PG_PREFETCHED));
  cache_destroy(&s.c);
}

/* OPT on the textbook reference string (Silberschatz, Operating System Concepts, ch. 9):
 * 3 frames give 9 faults (LRU 12, FIFO 15); 4 frames give 8. Writes count as references, only
 * reads as read misses. */
static void test_opt_textbook(void) {
  const uint64_t ref[] = {7, 0, 1, 2, 0, 3, 0, 4, 2, 3, 0, 3, 2, 1, 2, 0, 1, 7, 0, 1};
  size_t n = sizeof ref / sizeof ref[0];
  bool rd[20];
  for (size_t i = 0; i < n; i++) rd[i] = true;
  uint64_t rm, m;
  OK(cache_opt_misses(ref, rd, n, 3, &rm, &m));
  CHECK(m == 9 && rm == 9);
  OK(cache_opt_misses(ref, rd, n, 4, &rm, &m));
  CHECK(m == 8);
  rd[0] = false; /* the first reference (a cold miss) is a write */
  OK(cache_opt_misses(ref, rd, n, 3, &rm, &m));
  CHECK(m == 9 && rm == 8);
  OK(cache_opt_misses(ref, rd, n, 20, &rm, &m));
  CHECK(m == 6); /* only the six cold misses */
  /* on a random trace OPT never misses more than any online policy */
  enum { N = 20000 };
  static uint64_t keys[N];
  static bool reads[N];
  uint32_t r = 1;
  for (size_t i = 0; i < N; i++) {
    r = r * 1103515245u + 12345u;
    keys[i] = (r >> 8) % 300;
    reads[i] = true;
  }
  OK(cache_opt_misses(keys, reads, N, C, &rm, &m));
  const char *pols[] = {"lru", "lru-level", "arc", "lsm-arc"};
  for (int k = 0; k < 4; k++) {
    sim s;
    sim_init(&s, pols[k]);
    uint64_t misses = 0;
    for (size_t i = 0; i < N; i++) misses += !touch(&s, keys[i], &USER);
    CHECK(m <= misses && misses < N);
    cache_destroy(&s.c);
  }
}

int main(void) {
  test_opt_textbook();
  CHECK(cache_policy_by_name("nope") == NULL);
  CHECK(cache_policy_by_name(NULL) == &ulfs_policy_lru);
  test_lru();
  test_lru_level();
  test_arc_scan_resistance();
  test_arc_adaptation();
  test_lsm_rule_a();
  test_lsm_rule_b();
  test_lsm_rule_c();
  test_lsm_rule_c_append_tail();
  test_lsm_rule_d();
  printf("test_cache_policy: ok\n");
  return 0;
}
