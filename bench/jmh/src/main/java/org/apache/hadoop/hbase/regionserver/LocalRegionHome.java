package org.apache.hadoop.hbase.regionserver;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.wal.WALFactory;

/**
 * Where a benchmark's local regions live: a directory of its own on tmpfs when {@code /dev/shm}
 * exists (else the temporary directory), the HBase root of {@link #conf}, with the WAL on the
 * local file system, which has no hflush (the benchmarks' puts skip the WAL).
 */
final class LocalRegionHome {
  final Configuration conf = HBaseConfiguration.create();
  final FileSystem fs;
  final Path dir;

  /** A home named after {@code name} and this process. */
  LocalRegionHome(String name) throws IOException {
    File shm = new File("/dev/shm");
    dir = new Path((shm.isDirectory() ? shm : new File(System.getProperty("java.io.tmpdir")))
      .getAbsolutePath(), "rlsm-jmh-" + name + "-" + ProcessHandle.current().pid());
    conf.set(HConstants.HBASE_DIR, dir.toString());
    conf.setBoolean(CommonFSUtils.UNSAFE_STREAM_CAPABILITY_ENFORCE, false);
    conf.set(WALFactory.WAL_PROVIDER, "filesystem");
    fs = FileSystem.getLocal(conf);
  }

  /** Deletes the directory and everything in it. */
  void delete() throws IOException {
    fs.delete(dir, true);
  }
}
