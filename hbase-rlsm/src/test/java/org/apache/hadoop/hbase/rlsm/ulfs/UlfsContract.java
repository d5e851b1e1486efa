package org.apache.hadoop.hbase.rlsm.ulfs;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/**
 * The contract of ulfs:// for Hadoop's file-system contract tests: the semantics are stated in
 * contract/ulfs.xml; the file system is a real image file under target/ (posix backend, so the
 * tests do not depend on io_uring being allowed), shared by all contract tests of the JVM.
 */
public class UlfsContract extends AbstractFSContract {
  public static final String CONTRACT_XML = "contract/ulfs.xml";
  /** The test image; created and formatted on first use. */
  public static final String IMAGE =
    new File(System.getProperty("test.build.dir", "target"), "ulfs-contract/contract.img")
      .getAbsolutePath();

  private FileSystem fs;

  public UlfsContract(Configuration conf) {
    super(conf);
    addConfResource(CONTRACT_XML);
  }

  /** Configuration that mounts the contract test image. */
  /** n bytes of a pattern that differs with the seed and along the array. */
  public static byte[] data(int n, int seed) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 131 + seed);
    }
    return b;
  }

  public static Configuration ulfsConf(Configuration base) {
    Configuration c = new Configuration(base);
    c.set(UlfsConfig.DEVICE_KEY, IMAGE);
    c.setLong(UlfsConfig.DEVICE_BYTES_KEY, 1L << 30);
    c.set(UlfsConfig.BACKEND_KEY, "posix");
    c.setLong(UlfsConfig.CACHE_BYTES_KEY, 32L << 20);
    return c;
  }

  /**
   * The test image mounted with {@code conf} (from {@link #ulfsConf}), holding {@code dir} empty:
   * a test class's own directory, deleted first in case an earlier run left it behind.
   */
  public static FileSystem cleanDirectory(Configuration conf, Path dir) throws IOException {
    FileSystem fs = FileSystem.get(java.net.URI.create("ulfs:///"), conf);
    fs.delete(dir, true);
    if (!fs.mkdirs(dir)) {
      throw new IOException("cannot create " + dir + " on " + IMAGE);
    }
    return fs;
  }

  @Override
  public void init() throws IOException {
    super.init();
    Configuration c = ulfsConf(getConf());
    fs = FileSystem.get(java.net.URI.create("ulfs:///"), c);
  }

  @Override
  public FileSystem getTestFileSystem() throws IOException {
    return fs;
  }

  @Override
  public String getScheme() {
    return UlfsFileSystem.SCHEME;
  }

  @Override
  public Path getTestPath() {
    return new Path("ulfs:///test");
  }
}
