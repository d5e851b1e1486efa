/* jni_util.h -- shared by the JNI bridge files: the mount handle behind a Java long, and the one
 * way a native error reaches Java: UlfsException(errno, message). Which Java exception a caller
 * finally sees is decided in Java, in one place (UlfsErrno; docs/ulfs.md "Errors"). */
#ifndef ULFS_JNI_UTIL_H
#define ULFS_JNI_UTIL_H
#include <jni.h>
#include <stdint.h>

#include "ulfs.h"

/* What a UlfsMount handle points to: the device and the file system mounted on it. */
typedef struct ulfs_jni_mount {
  ulfs_dev *dev;
  ulfs *fs;
} ulfs_jni_mount;

static inline ulfs_jni_mount *ulfs_jni_handle(jlong h) { return (ulfs_jni_mount *)(intptr_t)h; }

/* Throws org.apache.hadoop.hbase.rlsm.ulfs.UlfsException(-rc, "<what>: <strerror>"). The caller
 * must return right after. rc must be negative. */
void ulfs_jni_throw(JNIEnv *env, int rc, const char *what, jstring path);

/* Returns a malloc'ed UTF-8 copy of s (NULL after throwing on failure). */
char *ulfs_jni_utf(JNIEnv *env, jstring s);

/* Returns the address of [off, off+len) in a direct buffer, or NULL after throwing. */
void *ulfs_jni_direct(JNIEnv *env, jobject buf, jint off, jint len);
#endif
