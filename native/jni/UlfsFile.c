/* UlfsFile.c -- the bridge between Java and C for org.apache.hadoop.hbase.rlsm.ulfs.UlfsFile:
 * descriptor-based I/O. Data crosses only as direct ByteBuffers (address + offset + length), so
 * no Java array is pinned or copied here. */
#include <errno.h>
#include <fcntl.h>

#include "jni_util.h"
#include "org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile.h"

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile
 * Method:    nativePread
 * Signature: (JILjava/nio/ByteBuffer;IIJI)I
 * role: the calling thread's cache role (ulfs_stream_role), -1 for the descriptor's.
 */
JNIEXPORT jint JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile_nativePread(
    JNIEnv *env, jclass cls, jlong h, jint fd, jobject buf, jint off, jint len, jlong pos,
    jint role) {
  void *p = ulfs_jni_direct(env, buf, off, len);
  if (!p) return -1;
  if (pos < 0) {
    ulfs_jni_throw(env, -EINVAL, "pread: negative position", NULL);
    return -1;
  }
  ssize_t r = ulfs_pread_as(ulfs_jni_handle(h)->fs, fd, p, (size_t)len, (uint64_t)pos, role);
  if (r < 0) ulfs_jni_throw(env, (int)r, "pread", NULL);
  return (jint)r;
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile
 * Method:    nativeWrite
 * Signature: (JILjava/nio/ByteBuffer;II)V
 * Writes all len bytes at the descriptor's offset (the end, for O_APPEND descriptors).
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile_nativeWrite(
    JNIEnv *env, jclass cls, jlong h, jint fd, jobject buf, jint off, jint len) {
  const uint8_t *p = ulfs_jni_direct(env, buf, off, len);
  if (!p) return;
  ulfs *fs = ulfs_jni_handle(h)->fs;
  while (len > 0) {
    ssize_t r = ulfs_write(fs, fd, p, (size_t)len);
    if (r <= 0) {
      ulfs_jni_throw(env, r < 0 ? (int)r : -EIO, "write", NULL);
      return;
    }
    p += r;
    len -= (jint)r;
  }
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile
 * Method:    nativeFsync
 * Signature: (JI)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile_nativeFsync(
    JNIEnv *env, jclass cls, jlong h, jint fd) {
  int rc = ulfs_fsync(ulfs_jni_handle(h)->fs, fd);
  if (rc) ulfs_jni_throw(env, rc, "fsync", NULL);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile
 * Method:    nativeHflush
 * Signature: (JI)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile_nativeHflush(
    JNIEnv *env, jclass cls, jlong h, jint fd) {
  int rc = ulfs_hflush(ulfs_jni_handle(h)->fs, fd);
  if (rc) ulfs_jni_throw(env, rc, "hflush", NULL);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile
 * Method:    nativeClose
 * Signature: (JI)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile_nativeClose(
    JNIEnv *env, jclass cls, jlong h, jint fd) {
  int rc = ulfs_close(ulfs_jni_handle(h)->fs, fd);
  if (rc) ulfs_jni_throw(env, rc, "close", NULL);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile
 * Method:    nativeFtruncate
 * Signature: (JIJ)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile_nativeFtruncate(
    JNIEnv *env, jclass cls, jlong h, jint fd, jlong size) {
  int rc = size < 0 ? -EINVAL : ulfs_ftruncate(ulfs_jni_handle(h)->fs, fd, (uint64_t)size);
  if (rc) ulfs_jni_throw(env, rc, "ftruncate", NULL);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile
 * Method:    nativeFadvise
 * Signature: (JIJJI)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile_nativeFadvise(
    JNIEnv *env, jclass cls, jlong h, jint fd, jlong off, jlong len, jint advice) {
  int rc = off < 0 || len < 0 ? -EINVAL
           : ulfs_fadvise(ulfs_jni_handle(h)->fs, fd, (uint64_t)off, (uint64_t)len, advice);
  if (rc) ulfs_jni_throw(env, rc, "fadvise", NULL);
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile
 * Method:    nativeSize
 * Signature: (JI)J
 */
JNIEXPORT jlong JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile_nativeSize(
    JNIEnv *env, jclass cls, jlong h, jint fd) {
  ulfs_stat st;
  int rc = ulfs_fstat(ulfs_jni_handle(h)->fs, fd, &st);
  if (rc) {
    ulfs_jni_throw(env, rc, "fstat", NULL);
    return -1;
  }
  return (jlong)st.size;
}

/*
 * Class:     org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile
 * Method:    nativeHintRole
 * Signature: (JII)V
 */
JNIEXPORT void JNICALL Java_org_apache_hadoop_hbase_rlsm_ulfs_UlfsFile_nativeHintRole(
    JNIEnv *env, jclass cls, jlong h, jint fd, jint role) {
  int rc = ulfs_hint_fd(ulfs_jni_handle(h)->fs, fd, role);
  if (rc) ulfs_jni_throw(env, rc, "cache role hint", NULL);
}
