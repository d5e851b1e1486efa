/* cache_opt.c -- Belady's OPT for the trace simulator: on a miss with every frame in use, evict
 * the resident page whose next reference is farthest in the future (never referenced again
 * counts as infinitely far). Offline, O(n log n): dense page ids by sorting, next-use positions
 * by one backward pass, a max-heap of (next use, page) with stale entries skipped lazily. */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

typedef struct kp { uint64_t key; size_t pos; } kp;
typedef struct hent { size_t next; uint32_t id; } hent;

static int cmp_kp(const void *a, const void *b) {
  const kp *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static void heap_push(hent *h, size_t *n, hent e) {
  size_t i = (*n)++;
  while (i > 0 && h[(i - 1) / 2].next < e.next) {
    h[i] = h[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h[i] = e;
}

static hent heap_pop(hent *h, size_t *n) {
  hent top = h[0], last = h[--(*n)];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && h[c + 1].next > h[c].next) c++;
    if (h[c].next <= last.next) break;
    h[i] = h[c];
    i = c;
  }
  if (*n) h[i] = last;
  return top;
}

int cache_opt_misses(const uint64_t *keys, const bool *is_read, size_t n, size_t frames,
                     uint64_t *read_misses, uint64_t *misses) {
  *read_misses = *misses = 0;
  if (n == 0) return 0;
  if (frames == 0) return -EINVAL;
  kp *s = malloc(n * sizeof *s);
  uint32_t *id = malloc(n * sizeof *id);
  size_t *next = malloc(n * sizeof *next);
  hent *heap = malloc(n * sizeof *heap);
  if (!s || !id || !next || !heap) {
    free(s), free(id), free(next), free(heap);
    return -ENOMEM;
  }
  for (size_t i = 0; i < n; i++) s[i] = (kp){.key = keys[i], .pos = i};
  qsort(s, n, sizeof *s, cmp_kp);
  uint32_t ids = 0;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && s[i].key != s[i - 1].key) ids++;
    id[s[i].pos] = ids;
    /* sorted by (key, pos): the next reference of the same key is the next entry */
    next[s[i].pos] = i + 1 < n && s[i + 1].key == s[i].key ? s[i + 1].pos : SIZE_MAX;
  }
  ids++;
  free(s);
  size_t *cur = malloc(ids * sizeof *cur); /* next use of each resident page, 0: not resident */
  if (!cur) {
    free(id), free(next), free(heap);
    return -ENOMEM;
  }
  for (uint32_t i = 0; i < ids; i++) cur[i] = 0;
  size_t resident = 0, nheap = 0;
  /* positions are stored +1 so that 0 can mean "not resident" */
  for (size_t i = 0; i < n; i++) {
    uint32_t k = id[i];
    size_t nx = next[i] == SIZE_MAX ? SIZE_MAX : next[i] + 1;
    if (!cur[k]) {
      (*misses)++;
      if (is_read[i]) (*read_misses)++;
      if (resident == frames) {
        for (;;) {
          hent e = heap_pop(heap, &nheap);
          if (cur[e.id] == e.next) { /* not stale */
            cur[e.id] = 0;
            resident--;
            break;
          }
        }
      }
      resident++;
    }
    cur[k] = nx;
    heap_push(heap, &nheap, (hent){.next = nx, .id = k});
  }
  free(cur), free(id), free(next), free(heap);
  return 0;
}
