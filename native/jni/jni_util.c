/* jni_util.c -- bridge helpers shared by UlfsMount.c and UlfsFile.c: throwing UlfsException
 * (every native error crosses as that, with its errno; Java's UlfsErrno maps errno values to
 * Hadoop's exception types), string and buffer access. The exception class and constructor
 * are looked up once in JNI_OnLoad and kept as a global ref. */
#include "jni_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jclass g_exc;       /* UlfsException */
static jmethodID g_exc_ctor; /* UlfsException(int errno, String message) */

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
  JNIEnv *env;
  if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
  jclass c = (*env)->FindClass(env, "org/apache/hadoop/hbase/rlsm/ulfs/UlfsException");
  if (!c) return JNI_ERR;
  g_exc = (*env)->NewGlobalRef(env, c);
  g_exc_ctor = (*env)->GetMethodID(env, c, "<init>", "(ILjava/lang/String;)V");
  if (!g_exc || !g_exc_ctor) return JNI_ERR;
  return JNI_VERSION_1_8;
}

void ulfs_jni_throw(JNIEnv *env, int rc, const char *what, jstring path) {
  char msg[1024];
  const char *p = path ? (*env)->GetStringUTFChars(env, path, NULL) : NULL;
  snprintf(msg, sizeof msg, "%s%s%s: %s", what, p ? " " : "", p ? p : "", strerror(-rc));
  if (p) (*env)->ReleaseStringUTFChars(env, path, p);
  jstring jmsg = (*env)->NewStringUTF(env, msg);
  if (!jmsg) return; /* OutOfMemoryError pending */
  jobject e = (*env)->NewObject(env, g_exc, g_exc_ctor, (jint)-rc, jmsg);
  if (e) (*env)->Throw(env, (jthrowable)e);
}

char *ulfs_jni_utf(JNIEnv *env, jstring s) {
  if (!s) {
    ulfs_jni_throw(env, -22, "null path", NULL);
    return NULL;
  }
  const char *u = (*env)->GetStringUTFChars(env, s, NULL);
  if (!u) return NULL;
  char *copy = strdup(u);
  (*env)->ReleaseStringUTFChars(env, s, u);
  if (!copy) ulfs_jni_throw(env, -12, "out of memory", NULL);
  return copy;
}

void *ulfs_jni_direct(JNIEnv *env, jobject buf, jint off, jint len) {
  uint8_t *base = (*env)->GetDirectBufferAddress(env, buf);
  jlong cap = (*env)->GetDirectBufferCapacity(env, buf);
  if (!base || off < 0 || len < 0 || (jlong)off + len > cap) {
    ulfs_jni_throw(env, -22, "buffer not direct or range out of bounds", NULL);
    return NULL;
  }
  return base + off;
}
