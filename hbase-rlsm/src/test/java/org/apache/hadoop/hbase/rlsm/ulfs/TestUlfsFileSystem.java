package org.apache.hadoop.hbase.rlsm.ulfs;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * What the contract tests do not cover: stream capabilities and hints, hflush visibility,
 * ByteBuffer reads, errno propagation, counters, createNonRecursive and the one-device rule.
 */
@Category({ SmallTests.class, IOTests.class })
public class TestUlfsFileSystem {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestUlfsFileSystem.class);

  private static Configuration conf;
  private static FileSystem fs;
  private static final Path DIR = new Path("/TestUlfsFileSystem");

  @BeforeClass
  public static void setUp() throws IOException {
    conf = UlfsContract.ulfsConf(new Configuration());
    fs = UlfsContract.cleanDirectory(conf, DIR);
  }

  @AfterClass
  public static void tearDown() throws IOException {
    fs.delete(DIR, true);
  }

  @Test
  public void testServiceLoaderFindsScheme() throws IOException {
    assertEquals(UlfsFileSystem.class, FileSystem.getFileSystemClass("ulfs", conf));
  }

  @Test
  public void testHflushVisibleHsyncAndCapabilities() throws IOException {
    Path p = new Path(DIR, "wal");
    byte[] first = UlfsContract.data(10_000, 1);
    try (FSDataOutputStream out = fs.create(p)) {
      assertTrue(out.hasCapability(StreamCapabilities.HFLUSH));
      assertTrue(out.hasCapability(StreamCapabilities.HSYNC));
      assertFalse(out.hasCapability(StreamCapabilities.UNBUFFER));
      out.write(first);
      out.hflush(); // visible to a reader of the same mount before close
      try (FSDataInputStream in = fs.open(p)) {
        byte[] got = new byte[first.length];
        in.readFully(0, got);
        assertArrayEquals(first, got);
      }
      long commits = ((UlfsFileSystem) fs).getMount().counters()[12];
      out.write(UlfsContract.data(5000, 2));
      out.hsync();
      assertTrue("hsync commits the inode",
        ((UlfsFileSystem) fs).getMount().counters()[12] > commits);
      assertEquals(15_000, fs.getFileStatus(p).getLen());
    }
  }

  @Test
  public void testByteBufferReadsAndHints() throws IOException {
    Path p = new Path(DIR, "bb");
    byte[] d = UlfsContract.data(300_000, 3);
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(d);
    }
    try (FSDataInputStream in = fs.open(p, 4096)) {
      assertTrue(in.hasCapability(StreamCapabilities.READBYTEBUFFER));
      assertTrue(in.hasCapability(StreamCapabilities.DROPBEHIND));
      assertTrue(in.hasCapability(StreamCapabilities.READAHEAD));
      in.setDropBehind(true);
      in.setReadahead(1L << 20);
      ByteBuffer direct = ByteBuffer.allocateDirect(100_000);
      ByteBuffer heap = ByteBuffer.allocate(100_000);
      int off = 0;
      while (off < d.length) {
        ByteBuffer b = (off / 100_000) % 2 == 0 ? direct : heap;
        b.clear();
        int n = in.read(b);
        assertTrue(n > 0);
        b.flip();
        for (int i = 0; i < n; i++) {
          assertEquals("byte " + (off + i), d[off + i], b.get(i));
        }
        off += n;
      }
      assertEquals(-1, in.read(direct));
      in.seek(123_457);
      assertEquals(d[123_457] & 0xff, in.read());
      assertEquals(123_458, in.getPos());
    }
  }

  @Test
  public void testErrnoAndHadoopExceptions() throws IOException {
    Path f = new Path(DIR, "plain");
    fs.create(f).close();
    UlfsMount m = ((UlfsFileSystem) fs).getMount();
    try {
      m.stat(DIR + "/plain/below");
      fail("stat below a file");
    } catch (UlfsException e) {
      assertEquals(UlfsErrno.ENOTDIR, e.errno());
      assertTrue(e.getMessage(), e.getMessage().contains("/plain/below"));
    }
    try {
      fs.createNonRecursive(new Path(DIR, "missing/child"), FsPermission.getFileDefault(),
        EnumSet.of(CreateFlag.CREATE), 4096, (short) 1, 1 << 20, null).close();
      fail("createNonRecursive without parent");
    } catch (FileNotFoundException expected) {
      // the parent must exist
    }
    try (FSDataOutputStream out = fs.createNonRecursive(new Path(DIR, "nr"),
      FsPermission.getFileDefault(), EnumSet.of(CreateFlag.CREATE), 4096, (short) 1, 1 << 20,
      null)) {
      out.write(1);
    }
    assertEquals(1, fs.getFileStatus(new Path(DIR, "nr")).getLen());
  }

  @Test
  public void testStatusAndCounters() throws IOException {
    FsStatus st = fs.getStatus();
    assertTrue(st.getCapacity() > 0);
    assertTrue(st.getRemaining() > 0 && st.getRemaining() <= st.getCapacity());
    long[] before = ((UlfsFileSystem) fs).getMount().counters();
    fs.mkdirs(new Path(DIR, "c1/c2"));
    long[] after = ((UlfsFileSystem) fs).getMount().counters();
    assertTrue("two mkdirs, two commits", after[12] >= before[12] + 2);
    assertTrue("commits flush the device", after[2] > before[2]);
  }

  @Test
  public void testOneDevicePerProcess() throws IOException {
    Configuration other = new Configuration(conf);
    other.set(UlfsConfig.DEVICE_KEY, UlfsContract.IMAGE + ".other");
    try {
      UlfsMount.acquire(other).release();
      fail("a second device was mounted");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("one ulfs device per process"));
    }
  }
}
