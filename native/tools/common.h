/* common.h -- argument helpers shared by the ulfs tools. */
#ifndef ULFS_TOOLS_COMMON_H
#define ULFS_TOOLS_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ulfs.h"

/* Parses sizes like 4096, 64M, 10G. Returns 0 on a malformed value. */
static inline unsigned long long parse_size(const char *s) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  switch (*end) {
    case 'k': case 'K': v <<= 10; end++; break;
    case 'm': case 'M': v <<= 20; end++; break;
    case 'g': case 'G': v <<= 30; end++; break;
    case 't': case 'T': v <<= 40; end++; break;
    default: break;
  }
  return *end ? 0 : v;
}

static inline ulfs_backend parse_backend(const char *s, int *ok) {
  *ok = 1;
  if (!strcmp(s, "posix")) return ULFS_BACKEND_POSIX;
  if (!strcmp(s, "io_uring")) return ULFS_BACKEND_IO_URING;
  *ok = 0;
  return ULFS_BACKEND_POSIX;
}
#endif
