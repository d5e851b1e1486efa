/* cache_arc.c -- Adaptive Replacement Cache (Megiddo & Modha, FAST 2003) and LSM-ARC, ARC
 * adapted to LSM stores (docs/ulfs.md "Page cache policies").
 *
 * arc: resident pages on T1 (seen once recently) and T2 (seen at least twice); ghost lists B1
 * and B2 remember the identities of pages evicted from T1 and T2. A miss that finds its page in
 * B1 grows the target size p of T1, one in B2 shrinks it; REPLACE evicts from T1 when
 * |T1| > p (or |T1| == p and the miss was in B2), else from T2. Invariants, with c the number of
 * frames: |T1|+|T2| <= c, |T1|+|B1| <= c (restored at the next miss), |B1|+|B2| <= c (the
 * ghost pool), 0 <= p <= c.
 *
 * lsm-arc adds four rules (docs/ulfs.md "Page cache policies"):
 *  a. compaction-input accesses never move a page: pages they bring in go to T1 (flag
 *     PG_COMPACT_IN) and leave no ghost, their ghost hits do not adapt p, and pages cached
 *     before the compaction keep their place; the prefetcher's pages are such pages too;
 *  b. flush outputs and compaction outputs of the upper level (Level-0: below half of RLSM's
 *     two levels) are inserted into T2, so they survive until they are read;
 *  c. WAL pages live on their own LRU list W outside T1/T2; a clean W tail is the first victim,
 *     unless it is an append tail (PG_PARTIAL: the next append reads it back), which moves to
 *     W's head instead; dirty W pages are left to the flusher, so eviction never waits on them;
 *  d. when REPLACE picks T1 but T1's tail is a compaction output or an unused prefetched page,
 *     and T2 is not empty, the victim comes from T2 instead; the tail is marked PG_SPARED then,
 *     so it is spared once (a second chance), never forever. */
#include <stdlib.h>

#include "cache_list.h"

enum { T1 = 0, T2 = 1, W = 2 };

typedef struct ghost {
  uint64_t ino, idx;
  struct ghost *hnext, *next, *prev;
  uint8_t list; /* 0: B1, 1: B2 */
} ghost;

typedef struct glist {
  ghost *head, *tail;
  size_t n;
} glist;

typedef struct arc {
  size_t c, p;
  plist t[3]; /* T1, T2, W */
  glist b[2]; /* B1, B2 */
  ghost *pool, *free_ghosts, **hash;
  size_t nhash;
  unsigned rules;   /* CACHE_LSM_RULE_*: all four for lsm-arc, none for arc */
  bool miss_in_b2; /* the pending miss was found in B2 (REPLACE's tie rule) */
  bool no_ghost;   /* case IV with |T1| == c: the next T1 victim leaves no ghost (as published) */
  /* the victim walk: lists in order, the first stage W looks at W's tail only */
  uint8_t walk[4], nwalk, stage;
  bool walk_w_tail_only;
} arc;

static void *arc_create_mode(size_t npages, unsigned rules) {
  arc *a = calloc(1, sizeof *a);
  if (!a) return NULL;
  a->c = npages;
  a->rules = rules;
  a->nhash = 2 * npages + 1;
  a->pool = calloc(npages, sizeof(ghost));
  a->hash = calloc(a->nhash, sizeof(ghost *));
  if (!a->pool || !a->hash) {
    free(a->pool);
    free(a->hash);
    free(a);
    return NULL;
  }
  for (size_t i = 0; i < npages; i++) {
    a->pool[i].next = a->free_ghosts;
    a->free_ghosts = &a->pool[i];
  }
  return a;
}
static void *arc_create(size_t npages) { return arc_create_mode(npages, 0); }
static void *lsm_arc_create(size_t npages) { return arc_create_mode(npages, CACHE_LSM_RULES); }

void cache_lsm_arc_set_rules(void *polstate, unsigned rules) {
  ((arc *)polstate)->rules = rules & CACHE_LSM_RULES;
}

static void arc_destroy(void *p) {
  arc *a = p;
  free(a->pool);
  free(a->hash);
  free(a);
}

/* ---- ghosts ---- */
static ghost **ghost_slot(arc *a, uint64_t ino, uint64_t idx) {
  ghost **gp = &a->hash[cache_hash64(ino, idx) % a->nhash];
  while (*gp && ((*gp)->ino != ino || (*gp)->idx != idx)) gp = &(*gp)->hnext;
  return gp;
}

static void ghost_drop(arc *a, ghost *g) {
  ghost **gp = ghost_slot(a, g->ino, g->idx);
  *gp = g->hnext;
  glist *l = &a->b[g->list];
  if (g->prev) g->prev->next = g->next;
  else l->head = g->next;
  if (g->next) g->next->prev = g->prev;
  else l->tail = g->prev;
  l->n--;
  g->next = a->free_ghosts;
  a->free_ghosts = g;
}

static void ghost_add(arc *a, int list, uint64_t ino, uint64_t idx) {
  if (!a->free_ghosts) {
    glist *big = a->b[0].n >= a->b[1].n ? &a->b[0] : &a->b[1];
    if (!big->tail) return;
    ghost_drop(a, big->tail);
  }
  ghost *g = a->free_ghosts;
  a->free_ghosts = g->next;
  g->ino = ino;
  g->idx = idx;
  g->list = (uint8_t)list;
  ghost **gp = &a->hash[cache_hash64(ino, idx) % a->nhash];
  g->hnext = *gp;
  *gp = g;
  glist *l = &a->b[list];
  g->prev = NULL;
  g->next = l->head;
  if (l->head) l->head->prev = g;
  l->head = g;
  if (!l->tail) l->tail = g;
  l->n++;
}

/* ---- policy ---- */
static bool lsm_compaction_read(const arc *a, const cache_acc *acc) {
  return (a->rules & CACHE_LSM_RULE_A) && acc->role == ULFS_ROLE_COMPACTION_INPUT;
}

static void arc_miss(void *p, uint64_t ino, uint64_t idx, const cache_acc *acc) {
  arc *a = p;
  a->miss_in_b2 = a->no_ghost = false;
  if ((a->rules & CACHE_LSM_RULE_C) && acc->kind == ULFS_KIND_WAL) return; /* rule c */
  ghost *g = *ghost_slot(a, ino, idx);
  if (g && !lsm_compaction_read(a, acc)) {
    size_t b1 = a->b[0].n, b2 = a->b[1].n;
    if (g->list == 0) {
      size_t d = b2 / b1 > 1 ? b2 / b1 : 1;
      a->p = a->p + d < a->c ? a->p + d : a->c;
    } else {
      size_t d = b1 / b2 > 1 ? b1 / b2 : 1;
      a->p = a->p > d ? a->p - d : 0;
      a->miss_in_b2 = true;
    }
    return;
  }
  if (g) return;
  /* case IV: a page in no list; keep the history within 2c */
  size_t l1 = a->t[T1].n + a->b[0].n;
  size_t all = l1 + a->t[T2].n + a->b[1].n;
  if (l1 >= a->c && a->b[0].tail) ghost_drop(a, a->b[0].tail);
  else if (l1 >= a->c) a->no_ghost = true;
  else if (all >= 2 * a->c && a->b[1].tail) ghost_drop(a, a->b[1].tail);
}

static void arc_insert(void *p, page *pg, const cache_acc *acc) {
  arc *a = p;
  if ((a->rules & CACHE_LSM_RULE_C) && pg->kind == ULFS_KIND_WAL) {
    pg->list = W;
    plist_push_head(&a->t[W], pg);
    return;
  }
  ghost *g = *ghost_slot(a, pg->ino, pg->idx);
  bool to_t2 = false;
  if (g) {
    to_t2 = !lsm_compaction_read(a, acc);
    ghost_drop(a, g);
  }
  if ((a->rules & CACHE_LSM_RULE_B) &&
      (acc->role == ULFS_ROLE_FLUSH_OUTPUT ||
       (acc->role == ULFS_ROLE_COMPACTION_OUTPUT && pg->level == 0)))
    to_t2 = true; /* rule b */
  pg->list = to_t2 ? T2 : T1;
  plist_push_head(&a->t[pg->list], pg);
}

static void arc_hit(void *p, page *pg, const cache_acc *acc) {
  arc *a = p;
  if (lsm_compaction_read(a, acc)) return; /* rule a: untouched */
  bool output = acc->role == ULFS_ROLE_COMPACTION_OUTPUT || acc->role == ULFS_ROLE_FLUSH_OUTPUT;
  if (pg->list == W || ((a->rules & CACHE_LSM_RULE_B) && output)) {
    /* W is plain LRU; an output stream rewriting its last page is not a second use */
    plist_unlink(&a->t[pg->list], pg);
    plist_push_head(&a->t[pg->list], pg);
    return;
  }
  plist_unlink(&a->t[pg->list], pg);
  pg->list = T2;
  plist_push_head(&a->t[T2], pg);
}

static void arc_remove(void *p, page *pg, bool evicted) {
  arc *a = p;
  plist_unlink(&a->t[pg->list], pg);
  if (!evicted || pg->list == W) return;
  if ((a->rules & CACHE_LSM_RULE_A) && (pg->flags & PG_COMPACT_IN)) return; /* rule a */
  if (pg->list == T1 && a->no_ghost) {
    a->no_ghost = false;
    return;
  }
  ghost_add(a, pg->list == T1 ? 0 : 1, pg->ino, pg->idx);
}

static void plan_walk(arc *a) {
  a->nwalk = 0;
  a->stage = 0;
  a->walk_w_tail_only = false;
  page *wt = a->t[W].tail;
  if ((a->rules & CACHE_LSM_RULE_C) && wt && (wt->flags & PG_PARTIAL) && a->t[W].n > 1) {
    /* rule c spares an append tail: the WAL's next append would read it back at once. It goes
     * to the head (one page per eviction, so O(1); a flag gone stale only delays it a round). */
    plist_unlink(&a->t[W], wt);
    plist_push_head(&a->t[W], wt);
  }
  if ((a->rules & CACHE_LSM_RULE_C) && a->t[W].tail && !a->t[W].tail->dirty &&
      !(a->t[W].tail->flags & PG_PARTIAL)) {
    a->walk[a->nwalk++] = W; /* rule c: a clean WAL page goes first */
    a->walk_w_tail_only = true;
  }
  size_t t1 = a->t[T1].n;
  bool from_t1 = t1 > 0 && (t1 > a->p || (a->miss_in_b2 && t1 == a->p));
  if (from_t1 && (a->rules & CACHE_LSM_RULE_D) && a->t[T2].n > 0) {
    page *tail = a->t[T1].tail;
    if ((tail->flags & (PG_OUTPUT | PG_PREFETCHED)) && !(tail->flags & PG_SPARED)) {
      tail->flags |= PG_SPARED; /* rule d, once per page */
      from_t1 = false;
    }
  }
  a->walk[a->nwalk++] = from_t1 ? T1 : T2;
  a->walk[a->nwalk++] = from_t1 ? T2 : T1;
  if (a->rules & CACHE_LSM_RULE_C) a->walk[a->nwalk++] = W; /* dirty WAL pages last */
}

static page *arc_victim_next(void *p, page *prev) {
  arc *a = p;
  if (!prev) {
    plan_walk(a);
  } else {
    bool tail_only = a->stage == 0 && a->walk_w_tail_only;
    if (prev->pprev && !tail_only) return prev->pprev;
    a->stage++;
  }
  for (; a->stage < a->nwalk; a->stage++) {
    /* a W-tail-only stage ends the walk: its page is clean, so the cache takes it */
    page *t = a->t[a->walk[a->stage]].tail;
    if (t) return t;
  }
  return NULL;
}

static void arc_describe(void *p, ulfs_cache_stats *st) {
  arc *a = p;
  for (int i = 0; i < 3; i++) st->list_pages[i] = a->t[i].n; /* W is empty under arc */
  st->arc_p = a->p;
  st->ghost_b1 = a->b[0].n;
  st->ghost_b2 = a->b[1].n;
}

static const char *const arc_lists[] = {"T1", "T2", NULL};
static const char *const lsm_arc_lists[] = {"T1", "T2", "WAL", NULL};

const cache_policy_ops ulfs_policy_arc = {
    .name = "arc", .lists = arc_lists, .create = arc_create, .destroy = arc_destroy,
    .on_miss = arc_miss, .on_insert = arc_insert, .on_hit = arc_hit, .on_remove = arc_remove,
    .victim_next = arc_victim_next, .describe = arc_describe};

const cache_policy_ops ulfs_policy_lsm_arc = {
    .name = "lsm-arc", .lists = lsm_arc_lists, .create = lsm_arc_create,
    .destroy = arc_destroy, .on_miss = arc_miss, .on_insert = arc_insert, .on_hit = arc_hit,
    .on_remove = arc_remove, .victim_next = arc_victim_next, .describe = arc_describe};
