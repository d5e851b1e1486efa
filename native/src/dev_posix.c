/* dev_posix.c -- POSIX backend: pread/pwrite on an image file or block device, O_DIRECT when the
 * underlying file system accepts it (tmpfs and some others refuse it; then buffered I/O is used
 * and the reason logged, since flush = fdatasync still gives durability). */

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

typedef struct posix_dev {
  ulfs_dev dev;
  int fd;
} posix_dev;

int ulfs_posix_open_fd(const char *path, int flags, int *fdp, int *direct, uint64_t *size) {
  int fd = -1;
  *direct = 0;
  if (!(flags & ULFS_DEV_NO_DIRECT)) {
    fd = open(path, O_RDWR | O_CLOEXEC | O_DIRECT);
    if (fd < 0 && errno != EINVAL) return -errno;
    if (fd < 0) {
      ulfs_log(ULFS_LOG_WARN, "%s: O_DIRECT refused by the file system (EINVAL); using buffered "
               "I/O with fdatasync", path);
    } else {
      /* Some file systems accept the flag at open and refuse the first aligned read. */
      void *probe = ulfs_alloc_aligned(BS);
      if (!probe) {
        close(fd);
        return -ENOMEM;
      }
      ssize_t r = pread(fd, probe, BS, 0);
      free(probe);
      if (r < 0 && errno == EINVAL) {
        ulfs_log(ULFS_LOG_WARN, "%s: aligned O_DIRECT read failed (EINVAL); using buffered I/O "
                 "with fdatasync", path);
        close(fd);
        fd = -1;
      } else {
        *direct = 1;
      }
    }
  }
  if (fd < 0) {
    fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return -errno;
  }
  /* One mount per device: a second process (or a second open in this one) mounting the same
   * image would replay the journal and allocate under the first one's feet. The lock goes with
   * the descriptor, so a killed process releases it. */
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int e = errno == EWOULDBLOCK ? -EBUSY : -errno;
    if (e == -EBUSY) ulfs_log(ULFS_LOG_ERROR, "%s: in use by another mount (ulfs devices are "
                              "mounted by one process at a time)", path);
    close(fd);
    return e;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = -errno;
    close(fd);
    return e;
  }
  uint64_t sz = (uint64_t)st.st_size;
  if (S_ISBLK(st.st_mode) && ioctl(fd, BLKGETSIZE64, &sz) != 0) {
    int e = -errno;
    close(fd);
    return e;
  }
  *size = sz / BS * BS;
  *fdp = fd;
  return 0;
}

static int px_read(ulfs_dev *d, void *buf, uint64_t off, size_t len) {
  posix_dev *p = (posix_dev *)d;
  size_t done = 0;
  while (done < len) {
    ssize_t r = pread(p->fd, (uint8_t *)buf + done, len - done, (off_t)(off + done));
    if (r < 0) {
      if (errno == EINTR) continue;
      return -errno;
    }
    if (r == 0) { /* beyond the end of a short image: reads as zeros */
      memset((uint8_t *)buf + done, 0, len - done);
      break;
    }
    done += (size_t)r;
  }
  return 0;
}

static int px_write(ulfs_dev *d, const void *buf, uint64_t off, size_t len) {
  posix_dev *p = (posix_dev *)d;
  size_t done = 0;
  while (done < len) {
    ssize_t r = pwrite(p->fd, (const uint8_t *)buf + done, len - done, (off_t)(off + done));
    if (r < 0) {
      if (errno == EINTR) continue;
      return -errno;
    }
    if (r == 0) return -EIO;
    done += (size_t)r;
  }
  return 0;
}

static int px_flush(ulfs_dev *d) {
  posix_dev *p = (posix_dev *)d;
  return fdatasync(p->fd) == 0 ? 0 : -errno;
}

static void px_close(ulfs_dev *d) {
  posix_dev *p = (posix_dev *)d;
  close(p->fd);
  free(p);
}

static const ulfs_dev_ops posix_ops = {
    .name = "posix", .read = px_read, .write = px_write, .flush = px_flush,
    .register_buffer = NULL, .close = px_close};

int ulfs_posix_open(const char *path, int flags, ulfs_dev **out) {
  posix_dev *p = calloc(1, sizeof *p);
  if (!p) return -ENOMEM;
  int rc = ulfs_posix_open_fd(path, flags, &p->fd, &p->dev.direct, &p->dev.size);
  if (rc) {
    free(p);
    return rc;
  }
  if ((rc = ulfs_dev_open_cached_fd(&p->dev, path)) != 0) {
    close(p->fd);
    free(p);
    return rc;
  }
  p->dev.ops = &posix_ops;
  p->dev.backend = ULFS_BACKEND_POSIX;
  *out = &p->dev;
  return 0;
}
