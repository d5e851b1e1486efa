/* cache_lru.c -- least-recently-used replacement: one list, most recent at the head; the
 * victim walk starts at the tail. */
#include <stdlib.h>

#include "internal.h"

typedef struct lru { page *head, *tail; } lru;

static void *lru_create(size_t npages) {
  (void)npages;
  return calloc(1, sizeof(lru));
}
static void lru_destroy(void *p) { free(p); }

static void unlink_pg(lru *l, page *pg) {
  if (pg->pprev) pg->pprev->pnext = pg->pnext;
  else l->head = pg->pnext;
  if (pg->pnext) pg->pnext->pprev = pg->pprev;
  else l->tail = pg->pprev;
  pg->pnext = pg->pprev = NULL;
}

static void push_head(lru *l, page *pg) {
  pg->pprev = NULL;
  pg->pnext = l->head;
  if (l->head) l->head->pprev = pg;
  l->head = pg;
  if (!l->tail) l->tail = pg;
}

static void lru_insert(void *p, page *pg) { push_head(p, pg); }
static void lru_hit(void *p, page *pg) {
  unlink_pg(p, pg);
  push_head(p, pg);
}
static void lru_remove(void *p, page *pg) { unlink_pg(p, pg); }
static page *lru_victim_next(void *p, page *prev) {
  return prev ? prev->pprev : ((lru *)p)->tail;
}

const cache_policy_ops ulfs_policy_lru = {
    .name = "lru", .create = lru_create, .destroy = lru_destroy, .on_insert = lru_insert,
    .on_hit = lru_hit, .on_remove = lru_remove, .victim_next = lru_victim_next};
