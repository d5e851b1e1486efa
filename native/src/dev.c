/* dev.c -- the device vtable front end (argument checks, counters) and the memory backend. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static int check_io(const ulfs_dev *dev, const void *buf, uint64_t off, size_t len) {
  if ((off % BS) || (len % BS) || ((uintptr_t)buf % BS)) return -EINVAL;
  if (off > dev->size || len > dev->size - off) return -ENOSPC;
  return 0;
}

int ulfs_dev_read(ulfs_dev *dev, void *buf, uint64_t off, size_t len) {
  int rc = check_io(dev, buf, off, len);
  if (rc) return rc;
  atomic_fetch_add(&dev->reads, 1);
  atomic_fetch_add(&dev->read_bytes, len);
  return dev->ops->read(dev, buf, off, len);
}

int ulfs_dev_write(ulfs_dev *dev, const void *buf, uint64_t off, size_t len) {
  int rc = check_io(dev, buf, off, len);
  if (rc) return rc;
  atomic_fetch_add(&dev->writes, 1);
  atomic_fetch_add(&dev->write_bytes, len);
  return dev->ops->write(dev, buf, off, len);
}

int ulfs_dev_write_cached(ulfs_dev *dev, const void *buf, uint64_t off, size_t len) {
  if (!dev->has_cached_fd) return ulfs_dev_write(dev, buf, off, len);
  int rc = check_io(dev, buf, off, len);
  if (rc) return rc;
  atomic_fetch_add(&dev->writes, 1);
  atomic_fetch_add(&dev->write_bytes, len);
  for (size_t done = 0; done < len;) {
    ssize_t r = pwrite(dev->cached_fd, (const uint8_t *)buf + done, len - done,
                       (off_t)(off + done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return r < 0 ? -errno : -EIO;
    done += (size_t)r;
  }
  return 0;
}

int ulfs_dev_open_cached_fd(ulfs_dev *dev, const char *path) {
  if (!dev->direct) return 0;
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) return -errno;
  dev->cached_fd = fd;
  dev->has_cached_fd = true;
  return 0;
}

int ulfs_dev_flush(ulfs_dev *dev) {
  atomic_fetch_add(&dev->flushes, 1);
  return dev->ops->flush(dev);
}

int ulfs_dev_open(const char *path, ulfs_backend backend, int flags, ulfs_dev **out) {
  switch (backend) {
    case ULFS_BACKEND_POSIX: return ulfs_posix_open(path, flags, out);
    case ULFS_BACKEND_IO_URING: return ulfs_uring_open(path, flags, out);
    case ULFS_BACKEND_MEMORY: return -EINVAL; /* use ulfs_dev_open_memory */
  }
  return -EINVAL;
}

void ulfs_dev_close(ulfs_dev *dev) {
  if (!dev) return;
  if (dev->has_cached_fd) close(dev->cached_fd);
  dev->ops->close(dev);
}
ulfs_backend ulfs_dev_backend(const ulfs_dev *dev) { return dev->backend; }
uint64_t ulfs_dev_size(const ulfs_dev *dev) { return dev->size; }
int ulfs_dev_is_direct(const ulfs_dev *dev) { return dev->direct; }
uint64_t ulfs_dev_write_count(const ulfs_dev *dev) { return atomic_load(&dev->writes); }

int ulfs_image_create(const char *path, uint64_t bytes) {
  if (bytes % BS || bytes == 0) return -EINVAL;
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return -errno;
  off_t cur = lseek(fd, 0, SEEK_END);
  int rc = 0;
  if (cur < 0) rc = -errno;
  else if ((uint64_t)cur < bytes && ftruncate(fd, (off_t)bytes) != 0) rc = -errno;
  if (rc == 0 && fsync(fd) != 0) rc = -errno;
  close(fd);
  return rc;
}

/* ---- memory backend ----------------------------------------------------------------------
 * The image is one heap array. Crash simulation: once `freeze_left` reaches zero every write is
 * dropped, so the array holds exactly what a device that lost power after that write holds
 * (writes are applied whole and in order: this backend has no volatile write cache). */
typedef struct mem_dev {
  ulfs_dev dev;
  uint8_t *img;
  pthread_mutex_t mu;   /* guards the image's contents and the fields below */
  int64_t freeze_left; /* < 0: not frozen */
  int fail_err;
  bool hold_flushes; /* ulfs_dev_mem_hold_flushes */
  pthread_cond_t released;
} mem_dev;

static int mem_read(ulfs_dev *d, void *buf, uint64_t off, size_t len) {
  mem_dev *m = (mem_dev *)d;
  pthread_mutex_lock(&m->mu);
  memcpy(buf, m->img + off, len);
  pthread_mutex_unlock(&m->mu);
  return 0;
}

static int mem_write(ulfs_dev *d, const void *buf, uint64_t off, size_t len) {
  mem_dev *m = (mem_dev *)d;
  int rc = 0;
  pthread_mutex_lock(&m->mu);
  if (m->fail_err) {
    rc = m->fail_err;
  } else if (m->freeze_left != 0) {
    memcpy(m->img + off, buf, len);
    if (m->freeze_left > 0) m->freeze_left--;
  }
  pthread_mutex_unlock(&m->mu);
  return rc;
}

static int mem_flush(ulfs_dev *d) {
  mem_dev *m = (mem_dev *)d;
  pthread_mutex_lock(&m->mu);
  while (m->hold_flushes) pthread_cond_wait(&m->released, &m->mu);
  pthread_mutex_unlock(&m->mu);
  return 0;
}

static void mem_close(ulfs_dev *d) {
  mem_dev *m = (mem_dev *)d;
  pthread_mutex_destroy(&m->mu);
  pthread_cond_destroy(&m->released);
  free(m->img);
  free(m);
}

static const ulfs_dev_ops mem_ops = {
    .name = "memory", .read = mem_read, .write = mem_write, .flush = mem_flush,
    .register_buffer = NULL, .close = mem_close};

int ulfs_dev_open_memory(uint64_t bytes, ulfs_dev **out) {
  if (bytes == 0 || bytes % BS) return -EINVAL;
  mem_dev *m = calloc(1, sizeof *m);
  if (!m) return -ENOMEM;
  m->img = calloc(1, bytes);
  if (!m->img) {
    free(m);
    return -ENOMEM;
  }
  pthread_mutex_init(&m->mu, NULL);
  pthread_cond_init(&m->released, NULL);
  m->freeze_left = -1;
  m->dev.ops = &mem_ops;
  m->dev.backend = ULFS_BACKEND_MEMORY;
  m->dev.size = bytes;
  *out = &m->dev;
  return 0;
}

int ulfs_dev_mem_freeze_after(ulfs_dev *dev, int64_t writes) {
  if (dev->ops != &mem_ops) return -EINVAL;
  mem_dev *m = (mem_dev *)dev;
  pthread_mutex_lock(&m->mu);
  m->freeze_left = writes < 0 ? -1 : writes;
  pthread_mutex_unlock(&m->mu);
  return 0;
}

int ulfs_dev_mem_hold_flushes(ulfs_dev *dev, int on) {
  if (dev->ops != &mem_ops) return -EINVAL;
  mem_dev *m = (mem_dev *)dev;
  pthread_mutex_lock(&m->mu);
  m->hold_flushes = on != 0;
  if (!on) pthread_cond_broadcast(&m->released);
  pthread_mutex_unlock(&m->mu);
  return 0;
}

int ulfs_dev_mem_fail_writes(ulfs_dev *dev, int err) {
  if (dev->ops != &mem_ops || err > 0) return -EINVAL;
  mem_dev *m = (mem_dev *)dev;
  pthread_mutex_lock(&m->mu);
  m->fail_err = err;
  pthread_mutex_unlock(&m->mu);
  return 0;
}
