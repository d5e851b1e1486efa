/* trace.c -- opt-in recording of every demand page access (docs/format/ulfs-trace.md): a
 * 16-byte header, then fixed 24-byte little-endian records, written through a stdio buffer under
 * the file-system lock. The simulator (tools/ulfs-cachesim.c) reads them back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define TRACE_MAGIC "ULFSTRC1"
#define TRACE_VERSION 1u
#define TRACE_RECORD 24u

struct trace { /* a mount's trace: used only under the mount's lock (ulfs.lock) */
  FILE *f;
  bool failed;
};

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

int trace_open(const char *path, trace **out) {
  trace *t = calloc(1, sizeof *t);
  if (!t) return -ENOMEM;
  if (!(t->f = fopen(path, "wb"))) {
    int e = errno;
    free(t);
    return -e;
  }
  uint8_t h[16];
  memcpy(h, TRACE_MAGIC, 8);
  put32(h + 8, TRACE_VERSION);
  put32(h + 12, TRACE_RECORD);
  if (fwrite(h, sizeof h, 1, t->f) != 1) {
    fclose(t->f);
    free(t);
    return -EIO;
  }
  *out = t;
  return 0;
}

static void put_record(trace *t, const inode_m *ip, uint64_t idx, const cache_acc *a, uint8_t op,
                       uint32_t count) {
  if (t->failed) return;
  uint8_t r[TRACE_RECORD];
  put64(r, idx);
  put32(r + 8, ip->fid);
  put32(r + 12, (uint32_t)ip->ino);
  r[16] = a->kind;
  r[17] = a->level;
  r[18] = a->role;
  r[19] = op;
  put32(r + 20, count);
  if (fwrite(r, sizeof r, 1, t->f) != 1) {
    t->failed = true;
    ulfs_log(ULFS_LOG_WARN, "access trace: write failed, recording stopped");
  }
}

void trace_access(trace *t, const inode_m *ip, uint64_t idx, const cache_acc *a, bool write,
                  bool hit) {
  put_record(t, ip, idx, a, (uint8_t)((write ? TRACE_OP_WRITE : 0) | (hit ? TRACE_OP_HIT : 0)), 0);
}

void trace_drop(trace *t, const inode_m *ip, uint64_t idx, uint32_t n) {
  cache_acc a = {.kind = ip->kind, .level = ip->level, .role = ULFS_ROLE_USER, .prefetch = false};
  put_record(t, ip, idx, &a, TRACE_OP_DROP, n);
}

int trace_close(trace *t) {
  int rc = fclose(t->f) == 0 && !t->failed ? 0 : -EIO;
  free(t);
  return rc;
}
