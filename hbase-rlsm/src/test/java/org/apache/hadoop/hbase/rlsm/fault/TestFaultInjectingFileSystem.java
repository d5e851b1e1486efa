package org.apache.hadoop.hbase.rlsm.fault;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.Before;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** The fault file system: durability record, crash materialisation, k-th operation failures. */
@Category({ SmallTests.class, IOTests.class })
public class TestFaultInjectingFileSystem {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestFaultInjectingFileSystem.class);

  private FaultInjectingFileSystem fs;
  private Path dir;

  @Before
  public void setUp() throws IOException {
    fs = FaultInjectingFileSystem.get(new Configuration());
    fs.crash(new Random(0), false);
    File d = Files.createTempDirectory(new File("target").toPath(), "faultfs").toFile();
    dir = FaultInjectingFileSystem.path(d);
  }

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private byte[] readAll(Path p) throws IOException {
    byte[] b = new byte[(int) fs.getFileStatus(p).getLen()];
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, b);
    }
    return b;
  }

  @Test
  public void schemeResolvesThroughConfiguration() throws IOException {
    Configuration conf = new Configuration();
    FaultInjectingFileSystem.register(conf);
    assertTrue(dir.getFileSystem(conf) == fs);
    assertEquals("faultfs", fs.makeQualified(dir).toUri().getScheme());
    assertEquals("faultfs", fs.listStatus(dir.getParent())[0].getPath().toUri().getScheme());
  }

  @Test
  public void crashKeepsSyncedBytesOnly() throws IOException {
    Path p = new Path(dir, "a");
    byte[] data = bytes(200_000, 1);
    FSDataOutputStream out = fs.create(p);
    out.write(data, 0, 100_000);
    out.hflush();
    out.write(data, 100_000, 100_000); // one full chunk reaches the file, the rest is held
    assertEquals(100_000 + FaultInjectingFileSystem.WRITE_CHUNK, new File(p.toUri().getPath())
      .length());
    assertEquals(FaultInjectingFileSystem.WRITE_CHUNK, fs.unsyncedBytes());
    long dropped = fs.crash(new Random(1), false);
    assertEquals(FaultInjectingFileSystem.WRITE_CHUNK, dropped);
    assertArrayEquals(Arrays.copyOf(data, 100_000), readAll(p));
    try {
      out.write(1);
      fail("a stream open at the crash must be dead");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("crashed"));
    }
    try {
      out.close();
      fail("close after the crash must fail too");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("crashed"));
    }
  }

  @Test
  public void randomTailKeepsAPrefixBetweenSyncedAndWritten() throws IOException {
    byte[] data = bytes(300_000, 2);
    boolean partial = false;
    for (int seed = 0; seed < 8; seed++) {
      Path p = new Path(dir, "t" + seed);
      FSDataOutputStream out = fs.create(p);
      out.write(data, 0, 1000);
      out.hsync();
      out.write(data, 1000, data.length - 1000);
      long written = new File(p.toUri().getPath()).length();
      fs.crash(new Random(seed), true);
      byte[] got = readAll(p);
      assertTrue(got.length >= 1000 && got.length <= written);
      assertArrayEquals(Arrays.copyOf(data, got.length), got);
      partial |= got.length > 1000 && got.length < written;
    }
    assertTrue("some crash kept a partial tail", partial);
  }

  @Test
  public void closedAndRenamedFilesAreDurable() throws IOException {
    Path p = new Path(dir, "c");
    byte[] data = bytes(70_000, 3);
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(data);
    }
    Path q = new Path(dir, "open");
    FSDataOutputStream open = fs.create(q);
    open.write(data, 0, 500);
    open.hflush();
    open.write(data, 500, 69_500);
    Path moved = new Path(dir, "moved");
    assertTrue(fs.rename(q, moved));
    fs.crash(new Random(4), false);
    assertArrayEquals(data, readAll(p));
    assertArrayEquals("the durability record follows a rename", Arrays.copyOf(data, 500),
      readAll(moved));
  }

  @Test
  public void failsTheKthOperationOfEachKind() throws IOException {
    for (FaultOp kind : FaultOp.values()) {
      // Files to work on, made before arming.
      Path[] files = new Path[3];
      for (int i = 0; i < 3; i++) {
        files[i] = new Path(dir, "k-" + kind + "-" + i);
        try (FSDataOutputStream out = fs.create(files[i])) {
          out.write(bytes(10, i));
        }
      }
      FSDataOutputStream[] outs = new FSDataOutputStream[3];
      FSDataInputStream[] ins = new FSDataInputStream[3];
      for (int i = 0; i < 3; i++) {
        outs[i] = fs.create(new Path(dir, "o-" + kind + "-" + i));
        ins[i] = fs.open(files[i]);
      }
      fs.failAt(EnumSet.of(kind), 2, false);
      int failures = 0;
      for (int i = 0; i < 3; i++) {
        try {
          doOne(kind, i, files[i], outs[i], ins[i]);
        } catch (IOException e) {
          failures++;
          assertEquals("the second " + kind + " fails", 1, i);
          assertTrue(e.getMessage(), e.getMessage().contains("injected failure of " + kind));
        }
      }
      assertEquals(kind.toString(), 1, failures);
      assertNotNull(fs.fired());
      fs.clearFaults();
      for (int i = 0; i < 3; i++) {
        ins[i].close();
      }
    }
  }

  private void doOne(FaultOp kind, int i, Path file, FSDataOutputStream out, FSDataInputStream in)
    throws IOException {
    switch (kind) {
      case CREATE:
        fs.create(new Path(dir, "new-" + i)).close();
        break;
      case WRITE:
        out.write(bytes(10, i));
        out.hflush();
        break;
      case SYNC:
        out.hflush();
        break;
      case CLOSE:
        out.close();
        break;
      case RENAME:
        fs.rename(file, new Path(dir, file.getName() + ".renamed"));
        break;
      case DELETE:
        fs.delete(file, false);
        break;
      case MKDIRS:
        fs.mkdirs(new Path(dir, "d-" + i));
        break;
      case OPEN:
        fs.open(file).close();
        break;
      case READ:
        in.readFully(0, new byte[10]);
        break;
      default:
        throw new AssertionError(kind);
    }
  }

  @Test
  public void stickyFailureAtTheKthMutationThenCrashKeepsTheDurablePrefix() throws IOException {
    Path p = new Path(dir, "s");
    fs.failAt(FaultOp.MUTATIONS, 6, true);
    FSDataOutputStream out = fs.create(p); // 1: mkdirs of the parent (create does it), 2: create
    out.write(bytes(10, 1));
    out.hflush(); // 3: write, 4: sync
    out.write(bytes(10, 2));
    try {
      out.hflush(); // 5: write, 6: sync -> fails after the bytes reached the file
      fail("the sixth mutation must fail");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("SYNC #6"));
    }
    fs.crash(new Random(0), false);
    assertArrayEquals(bytes(10, 1), readAll(p));
  }

  @Test
  public void stickyFailureFailsLaterOperationsOfAnyKind() throws IOException {
    fs.failAt(EnumSet.of(FaultOp.CREATE), 1, true);
    try {
      fs.create(new Path(dir, "x"));
      fail();
    } catch (IOException e) {
      assertTrue(e.getMessage().contains("injected"));
    }
    try {
      fs.mkdirs(new Path(dir, "y"));
      fail("after a sticky failure the process is stopped");
    } catch (IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("after the injected failure"));
    }
    fs.crash(new Random(0), false);
    assertTrue("the crash lifts the failure", fs.mkdirs(new Path(dir, "y")));
    assertFalse(fs.exists(new Path(dir, "x")));
  }

  @Test
  public void countsOperationsByKind() throws IOException {
    fs.resetCounts();
    Path p = new Path(dir, "n");
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(bytes(FaultInjectingFileSystem.WRITE_CHUNK * 2 + 1, 5));
      out.hflush();
    }
    fs.rename(p, new Path(dir, "m"));
    try (FSDataInputStream in = fs.open(new Path(dir, "m"))) {
      in.readFully(0, new byte[100]);
    }
    fs.delete(new Path(dir, "m"), false);
    assertEquals(1, fs.count(EnumSet.of(FaultOp.CREATE)));
    assertEquals(3, fs.count(EnumSet.of(FaultOp.WRITE)));
    assertEquals(1, fs.count(EnumSet.of(FaultOp.SYNC)));
    assertEquals(1, fs.count(EnumSet.of(FaultOp.CLOSE)));
    assertEquals(1, fs.count(EnumSet.of(FaultOp.RENAME)));
    assertEquals(1, fs.count(EnumSet.of(FaultOp.DELETE)));
    assertEquals(1, fs.count(EnumSet.of(FaultOp.OPEN)));
    assertTrue(fs.count(EnumSet.of(FaultOp.READ)) >= 1);
  }
}
