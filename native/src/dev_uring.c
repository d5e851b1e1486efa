/* dev_uring.c -- io_uring backend through liburing.
 *
 * One ring per (device, thread): a thread's ring is created on its first I/O and kept in a
 * per-device list, so threads never share a submission queue and need no lock to submit
 * (per-thread device queues, docs/ulfs.md "Device backends"). The page-cache arena is
 * registered as fixed buffer 0 with every ring, so page I/O uses READ_FIXED/WRITE_FIXED; other
 * buffers use plain READ/WRITE.
 * SQPOLL is requested when configured; when the kernel refuses it the ring is created without.
 * IOPOLL (polled completions) is used when configured and the device allows it: opened with
 * O_DIRECT and on a block queue that polls; a polled ring cannot fsync, so flush then is
 * fdatasync(2). The mode is logged at open. When no ring can be created at open, the device
 * falls back to the POSIX backend with a warning. */

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include "internal.h"

#define RING_DEPTH 64
#define MAX_CHUNK (1u << 20) /* bytes per SQE */

typedef struct uring_dev uring_dev;

typedef struct uring_tls {
  struct io_uring ring;
  uring_dev *owner;
  bool fixed; /* the arena is registered with this ring */
  bool tried; /* registration was attempted after the arena was known */
  struct uring_tls *next, *prev;
} uring_tls;

struct uring_dev {
  ulfs_dev dev;
  int fd;
  int flags;
  bool iopoll; /* rings are created with IORING_SETUP_IOPOLL */
  pthread_key_t key;
  pthread_mutex_t mu; /* guards rings list and arena fields */
  uring_tls *rings;
  void *arena;
  size_t arena_len;
};

/* Thread exit: the ring goes away with its thread, so short-lived threads do not accumulate
 * rings (each holds a file descriptor, mapped queues and possibly pinned buffers). */
static void ring_destroy(void *arg) {
  uring_tls *t = arg;
  uring_dev *u = t->owner;
  pthread_mutex_lock(&u->mu);
  if (t->prev) t->prev->next = t->next;
  else u->rings = t->next;
  if (t->next) t->next->prev = t->prev;
  pthread_mutex_unlock(&u->mu);
  io_uring_queue_exit(&t->ring);
  free(t);
}

static int ring_setup(uring_dev *u, struct io_uring *ring) {
  int rc;
  unsigned poll = u->iopoll ? IORING_SETUP_IOPOLL : 0;
  if (u->flags & ULFS_DEV_SQPOLL) {
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_SQPOLL | poll;
    p.sq_thread_idle = 50;
    rc = io_uring_queue_init_params(RING_DEPTH, ring, &p);
    if (rc == 0) return 0;
    ulfs_log(ULFS_LOG_WARN, "io_uring SQPOLL refused (%s); using a ring without a polling "
             "thread", strerror(-rc));
  }
  return io_uring_queue_init(RING_DEPTH, ring, poll);
}

/* Whether the block queue under fd (the device itself, or the one holding the image file)
 * completes polled I/O. */
static bool queue_polls(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) return false;
  dev_t d = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
  /* a partition has no queue of its own: its parent's is one directory up */
  static const char *const where[] = {"/sys/dev/block/%u:%u/queue/io_poll",
                                      "/sys/dev/block/%u:%u/../queue/io_poll"};
  for (int i = 0; i < 2; i++) {
    char path[96];
    snprintf(path, sizeof path, where[i], major(d), minor(d));
    FILE *f = fopen(path, "re");
    if (!f) continue;
    int c = fgetc(f);
    fclose(f);
    return c == '1';
  }
  return false;
}

static uring_tls *ring_get(uring_dev *u, int *err) {
  uring_tls *t = pthread_getspecific(u->key);
  if (t) {
    /* A ring created before the cache registered its arena registers it on next use, from its
     * own thread, so no other thread ever touches this ring. */
    if (!t->tried) {
      pthread_mutex_lock(&u->mu);
      if (u->arena) {
        struct iovec iov = {.iov_base = u->arena, .iov_len = u->arena_len};
        t->fixed = io_uring_register_buffers(&t->ring, &iov, 1) == 0;
        t->tried = true;
      }
      pthread_mutex_unlock(&u->mu);
    }
    return t;
  }
  t = calloc(1, sizeof *t);
  if (!t) {
    *err = -ENOMEM;
    return NULL;
  }
  int rc = ring_setup(u, &t->ring);
  if (rc) {
    free(t);
    *err = rc;
    return NULL;
  }
  pthread_mutex_lock(&u->mu);
  if (u->arena) {
    struct iovec iov = {.iov_base = u->arena, .iov_len = u->arena_len};
    t->fixed = io_uring_register_buffers(&t->ring, &iov, 1) == 0;
    t->tried = true;
  }
  t->owner = u;
  t->prev = NULL;
  t->next = u->rings;
  if (u->rings) u->rings->prev = t;
  u->rings = t;
  pthread_mutex_unlock(&u->mu);
  pthread_setspecific(u->key, t);
  return t;
}

/* Submits one request of at most MAX_CHUNK bytes and waits for it; returns bytes or -errno. */
static int ring_rw(uring_dev *u, uring_tls *t, bool wr, void *buf, uint64_t off, size_t len) {
  struct io_uring_sqe *sqe = io_uring_get_sqe(&t->ring);
  if (!sqe) return -EBUSY;
  bool fixed = t->fixed && (uint8_t *)buf >= (uint8_t *)u->arena &&
               (uint8_t *)buf + len <= (uint8_t *)u->arena + u->arena_len;
  if (fixed && wr) io_uring_prep_write_fixed(sqe, u->fd, buf, (unsigned)len, off, 0);
  else if (fixed) io_uring_prep_read_fixed(sqe, u->fd, buf, (unsigned)len, off, 0);
  else if (wr) io_uring_prep_write(sqe, u->fd, buf, (unsigned)len, off);
  else io_uring_prep_read(sqe, u->fd, buf, (unsigned)len, off);
  int rc = io_uring_submit(&t->ring);
  if (rc < 0) return rc;
  struct io_uring_cqe *cqe;
  do {
    rc = io_uring_wait_cqe(&t->ring, &cqe);
  } while (rc == -EINTR);
  if (rc < 0) return rc;
  int res = cqe->res;
  io_uring_cqe_seen(&t->ring, cqe);
  return res;
}

static int ur_io(ulfs_dev *d, bool wr, void *buf, uint64_t off, size_t len) {
  uring_dev *u = (uring_dev *)d;
  int err = 0;
  uring_tls *t = ring_get(u, &err);
  if (!t) return err;
  size_t done = 0;
  while (done < len) {
    size_t n = len - done > MAX_CHUNK ? MAX_CHUNK : len - done;
    int r = ring_rw(u, t, wr, (uint8_t *)buf + done, off + done, n);
    if (r == -EINTR || r == -EAGAIN) continue;
    if (r < 0) return r;
    if (r == 0) {
      if (wr) return -EIO;
      memset((uint8_t *)buf + done, 0, len - done); /* past the end of a short image */
      break;
    }
    done += (size_t)r;
  }
  return 0;
}

static int ur_read(ulfs_dev *d, void *buf, uint64_t off, size_t len) {
  return ur_io(d, false, buf, off, len);
}

static int ur_write(ulfs_dev *d, const void *buf, uint64_t off, size_t len) {
  return ur_io(d, true, (void *)buf, off, len);
}

static int ur_flush(ulfs_dev *d) {
  uring_dev *u = (uring_dev *)d;
  if (u->iopoll) return fdatasync(u->fd) == 0 ? 0 : -errno; /* polled rings cannot fsync */
  int err = 0;
  uring_tls *t = ring_get(u, &err);
  if (!t) return err;
  struct io_uring_sqe *sqe = io_uring_get_sqe(&t->ring);
  if (!sqe) return -EBUSY;
  io_uring_prep_fsync(sqe, u->fd, IORING_FSYNC_DATASYNC);
  int rc = io_uring_submit(&t->ring);
  if (rc < 0) return rc;
  struct io_uring_cqe *cqe;
  do {
    rc = io_uring_wait_cqe(&t->ring, &cqe);
  } while (rc == -EINTR);
  if (rc < 0) return rc;
  int res = cqe->res;
  io_uring_cqe_seen(&t->ring, cqe);
  return res < 0 ? res : 0;
}

static int ur_register(ulfs_dev *d, void *base, size_t len) {
  uring_dev *u = (uring_dev *)d;
  pthread_mutex_lock(&u->mu);
  u->arena = base;
  u->arena_len = len;
  pthread_mutex_unlock(&u->mu);
  return 0;
}

static void ur_close(ulfs_dev *d) {
  uring_dev *u = (uring_dev *)d;
  /* Rings of threads still alive are torn down here; their thread-specific slot dangles but the
   * key is deleted first, so it is never read again and no destructor runs for it later. The
   * caller guarantees no I/O is in flight (the device is closed after unmount); a thread that
   * exits at this very moment is serialised by the mutex. */
  pthread_key_delete(u->key);
  pthread_mutex_lock(&u->mu);
  uring_tls *rings = u->rings;
  u->rings = NULL;
  pthread_mutex_unlock(&u->mu);
  for (uring_tls *t = rings, *n; t; t = n) {
    n = t->next;
    io_uring_queue_exit(&t->ring);
    free(t);
  }
  pthread_mutex_destroy(&u->mu);
  /* Unlocked explicitly: the kernel tears rings down asynchronously and may hold the file a
   * little longer than close, which would keep the lock and refuse an immediate remount. */
  flock(u->fd, LOCK_UN);
  close(u->fd);
  free(u);
}

static const ulfs_dev_ops uring_ops = {
    .name = "io_uring", .read = ur_read, .write = ur_write, .flush = ur_flush,
    .register_buffer = ur_register, .close = ur_close};

int ulfs_uring_open(const char *path, int flags, ulfs_dev **out) {
  /* Probe: can this process create a ring at all (io_uring may be disabled by sysctl,
   * seccomp or an old kernel)? */
  struct io_uring probe;
  int rc = io_uring_queue_init(4, &probe, 0);
  if (rc < 0) {
    ulfs_log(ULFS_LOG_WARN, "io_uring unavailable (%s); falling back to the POSIX backend",
             strerror(-rc));
    return ulfs_posix_open(path, flags, out);
  }
  io_uring_queue_exit(&probe);
  uring_dev *u = calloc(1, sizeof *u);
  if (!u) return -ENOMEM;
  rc = ulfs_posix_open_fd(path, flags, &u->fd, &u->dev.direct, &u->dev.size);
  if (rc) {
    free(u);
    return rc;
  }
  if ((rc = ulfs_dev_open_cached_fd(&u->dev, path)) != 0) {
    close(u->fd);
    free(u);
    return rc;
  }
  if (pthread_key_create(&u->key, ring_destroy) != 0) {
    close(u->dev.cached_fd);
    close(u->fd);
    free(u);
    return -EAGAIN;
  }
  pthread_mutex_init(&u->mu, NULL);
  u->flags = flags;
  const char *why = "not asked for";
  if (flags & ULFS_DEV_IOPOLL) {
    u->iopoll = u->dev.direct && queue_polls(u->fd);
    why = u->iopoll ? "on" : !u->dev.direct ? "off: no O_DIRECT" : "off: the block queue does "
          "not poll (queue/io_poll = 0)";
  }
  ulfs_log(ULFS_LOG_INFO, "%s: io_uring, a ring per thread, SQPOLL %s, IOPOLL %s", path,
           flags & ULFS_DEV_SQPOLL ? "asked for" : "not asked for", why);
  u->dev.ops = &uring_ops;
  u->dev.backend = ULFS_BACKEND_IO_URING;
  *out = &u->dev;
  return 0;
}
