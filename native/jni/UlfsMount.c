/* UlfsMount.c -- the bridge between Java and C for org.apache.hadoop.hbase.rlsm.ulfs.UlfsMount:
 * device open/format, the fault device (built in only with ULFS_FAULT_DEVICE, i.e. into
 * libulfsjni-fault.so), mount/unmount and the path-based namespace calls. Thin: argument
 * conversion, one core call, ulfs_jni_throw on a negative result. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "jni_util.h"
#include "org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount.h"

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeFormat
 * Signature: (Ljava/lang/String;JJ)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeFormat(
    JNIEnv *env, jclass cls, jstring jpath, jlong bytes, jlong inodes) {
  char *path = ulfs_jni_utf(env, jpath);
  if (!path) return;
  ulfs_dev *dev = NULL;
  int rc = ulfs_image_create(path, (uint64_t)bytes);
  if (rc == 0) rc = ulfs_dev_open(path, ULFS_BACKEND_POSIX, 0, &dev);
  if (rc == 0) {
    ulfs_mkfs_opts o = {.inode_count = (uint64_t)inodes, .journal_blocks = 0};
    rc = ulfs_mkfs(dev, &o);
    ulfs_dev_close(dev);
  }
  free(path);
  if (rc) ulfs_jni_throw(env, rc, "format", jpath);
}

/* Mounting is three calls, so that Java knows which step failed (each maps its errno values
 * differently, UlfsErrno): open the device, put the fault device in front of it (tests only),
 * mount the file system on it. A device handle is a ulfs_dev pointer. */

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeOpenDevice
 * Signature: (Ljava/lang/String;IIJ)J
 * The memory backend gets a fresh file system of memBytes; path is unused for it.
 */
JNIEXPORT jlong JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeOpenDevice(
    JNIEnv *env, jclass cls, jstring jpath, jint backend, jint devflags, jlong memBytes) {
  ulfs_dev *dev = NULL;
  int rc;
  if (backend == ULFS_BACKEND_MEMORY) {
    rc = ulfs_dev_open_memory((uint64_t)memBytes, &dev);
    if (rc == 0) {
      rc = ulfs_mkfs(dev, NULL);
      if (rc) ulfs_dev_close(dev);
    }
  } else {
    char *path = ulfs_jni_utf(env, jpath);
    if (!path) return 0;
    rc = ulfs_dev_open(path, (ulfs_backend)backend, devflags, &dev);
    free(path);
  }
  if (rc) {
    ulfs_jni_throw(env, rc, "open device", jpath);
    return 0;
  }
  return (jlong)(intptr_t)dev;
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeWrapFault
 * Signature: (JLjava/lang/String;)J
 * Returns the fault device configured by spec in front of dev, which it then owns. On failure
 * dev is closed. Without the fault device in this library: -EOPNOTSUPP.
 */
JNIEXPORT jlong JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeWrapFault(
    JNIEnv *env, jclass cls, jlong jdev, jstring jspec) {
  ulfs_dev *dev = (ulfs_dev *)(intptr_t)jdev;
#ifdef ULFS_FAULT_DEVICE
  char *spec = ulfs_jni_utf(env, jspec);
  if (!spec) {
    ulfs_dev_close(dev);
    return 0;
  }
  ulfs_dev *fault = NULL;
  int rc = ulfs_dev_fault_wrap(dev, 0, &fault);
  if (rc == 0) {
    dev = fault; /* owns the backend now */
    rc = ulfs_dev_fault_configure(fault, spec);
  }
  free(spec);
  if (rc) {
    ulfs_dev_close(dev);
    ulfs_jni_throw(env, rc, "fault device", jspec);
    return 0;
  }
  return (jlong)(intptr_t)fault;
#else
  ulfs_dev_close(dev);
  ulfs_jni_throw(env, -EOPNOTSUPP, "fault device: not built into this library", jspec);
  return 0;
#endif
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeCloseDevice
 * Signature: (J)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeCloseDevice(
    JNIEnv *env, jclass cls, jlong jdev) {
  ulfs_dev_close((ulfs_dev *)(intptr_t)jdev);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeMount
 * Signature: (JLjava/lang/String;JILjava/lang/String;Ljava/lang/String;Ljava/lang/String;)J
 * Mounts the file system on an open device; the returned handle owns the device. On failure
 * the device stays open (the caller closes it). jdevice only names the device in messages.
 */
JNIEXPORT jlong JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeMount(
    JNIEnv *env, jclass cls, jlong jdev, jstring jdevice, jlong cacheBytes, jint flushMs,
    jstring jpolicy, jstring jtrace, jstring jstats) {
  char *policy = ulfs_jni_utf(env, jpolicy);
  char *trace = policy && jtrace ? ulfs_jni_utf(env, jtrace) : NULL;
  char *stats = policy && (trace || !jtrace) && jstats ? ulfs_jni_utf(env, jstats) : NULL;
  if (!policy || (jtrace && !trace) || (jstats && !stats)) {
    free(policy);
    free(trace);
    return 0; /* ulfs_jni_utf threw */
  }
  ulfs_jni_mount *m = calloc(1, sizeof *m);
  int rc = -ENOMEM;
  if (m) {
    m->dev = (ulfs_dev *)(intptr_t)jdev;
    ulfs_mount_opts o = {.cache_bytes = (uint64_t)cacheBytes,
                         .flush_interval_ms = (uint32_t)flushMs, .cache_policy = policy,
                         .trace_path = trace, .stats_path = stats};
    rc = ulfs_mount(m->dev, &o, &m->fs);
  }
  free(policy);
  free(trace);
  free(stats);
  if (rc) {
    free(m);
    ulfs_jni_throw(env, rc, "mount", jdevice);
    return 0;
  }
  return (jlong)(intptr_t)m;
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeUnmount
 * Signature: (J)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeUnmount(
    JNIEnv *env, jclass cls, jlong h) {
  ulfs_jni_mount *m = ulfs_jni_handle(h);
  int rc = ulfs_unmount(m->fs);
  ulfs_dev_close(m->dev);
  free(m);
  if (rc) ulfs_jni_throw(env, rc, "unmount", NULL);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeShutdown
 * Signature: (J)V
 * Unmounts the device but keeps the handle valid: later calls fail with ESHUTDOWN.
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeShutdown(
    JNIEnv *env, jclass cls, jlong h) {
  int rc = ulfs_shutdown(ulfs_jni_handle(h)->fs);
  if (rc) ulfs_jni_throw(env, rc, "unmount", NULL);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativePublishStats
 * Signature: (J)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativePublishStats(
    JNIEnv *env, jclass cls, jlong h) {
  int rc = ulfs_stats_publish(ulfs_jni_handle(h)->fs);
  if (rc) ulfs_jni_throw(env, rc, "publish counters", NULL);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeDescribe
 * Signature: (J)Ljava/lang/String;
 */
JNIEXPORT jstring JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeDescribe(
    JNIEnv *env, jclass cls, jlong h) {
  ulfs_jni_mount *m = ulfs_jni_handle(h);
  char s[128];
  snprintf(s, sizeof s, "%s%s", ulfs_backend_name(ulfs_dev_backend(m->dev)),
           ulfs_dev_is_direct(m->dev) ? "+O_DIRECT" : "");
  return (*env)->NewStringUTF(env, s);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeOpen
 * Signature: (JLjava/lang/String;II)I
 */
JNIEXPORT jint JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeOpen(
    JNIEnv *env, jclass cls, jlong h, jstring jpath, jint flags, jint mode) {
  /* Java passes UlfsFile.OPEN_* bits, not platform O_* values (those differ across
   * architectures). */
  int f = (flags & 3) == 3 ? O_RDWR : (flags & 2) ? O_WRONLY : O_RDONLY;
  if (flags & 4) f |= O_CREAT;
  if (flags & 8) f |= O_EXCL;
  if (flags & 16) f |= O_TRUNC;
  if (flags & 32) f |= O_APPEND;
  char *path = ulfs_jni_utf(env, jpath);
  if (!path) return -1;
  int fd = ulfs_open(ulfs_jni_handle(h)->fs, path, f, (mode_t)mode);
  free(path);
  if (fd < 0) ulfs_jni_throw(env, fd, "open", jpath);
  return fd;
}

typedef int (*path_op)(ulfs *, const char *);

static void run_path_op(JNIEnv *env, jlong h, jstring jpath, path_op op, const char *what) {
  char *path = ulfs_jni_utf(env, jpath);
  if (!path) return;
  int rc = op(ulfs_jni_handle(h)->fs, path);
  free(path);
  if (rc) ulfs_jni_throw(env, rc, what, jpath);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeMkdir
 * Signature: (JLjava/lang/String;I)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeMkdir(
    JNIEnv *env, jclass cls, jlong h, jstring jpath, jint mode) {
  char *path = ulfs_jni_utf(env, jpath);
  if (!path) return;
  int rc = ulfs_mkdir(ulfs_jni_handle(h)->fs, path, (mode_t)mode);
  free(path);
  if (rc) ulfs_jni_throw(env, rc, "mkdir", jpath);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeRmdir
 * Signature: (JLjava/lang/String;)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeRmdir(
    JNIEnv *env, jclass cls, jlong h, jstring jpath) {
  run_path_op(env, h, jpath, ulfs_rmdir, "rmdir");
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeUnlink
 * Signature: (JLjava/lang/String;)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeUnlink(
    JNIEnv *env, jclass cls, jlong h, jstring jpath) {
  run_path_op(env, h, jpath, ulfs_unlink, "unlink");
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeRename
 * Signature: (JLjava/lang/String;Ljava/lang/String;)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeRename(
    JNIEnv *env, jclass cls, jlong h, jstring jfrom, jstring jto) {
  char *from = ulfs_jni_utf(env, jfrom);
  if (!from) return;
  char *to = ulfs_jni_utf(env, jto);
  if (!to) {
    free(from);
    return;
  }
  int rc = ulfs_rename(ulfs_jni_handle(h)->fs, from, to);
  free(from);
  free(to);
  if (rc) ulfs_jni_throw(env, rc, "rename", jfrom);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeStat
 * Signature: (JLjava/lang/String;[J)V
 * out: ino, mode, nlink, size, blocks, mtime_ns, ctime_ns
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeStat(
    JNIEnv *env, jclass cls, jlong h, jstring jpath, jlongArray out) {
  char *path = ulfs_jni_utf(env, jpath);
  if (!path) return;
  ulfs_stat st;
  int rc = ulfs_stat_path(ulfs_jni_handle(h)->fs, path, &st);
  free(path);
  if (rc) {
    ulfs_jni_throw(env, rc, "stat", jpath);
    return;
  }
  jlong v[7] = {(jlong)st.ino, st.mode, st.nlink, (jlong)st.size, (jlong)st.blocks, st.mtime_ns,
                st.ctime_ns};
  (*env)->SetLongArrayRegion(env, out, 0, 7, v);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeList
 * Signature: (JLjava/lang/String;)[Ljava/lang/String;
 */
JNIEXPORT jobjectArray JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeList(
    JNIEnv *env, jclass cls, jlong h, jstring jpath) {
  char *path = ulfs_jni_utf(env, jpath);
  if (!path) return NULL;
  ulfs *fs = ulfs_jni_handle(h)->fs;
  size_t n = 0, cap = 64;
  char **names = malloc(cap * sizeof *names);
  char buf[16384];
  uint64_t cookie = 0;
  int got = 0;
  while (names && (got = ulfs_getdents(fs, path, &cookie, buf, sizeof buf)) > 0) {
    for (int off = 0; off < got && names;) {
      ulfs_dirent *d = (ulfs_dirent *)(buf + off);
      if (n == cap) {
        char **nn = realloc(names, (cap *= 2) * sizeof *names);
        if (!nn) {
          for (size_t i = 0; i < n; i++) free(names[i]);
          free(names);
          names = NULL;
          break;
        }
        names = nn;
      }
      names[n++] = strdup(d->name);
      off += d->reclen;
    }
  }
  free(path);
  if (!names) got = -ENOMEM;
  jobjectArray arr = NULL;
  if (got == 0) {
    jclass sc = (*env)->FindClass(env, "java/lang/String");
    arr = sc ? (*env)->NewObjectArray(env, (jsize)n, sc, NULL) : NULL;
    for (size_t i = 0; arr && i < n; i++) {
      jstring s = (*env)->NewStringUTF(env, names[i] ? names[i] : "");
      if (!s) {
        arr = NULL;
        break;
      }
      (*env)->SetObjectArrayElement(env, arr, (jsize)i, s);
      (*env)->DeleteLocalRef(env, s);
    }
  }
  if (names) {
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
  }
  if (got < 0) ulfs_jni_throw(env, got, "list", jpath);
  return arr;
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeStatfs
 * Signature: (J[J)V
 * out: block_size, blocks, blocks_free, inodes, inodes_free
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeStatfs(
    JNIEnv *env, jclass cls, jlong h, jlongArray out) {
  ulfs_statfs s;
  int rc = ulfs_statfs_get(ulfs_jni_handle(h)->fs, &s);
  if (rc) {
    ulfs_jni_throw(env, rc, "statfs", NULL);
    return;
  }
  jlong v[5] = {(jlong)s.block_size, (jlong)s.blocks, (jlong)s.blocks_free, (jlong)s.inodes,
                (jlong)s.inodes_free};
  (*env)->SetLongArrayRegion(env, out, 0, 5, v);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeCounters
 * Signature: (J[J)V
 * out: the fields of ulfs_counters in declaration order (16 values)
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeCounters(
    JNIEnv *env, jclass cls, jlong h, jlongArray out) {
  ulfs_counters c;
  ulfs_get_counters(ulfs_jni_handle(h)->fs, &c);
  jlong v[16] = {(jlong)c.dev_reads, (jlong)c.dev_writes, (jlong)c.dev_flushes,
                 (jlong)c.dev_read_bytes, (jlong)c.dev_write_bytes, (jlong)c.cache_hits,
                 (jlong)c.cache_misses, (jlong)c.cache_evictions, (jlong)c.cache_writebacks,
                 (jlong)c.cache_wb_errors, (jlong)c.cache_pages, (jlong)c.cache_dirty_pages,
                 (jlong)c.journal_commits, (jlong)c.journal_blocks,
                 (jlong)c.journal_replayed_txns, (jlong)c.journal_wraps};
  (*env)->SetLongArrayRegion(env, out, 0, 16, v);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeCacheStats
 * Signature: (J[J)V
 * Fills the layout of UlfsCacheStats: hits, misses per kind; hits, misses per level slot;
 * prefetch issued, used; evictions, pages per list; dirty write-backs, p, |B1|, |B2|;
 * readahead issued, used; hits, misses per stream role.
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeCacheStats(
    JNIEnv *env, jclass cls, jlong h, jlongArray out) {
  ulfs_cache_stats st;
  ulfs_get_cache_stats(ulfs_jni_handle(h)->fs, &st);
  jlong v[2 * ULFS_KIND_COUNT + 2 * (ULFS_HINT_LEVELS + 1) + 2 + 2 * ULFS_CACHE_LISTS + 6 +
          2 * ULFS_ROLE_COUNT];
  size_t n = 0;
  for (unsigned i = 0; i < ULFS_KIND_COUNT; i++) v[n++] = (jlong)st.hits_kind[i];
  for (unsigned i = 0; i < ULFS_KIND_COUNT; i++) v[n++] = (jlong)st.misses_kind[i];
  for (unsigned i = 0; i <= ULFS_HINT_LEVELS; i++) v[n++] = (jlong)st.hits_level[i];
  for (unsigned i = 0; i <= ULFS_HINT_LEVELS; i++) v[n++] = (jlong)st.misses_level[i];
  v[n++] = (jlong)st.prefetch_issued;
  v[n++] = (jlong)st.prefetch_used;
  for (unsigned i = 0; i < ULFS_CACHE_LISTS; i++) v[n++] = (jlong)st.evictions[i];
  for (unsigned i = 0; i < ULFS_CACHE_LISTS; i++) v[n++] = (jlong)st.list_pages[i];
  v[n++] = (jlong)st.dirty_writebacks;
  v[n++] = (jlong)st.arc_p;
  v[n++] = (jlong)st.ghost_b1;
  v[n++] = (jlong)st.ghost_b2;
  v[n++] = (jlong)st.readahead_issued;
  v[n++] = (jlong)st.readahead_used;
  for (unsigned i = 0; i < ULFS_ROLE_COUNT; i++) v[n++] = (jlong)st.hits_role[i];
  for (unsigned i = 0; i < ULFS_ROLE_COUNT; i++) v[n++] = (jlong)st.misses_role[i];
  if ((*env)->GetArrayLength(env, out) != (jsize)n) {
    ulfs_jni_throw(env, -EINVAL, "cache stats: array length does not match", NULL);
    return;
  }
  (*env)->SetLongArrayRegion(env, out, 0, (jsize)n, v);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeCachePolicy
 * Signature: (J)Ljava/lang/String;
 */
JNIEXPORT jstring JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeCachePolicy(
    JNIEnv *env, jclass cls, jlong h) {
  return (*env)->NewStringUTF(env, ulfs_cache_policy(ulfs_jni_handle(h)->fs));
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeCacheLists
 * Signature: (J)[Ljava/lang/String;
 */
JNIEXPORT jobjectArray JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeCacheLists(
    JNIEnv *env, jclass cls, jlong h) {
  ulfs *fs = ulfs_jni_handle(h)->fs;
  jsize n = 0;
  while (ulfs_cache_list_name(fs, (unsigned)n)) n++;
  jclass str = (*env)->FindClass(env, "java/lang/String");
  if (!str) return NULL;
  jobjectArray arr = (*env)->NewObjectArray(env, n, str, NULL);
  for (jsize i = 0; arr && i < n; i++) {
    jstring s = (*env)->NewStringUTF(env, ulfs_cache_list_name(fs, (unsigned)i));
    if (!s) return NULL;
    (*env)->SetObjectArrayElement(env, arr, i, s);
    (*env)->DeleteLocalRef(env, s);
  }
  return arr;
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeHintPath
 * Signature: (JLjava/lang/String;II)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeHintPath(
    JNIEnv *env, jclass cls, jlong h, jstring jpath, jint kind, jint level) {
  char *path = ulfs_jni_utf(env, jpath);
  if (!path) return;
  int rc = ulfs_hint_path(ulfs_jni_handle(h)->fs, path, kind, level);
  free(path);
  if (rc) ulfs_jni_throw(env, rc, "cache hint", jpath);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeDropCache
 * Signature: (JLjava/lang/String;)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeDropCache(
    JNIEnv *env, jclass cls, jlong h, jstring jpath) {
  run_path_op(env, h, jpath, ulfs_drop_cache, "drop cache");
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativeHintCommit
 * Signature: (JLjava/lang/String;)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativeHintCommit(
    JNIEnv *env, jclass cls, jlong h, jstring jpath) {
  run_path_op(env, h, jpath, ulfs_hint_commit, "cache hint commit");
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount
 * Method:    nativePrefetchWait
 * Signature: (J)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsMount_nativePrefetchWait(
    JNIEnv *env, jclass cls, jlong h) {
  ulfs_prefetch_wait(ulfs_jni_handle(h)->fs);
}
