/* cache_lru.c -- two policies built on LRU lists:
 *  lru:       one list, most recent at the head; the victim walk starts at the tail;
 *  lru-level: one LRU list per LSM level (LRULevel, docs/ulfs.md "Page cache policies"),
 *             victims taken from the deepest level first (Level-1 before Level-0); pages of
 *             files without a level (WAL, manifest, other) form the last list and are taken
 *             before any level.
 * The list of a page is fixed when it is inserted (page.list). */
#include <stdlib.h>

#include "cache_list.h"

/* lru-level lists: levels 0..LEVELS-1, then NOLEVEL. */
#define LEVELS (ULFS_HINT_LEVELS)
#define NOLEVEL LEVELS
#define NLISTS (LEVELS + 1)

typedef struct lrus {
  plist l[NLISTS];
  bool by_level;
} lrus;

static void *lru_create(size_t npages) {
  (void)npages;
  return calloc(1, sizeof(lrus));
}
static void *lru_level_create(size_t npages) {
  lrus *s = lru_create(npages);
  if (s) s->by_level = true;
  return s;
}
static void lru_destroy(void *p) { free(p); }

static void lru_insert(void *p, page *pg, const cache_acc *a) {
  lrus *s = p;
  unsigned lv = pg->level, l = lv == ULFS_LEVEL_NONE ? NOLEVEL : lv < LEVELS ? lv : LEVELS - 1;
  pg->list = (uint8_t)(s->by_level ? l : 0);
  plist_push_head(&s->l[pg->list], pg);
}
static void lru_hit(void *p, page *pg, const cache_acc *a) {
  lrus *s = p;
  plist_unlink(&s->l[pg->list], pg);
  plist_push_head(&s->l[pg->list], pg);
}
static void lru_remove(void *p, page *pg, bool evicted) {
  plist_unlink(&((lrus *)p)->l[pg->list], pg);
}

/* Walk order of lists: NOLEVEL, then LEVELS-1 down to 0 (list 0 alone for plain lru). */
static page *lru_victim_next(void *p, page *prev) {
  lrus *s = p;
  if (prev && prev->pprev) return prev->pprev;
  int i = !prev ? (int)NOLEVEL : prev->list == NOLEVEL ? (int)LEVELS - 1 : (int)prev->list - 1;
  for (; i >= 0; i--)
    if (s->l[i].tail) return s->l[i].tail;
  return NULL;
}

static void lru_describe(void *p, ulfs_cache_stats *st) {
  lrus *s = p;
  if (!s->by_level) {
    st->list_pages[0] = s->l[0].n;
    return;
  }
  /* list i of the stats: L0..L6 as themselves, L7+ and no-level folded into the last slot */
  for (unsigned i = 0; i < NLISTS; i++)
    st->list_pages[i < ULFS_CACHE_LISTS ? i : ULFS_CACHE_LISTS - 1] += s->l[i].n;
}

static const char *const lru_lists[] = {"lru", NULL};
static const char *const lru_level_lists[] = {"L0", "L1", "L2", "L3", "L4", "L5", "L6",
                                              "L7+/none", NULL};

const cache_policy_ops ulfs_policy_lru = {
    .name = "lru", .lists = lru_lists, .create = lru_create, .destroy = lru_destroy,
    .on_insert = lru_insert, .on_hit = lru_hit, .on_remove = lru_remove,
    .victim_next = lru_victim_next, .describe = lru_describe};

const cache_policy_ops ulfs_policy_lru_level = {
    .name = "lru-level", .lists = lru_level_lists, .create = lru_level_create,
    .destroy = lru_destroy, .on_insert = lru_insert, .on_hit = lru_hit,
    .on_remove = lru_remove, .victim_next = lru_victim_next, .describe = lru_describe};
