/* cache_list.h -- the doubly linked page list every replacement policy is built from: most
 * recent at the head, the eviction end at the tail, through page.pnext/pprev, with its length.
 * A page is on at most one such list at a time (page.list says which, for the policy). */
#ifndef ULFS_CACHE_LIST_H
#define ULFS_CACHE_LIST_H
#include "internal.h"

typedef struct plist {
  page *head, *tail;
  size_t n;
} plist;

static inline void plist_unlink(plist *l, page *pg) {
  if (pg->pprev) pg->pprev->pnext = pg->pnext;
  else l->head = pg->pnext;
  if (pg->pnext) pg->pnext->pprev = pg->pprev;
  else l->tail = pg->pprev;
  pg->pnext = pg->pprev = NULL;
  l->n--;
}

static inline void plist_push_head(plist *l, page *pg) {
  pg->pprev = NULL;
  pg->pnext = l->head;
  if (l->head) l->head->pprev = pg;
  l->head = pg;
  if (!l->tail) l->tail = pg;
  l->n++;
}
#endif
