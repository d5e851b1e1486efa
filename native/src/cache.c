/* cache.c -- the 4 KB page cache: frames in one aligned arena (registered with the device so
 * io_uring can use fixed buffers), a hash on (inode, page index), per-inode page lists, the
 * counters, and a pluggable replacement policy (cache_policy_ops: cache_lru.c, cache_arc.c).
 * Invariants:
 *  C1 a page is resident iff it is in the hash, in its inode's list and known to the policy;
 *  C2 a dirty page is never evicted and never marked clean unless its write-back succeeded;
 *  C3 resident + |free_list| == npages;
 *  C4 every demand access counts exactly one hit or one miss, under its kind and its level.
 * All functions run with the file-system lock held. The trace simulator (tools/ulfs-cachesim.c)
 * drives this same code without data buffers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const cache_policy_ops *const policies[] = {&ulfs_policy_lru, &ulfs_policy_lru_level,
                                                   &ulfs_policy_arc, &ulfs_policy_lsm_arc};

const cache_policy_ops *cache_policy_by_name(const char *name) {
  if (!name || !*name) return &ulfs_policy_lru;
  for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
    if (strcmp(policies[i]->name, name) == 0) return policies[i];
  return NULL;
}

static size_t hash_of(const cache *c, uint64_t ino, uint64_t idx) {
  return (size_t)(cache_hash64(ino, idx) % c->nhash);
}

int cache_init(cache *c, size_t npages, const char *policy, bool with_data) {
  memset(c, 0, sizeof *c);
  c->pol = cache_policy_by_name(policy);
  if (!c->pol) return -EINVAL;
  c->npages = npages < 64 ? 64 : npages;
  if (with_data) c->arena = ulfs_alloc_aligned(c->npages * BS);
  c->pages = calloc(c->npages, sizeof(page));
  c->nhash = c->npages * 2 + 1;
  c->hash = calloc(c->nhash, sizeof(page *));
  c->polstate = c->pol->create(c->npages);
  if ((with_data && !c->arena) || !c->pages || !c->hash || !c->polstate) {
    cache_destroy(c);
    return -ENOMEM;
  }
  for (size_t i = 0; i < c->npages; i++) {
    c->pages[i].data = c->arena ? c->arena + i * BS : NULL;
    c->pages[i].hnext = c->free_list;
    c->free_list = &c->pages[i];
  }
  return 0;
}

void cache_destroy(cache *c) {
  if (c->polstate) c->pol->destroy(c->polstate);
  free(c->arena);
  free(c->pages);
  free(c->hash);
  memset(c, 0, sizeof *c);
}

page *cache_lookup(cache *c, uint64_t ino, uint64_t idx) {
  for (page *p = c->hash[hash_of(c, ino, idx)]; p; p = p->hnext)
    if (p->ino == ino && p->idx == idx) return p;
  return NULL;
}

static unsigned level_slot(uint8_t level) {
  return level == ULFS_LEVEL_NONE ? ULFS_HINT_LEVELS
         : level < ULFS_HINT_LEVELS ? level : ULFS_HINT_LEVELS - 1;
}

void cache_hit(cache *c, page *pg, const cache_acc *a) {
  c->st.hits_kind[a->kind]++;
  c->st.hits_level[level_slot(a->level)]++;
  c->st.hits_role[a->role]++;
  if (pg->flags & PG_PREFETCHED) {
    pg->flags &= (uint8_t)~PG_PREFETCHED;
    c->st.prefetch_used++;
  }
  if (pg->flags & PG_READAHEAD) {
    pg->flags &= (uint8_t)~PG_READAHEAD;
    c->st.readahead_used++;
  }
  c->pol->on_hit(c->polstate, pg, a);
}

void cache_miss(cache *c, uint64_t ino, uint64_t idx, const cache_acc *a) {
  if (!a->prefetch) {
    c->st.misses_kind[a->kind]++;
    c->st.misses_level[level_slot(a->level)]++;
    c->st.misses_role[a->role]++;
  }
  if (c->pol->on_miss) c->pol->on_miss(c->polstate, ino, idx, a);
}

page *cache_victim(cache *c, page **first_dirty) {
  *first_dirty = NULL;
  for (page *v = c->pol->victim_next(c->polstate, NULL); v;
       v = c->pol->victim_next(c->polstate, v)) {
    if (!v->dirty) return v;
    if (!*first_dirty) *first_dirty = v;
  }
  return NULL;
}

void cache_insert(cache *c, page *pg, inode_m *ip, const cache_acc *a) {
  size_t h = hash_of(c, pg->ino, pg->idx);
  pg->hnext = c->hash[h];
  c->hash[h] = pg;
  pg->iprev = NULL;
  pg->inext = ip->pages;
  if (ip->pages) ip->pages->iprev = pg;
  ip->pages = pg;
  c->resident++;
  pg->kind = a->kind;
  pg->level = a->level;
  pg->flags = 0;
  if (a->role == ULFS_ROLE_COMPACTION_INPUT) pg->flags |= PG_COMPACT_IN;
  if (a->prefetch) {
    pg->flags |= PG_PREFETCHED;
    c->st.prefetch_issued++;
  }
  if (a->readahead) {
    pg->flags |= PG_READAHEAD;
    c->st.readahead_issued++;
  }
  if (a->role == ULFS_ROLE_COMPACTION_OUTPUT || a->role == ULFS_ROLE_FLUSH_OUTPUT)
    pg->flags |= PG_OUTPUT;
  c->pol->on_insert(c->polstate, pg, a);
}

void cache_set_dirty(cache *c, page *pg, inode_m *ip, bool dirty) {
  if (pg->dirty == dirty) return;
  pg->dirty = dirty;
  if (dirty) {
    c->dirty++;
    ip->ndirty++;
    pg->dlo = 0; /* changed whole, unless the writer narrows it (do_pwrite) */
    pg->dhi = BS;
    pg->dirtied_ns = ulfs_now_ns();
  } else {
    c->dirty--;
    ip->ndirty--;
  }
}

void cache_remove(cache *c, page *pg, inode_m *ip, bool evicted) {
  page **pp = &c->hash[hash_of(c, pg->ino, pg->idx)];
  while (*pp != pg) pp = &(*pp)->hnext;
  *pp = pg->hnext;
  if (pg->iprev) pg->iprev->inext = pg->inext;
  else ip->pages = pg->inext;
  if (pg->inext) pg->inext->iprev = pg->iprev;
  if (evicted) c->st.evictions[pg->list < ULFS_CACHE_LISTS ? pg->list : ULFS_CACHE_LISTS - 1]++;
  c->pol->on_remove(c->polstate, pg, evicted);
  if (pg->dirty) cache_set_dirty(c, pg, ip, false);
  c->resident--;
  pg->valid = false;
  pg->hnext = c->free_list;
  c->free_list = pg;
}

page *cache_take_frame(cache *c) {
  if (!c->free_list) return NULL;
  page *pg = c->free_list;
  c->free_list = pg->hnext;
  pg->hnext = NULL;
  pg->dirty = false;
  pg->valid = false;
  return pg;
}

void cache_remove_frame(cache *c, page *pg) {
  pg->hnext = c->free_list;
  c->free_list = pg;
}

page *cache_sim_access(cache *c, inode_m *ip, uint64_t idx, const cache_acc *a, bool *hit,
                       inode_m *(*owner)(void *ctx, uint64_t ino), void *ctx) {
  uint64_t ino = ip->ino;
  page *pg = cache_lookup(c, ino, idx);
  *hit = pg != NULL;
  if (pg) {
    cache_hit(c, pg, a);
    return pg;
  }
  cache_miss(c, ino, idx, a);
  if (!(pg = cache_take_frame(c))) {
    page *dirty;
    page *v = cache_victim(c, &dirty);
    if (!v) return NULL;
    cache_remove(c, v, owner(ctx, v->ino), true);
    pg = cache_take_frame(c);
  }
  pg->ino = ino;
  pg->idx = idx;
  pg->valid = true;
  cache_insert(c, pg, ip, a);
  return pg;
}
