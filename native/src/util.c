/* util.c -- logging, CRC32C, clocks and aligned allocation shared by the core. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

static ulfs_log_fn g_logger;
static int g_log_level = ULFS_LOG_WARN;

void ulfs_set_logger(ulfs_log_fn fn, int max_level) {
  g_logger = fn;
  g_log_level = max_level;
}

void ulfs_log(int level, const char *fmt, ...) {
  if (level > g_log_level) return;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (g_logger) {
    g_logger(level, msg);
  } else {
    static const char *names[] = {"ERROR", "WARN", "INFO"};
    fprintf(stderr, "ulfs %s: %s\n", names[level < 0 ? 0 : level > 2 ? 2 : level], msg);
  }
}

/* CRC32C (Castagnoli). Every journal record is checksummed whole (docs/format/ulfs-device.md,
 * "Journal"), so this is on the path of each hflush and fsync: with SSE4.2 (x86-64) the CPU's
 * crc32 instruction, 8 bytes per step, about ten times the table's speed; else table driven.
 * Both compute the same function (test_journal checks them against each other and the standard
 * check value). The table is built once, race-free because every thread computes identical
 * contents and the ready flag is published with release ordering. */
static uint32_t crc_table[256];
static _Atomic int crc_ready;

static void crc_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    crc_table[i] = c;
  }
  atomic_store_explicit(&crc_ready, 1, memory_order_release);
}

uint32_t ulfs_crc32c_table(uint32_t crc, const void *buf, size_t len) {
  if (!atomic_load_explicit(&crc_ready, memory_order_acquire)) crc_init();
  const uint8_t *p = buf;
  crc = ~crc;
  while (len--) crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *buf,
                                                                size_t len) {
  const uint8_t *p = buf;
  uint64_t c = ~crc;
  for (; len && ((uintptr_t)p & 7); len--) c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
  for (; len >= 8; len -= 8, p += 8) {
    uint64_t v;
    memcpy(&v, p, 8);
    c = __builtin_ia32_crc32di(c, v);
  }
  for (; len; len--) c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
  return ~(uint32_t)c;
}
#endif

uint32_t ulfs_crc32c(uint32_t crc, const void *buf, size_t len) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("sse4.2")) return crc32c_sse42(crc, buf, len);
#endif
  return ulfs_crc32c_table(crc, buf, len);
}

int64_t ulfs_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void *ulfs_alloc_aligned(size_t len) {
  void *p = NULL;
  size_t rounded = (len + BS - 1) / BS * BS;
  if (rounded == 0) rounded = BS;
  if (posix_memalign(&p, BS, rounded) != 0) return NULL;
  memset(p, 0, rounded);
  return p;
}

const char *ulfs_backend_name(ulfs_backend b) {
  switch (b) {
    case ULFS_BACKEND_MEMORY: return "memory";
    case ULFS_BACKEND_POSIX: return "posix";
    case ULFS_BACKEND_IO_URING: return "io_uring";
  }
  return "unknown";
}

struct timespec ulfs_deadline_ms(uint32_t ms) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t ns = (uint64_t)ts.tv_nsec + (uint64_t)ms * 1000000ull;
  ts.tv_sec += (time_t)(ns / 1000000000ull);
  ts.tv_nsec = (long)(ns % 1000000000ull);
  return ts;
}
