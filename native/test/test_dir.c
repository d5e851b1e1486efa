/* test_dir -- hierarchical directories: error codes, many entries across blocks (remount and
 * list), renames of files and directories, rmdir rules, getdents paging. */
#include "t.h"

static int count_entries(ulfs *fs, const char *path, size_t bufsz) {
  char buf[8192];
  uint64_t cookie = 0;
  int n = 0, got;
  while ((got = ulfs_getdents(fs, path, &cookie, buf, bufsz)) > 0)
    for (int off = 0; off < got; off += ((ulfs_dirent *)(buf + off))->reclen) n++;
  CHECK_RC(got, 0);
  return n;
}

int main(void) {
  ulfs_dev *dev = t_memdev(32u << 20, NULL);
  ulfs *fs = t_mount(dev, 2u << 20);
  OK(ulfs_mkdir(fs, "/a", 0755));
  OK(ulfs_mkdir(fs, "/a/b", 0755));
  OK(ulfs_mkdir(fs, "/a/b/c", 0700));
  CHECK_RC(ulfs_mkdir(fs, "/a", 0755), -EEXIST);
  CHECK_RC(ulfs_mkdir(fs, "/", 0755), -EEXIST);
  CHECK_RC(ulfs_mkdir(fs, "/x/y", 0755), -ENOENT);
  t_write_file(fs, "/a/file", 9, 5000, 1);
  CHECK_RC(ulfs_mkdir(fs, "/a/file/z", 0755), -ENOTDIR);
  CHECK_RC(ulfs_open(fs, "/a/file/z", O_RDONLY, 0), -ENOTDIR);
  CHECK_RC(ulfs_open(fs, "/a", O_WRONLY, 0), -EISDIR);
  CHECK_RC(ulfs_open(fs, "/a/file", O_RDONLY | O_DIRECTORY, 0), -ENOTDIR);
  CHECK_RC(ulfs_open(fs, "/a/file", O_CREAT | O_EXCL | O_WRONLY, 0644), -EEXIST);
  CHECK_RC(ulfs_rmdir(fs, "/a"), -ENOTEMPTY);
  CHECK_RC(ulfs_rmdir(fs, "/a/file"), -ENOTDIR);
  CHECK_RC(ulfs_unlink(fs, "/a/b"), -EISDIR);
  CHECK_RC(ulfs_rename(fs, "/a", "/a/b/c/d"), -EINVAL);
  CHECK_RC(ulfs_rename(fs, "/a/file", "/a/b"), -EISDIR);
  CHECK_RC(ulfs_rename(fs, "/a/b", "/a/file"), -ENOTDIR);
  CHECK_RC(ulfs_rename(fs, "/nope", "/x"), -ENOENT);
  CHECK_RC(ulfs_stat_path(fs, "relative", &(ulfs_stat){0}), -EINVAL);
  char longname[300];
  memset(longname, 'n', sizeof longname);
  longname[0] = '/';
  longname[299] = 0;
  CHECK_RC(ulfs_mkdir(fs, longname, 0755), -ENAMETOOLONG);
  ulfs_stat st;
  OK(ulfs_stat_path(fs, "/a/b/c", &st));
  CHECK(S_ISDIR(st.mode) && (st.mode & 0777) == 0700);
  OK(ulfs_access(fs, "/a/file", R_OK | W_OK));
  CHECK_RC(ulfs_access(fs, "/a/file", X_OK), -EACCES);

  /* 1000 entries with names up to 200 bytes: dozens of directory blocks */
  char p[300];
  for (int i = 0; i < 1000; i++) {
    snprintf(p, sizeof p, "/a/b/%0*d", 10 + i % 190, i);
    int fd = ulfs_open(fs, p, O_CREAT | O_EXCL | O_WRONLY, 0644);
    CHECK(fd >= 0);
    OK(ulfs_close(fs, fd));
  }
  CHECK(count_entries(fs, "/a/b", 8192) == 1001);
  CHECK(count_entries(fs, "/a/b", 300) == 1001); /* one record per call */
  OK(ulfs_unmount(fs));
  t_fsck_clean(dev);
  fs = t_mount(dev, 2u << 20);
  CHECK(count_entries(fs, "/a/b", 8192) == 1001);
  for (int i = 0; i < 1000; i += 2) {
    snprintf(p, sizeof p, "/a/b/%0*d", 10 + i % 190, i);
    OK(ulfs_unlink(fs, p));
  }
  CHECK(count_entries(fs, "/a/b", 8192) == 501);
  /* rename of a directory with content, then across directories, replacing an empty dir */
  OK(ulfs_rename(fs, "/a/b", "/moved"));
  OK(ulfs_mkdir(fs, "/empty", 0755));
  OK(ulfs_rename(fs, "/moved", "/empty"));
  CHECK_RC(ulfs_stat_path(fs, "/moved", &st), -ENOENT);
  CHECK(count_entries(fs, "/empty", 8192) == 501);
  CHECK(t_file_matches(fs, "/a/file", 9, 5000));
  OK(ulfs_rename(fs, "/a/file", "/empty/c/file2"));
  CHECK(t_file_matches(fs, "/empty/c/file2", 9, 5000));
  CHECK_RC(ulfs_rmdir(fs, "/"), -EBUSY);
  OK(ulfs_unmount(fs));
  t_fsck_clean(dev);
  fs = t_mount(dev, 2u << 20);
  CHECK(t_file_matches(fs, "/empty/c/file2", 9, 5000));
  CHECK(count_entries(fs, "/", 8192) == 2); /* a, empty */
  t_unmount_fsck_close(fs, dev);
  printf("1 passed, 0 failed\n");
  return 0;
}
