/**
 * Cache hints: what the RLSM engine and the Hadoop adapter tell a file system's page cache about
 * a file (its {@link org.apache.hadoop.hbase.rlsm.cachehint.FileKind kind} and LSM level) and a
 * stream (its {@link org.apache.hadoop.hbase.rlsm.cachehint.StreamRole role}).
 *
 * <p>Invariants: this package depends on Hadoop's {@code FileSystem} API and the RLSM file
 * format only, never on ulfs or JNI classes, so the engine can call
 * {@link org.apache.hadoop.hbase.rlsm.cachehint.CacheHints} on any file system; every hint is a
 * no-op unless the file system (or stream) implements
 * {@link org.apache.hadoop.hbase.rlsm.cachehint.CacheHintSink} (or
 * {@link org.apache.hadoop.hbase.rlsm.cachehint.StreamRoleHint}). Hints never change what a read
 * returns. The codes match {@code ulfs_file_kind} and {@code ulfs_stream_role} in
 * native/include/ulfs.h.
 */
package org.apache.hadoop.hbase.rlsm.cachehint;
