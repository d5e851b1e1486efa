/**
 * ulfs against the kernel file system on the same disk (docs/benchmarks.md): random 4 KB and
 * 64 KB preads and sequential appends each followed by hsync, through ulfs with its io_uring and
 * POSIX backends, Hadoop's LocalFileSystem (checksummed and raw) and a plain
 * {@link java.nio.channels.FileChannel}. Run by {@code bench/scripts/ulfs-io.sh}; results and
 * their meaning in docs/benchmarks.md.
 *
 * <p>Roles:
 * <ul>
 * <li>{@link org.apache.hadoop.hbase.rlsm.bench.ulfs.UlfsIoBenchmark}: the JMH benchmark and its
 * per-fork state;</li>
 * <li>{@link org.apache.hadoop.hbase.rlsm.bench.ulfs.IoTarget}: one way of reaching a file
 * (named by the benchmark's {@code target} parameter), implemented by
 * {@link org.apache.hadoop.hbase.rlsm.bench.ulfs.HadoopFsTarget} and
 * {@link org.apache.hadoop.hbase.rlsm.bench.ulfs.FileChannelTarget};</li>
 * <li>{@link org.apache.hadoop.hbase.rlsm.bench.ulfs.ReadFile}: the pre-written file the preads
 * read;</li>
 * <li>{@link org.apache.hadoop.hbase.rlsm.bench.ulfs.Dataset}: which caches hold that file;</li>
 * <li>{@link org.apache.hadoop.hbase.rlsm.bench.ulfs.UlfsCounterLog}: the ulfs cache and device
 * counters of the measured iterations.</li>
 * </ul>
 *
 * <p>Invariants: a target measures what its name says or the fork fails (a ulfs mount whose
 * backend is not the one requested, a device without O_DIRECT, a stream whose hsync would not
 * reach the disk, a read file whose bytes differ from what was written, a cold case that cannot
 * empty the kernel cache); all targets' files are on the same disk, under one directory.
 */
package org.apache.hadoop.hbase.rlsm.bench.ulfs;
