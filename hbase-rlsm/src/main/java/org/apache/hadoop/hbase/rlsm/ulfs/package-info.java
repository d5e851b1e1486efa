/**
 * ulfs: a user-level file system (native C library under {@code native/}) reached through JNI,
 * and its Hadoop {@link org.apache.hadoop.fs.FileSystem} for the URI scheme {@code ulfs}, so
 * everything under {@code hbase.rootdir} can bypass the kernel file system.
 *
 * <p>Roles:
 * <ul>
 * <li>{@link org.apache.hadoop.hbase.rlsm.ulfs.NativeLoader} loads {@code libulfsjni.so} once
 * (or {@code libulfsjni-fault.so}, the bridge with the test-only fault device, when
 * {@code fs.ulfs.fault.*} ask for it; the jar never holds that one);</li>
 * <li>{@link org.apache.hadoop.hbase.rlsm.ulfs.UlfsMount} and
 * {@link org.apache.hadoop.hbase.rlsm.ulfs.UlfsFile} are the Java peers of the native mount and
 * descriptor (one JNI bridge file each in {@code native/jni/});</li>
 * <li>{@link org.apache.hadoop.hbase.rlsm.ulfs.UlfsException} (errno and message) is the only
 * exception the native side throws ({@code native/jni/jni_util.c}); {@code UlfsErrno} is the one
 * place errno values become the exceptions callers see (Hadoop's types where Hadoop callers
 * distinguish them); nothing matches message text;</li>
 * <li>{@link org.apache.hadoop.hbase.rlsm.ulfs.UlfsFileSystem} adds Hadoop semantics (which
 * Hadoop exception a missing path or an existing target raises, recursive mkdirs and delete,
 * rename into directories), and is the {@code CacheHintSink} of the engine's cache hints;</li>
 * <li>{@link org.apache.hadoop.hbase.rlsm.ulfs.UlfsPathClassifier} names the kind of HBase files
 * by path (WAL, temporary output, archived);
 * {@link org.apache.hadoop.hbase.rlsm.ulfs.UlfsCacheStats} is a snapshot of the page cache
 * counters, {@link org.apache.hadoop.hbase.rlsm.ulfs.UlfsMountMXBean} the same counters live over
 * JMX (implemented by {@code UlfsMountBean}); {@link org.apache.hadoop.hbase.rlsm.ulfs.UlfsConfig} holds every key, including the
 * cache policy and the access trace.</li>
 * </ul>
 *
 * <p>Invariants:
 * <ul>
 * <li>One device is mounted per process, shared by every {@code UlfsFileSystem} instance and
 * stream; it is reference counted and unmounted when the last user closes, so a native handle
 * is never used after it was freed. A JVM that exits with references left unmounts it in an exit
 * hook without freeing it (later calls fail with an IOException).</li>
 * <li>Data crosses JNI only in direct {@link java.nio.ByteBuffer}s.</li>
 * <li>{@code hsync} and {@code hflush} return only after data and metadata are on stable storage
 * of the device: HBase acknowledges SYNC_WAL writes after hflush, and the page cache dies with
 * this process. Closing an output stream makes the file durable.</li>
 * <li>Namespace operations (create, mkdir, rename, delete of one entry) are atomic and durable
 * when they return; a recursive delete is a sequence of such operations.</li>
 * <li>Cache hints (kinds, levels, stream roles) never change what a read returns.</li>
 * </ul>
 */
package org.apache.hadoop.hbase.rlsm.ulfs;
