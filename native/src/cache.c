/* cache.c -- the 4 KB page cache: frames in one aligned arena (registered with the device so
 * io_uring can use fixed buffers), a hash on (inode, page index), per-inode page lists, and a
 * pluggable replacement policy (cache_policy_ops; LRU in cache_lru.c).
 * Invariants:
 *  C1 a page is resident iff it is in the hash, in its inode's list and known to the policy;
 *  C2 a dirty page is never evicted and never marked clean unless its write-back succeeded;
 *  C3 resident + |free_list| == npages.
 * All functions run with the file-system lock held. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static size_t hash_of(const cache *c, uint64_t ino, uint64_t idx) {
  uint64_t h = ino * 0x9E3779B97F4A7C15ull ^ (idx + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  return (size_t)(h ^ (h >> 29)) % c->nhash;
}

int cache_init(cache *c, size_t bytes, const char *policy) {
  memset(c, 0, sizeof *c);
  if (policy && strcmp(policy, "lru") != 0) return -EINVAL;
  c->pol = &ulfs_policy_lru;
  c->npages = bytes / BS < 64 ? 64 : bytes / BS;
  c->arena = ulfs_alloc_aligned(c->npages * BS);
  c->pages = calloc(c->npages, sizeof(page));
  c->nhash = c->npages * 2 + 1;
  c->hash = calloc(c->nhash, sizeof(page *));
  c->polstate = c->pol->create(c->npages);
  if (!c->arena || !c->pages || !c->hash || !c->polstate) {
    cache_destroy(c);
    return -ENOMEM;
  }
  for (size_t i = 0; i < c->npages; i++) {
    c->pages[i].data = c->arena + i * BS;
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

void cache_insert(cache *c, page *pg, inode_m *ip) {
  size_t h = hash_of(c, pg->ino, pg->idx);
  pg->hnext = c->hash[h];
  c->hash[h] = pg;
  pg->iprev = NULL;
  pg->inext = ip->pages;
  if (ip->pages) ip->pages->iprev = pg;
  ip->pages = pg;
  c->resident++;
  c->pol->on_insert(c->polstate, pg);
}

void cache_set_dirty(cache *c, page *pg, inode_m *ip, bool dirty) {
  if (pg->dirty == dirty) return;
  pg->dirty = dirty;
  if (dirty) {
    c->dirty++;
    ip->ndirty++;
    pg->dirtied_ns = ulfs_now_ns();
  } else {
    c->dirty--;
    ip->ndirty--;
  }
}

void cache_remove(cache *c, page *pg, inode_m *ip) {
  page **pp = &c->hash[hash_of(c, pg->ino, pg->idx)];
  while (*pp != pg) pp = &(*pp)->hnext;
  *pp = pg->hnext;
  if (pg->iprev) pg->iprev->inext = pg->inext;
  else ip->pages = pg->inext;
  if (pg->inext) pg->inext->iprev = pg->iprev;
  c->pol->on_remove(c->polstate, pg);
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
