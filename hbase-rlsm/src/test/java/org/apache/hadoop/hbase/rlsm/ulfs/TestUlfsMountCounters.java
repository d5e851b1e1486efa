package org.apache.hadoop.hbase.rlsm.ulfs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.ChildJvm;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * What a user sees of the read path and the counters through the Hadoop FileSystem API and the
 * tools (docs/ulfs.md "Readahead", "Counters while mounted", "Clean stop"): random positioned
 * reads read exactly their pages while a sequential stream is read ahead; ulfs-stat prints the
 * counters of a device this JVM holds mounted; the JMX bean lives as long as the mount; a JVM
 * that exits with streams open leaves a device fsck finds unmounted cleanly.
 */
@Category({ MediumTests.class, IOTests.class })
public class TestUlfsMountCounters {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestUlfsMountCounters.class);

  private static final Path DIR = new Path("/TestUlfsMountCounters");
  private static final int PAGE = 4096;
  private static final int PAGES = 1024;
  private static FileSystem fs;

  @BeforeClass
  public static void setUp() throws IOException {
    fs = UlfsContract.cleanDirectory(UlfsContract.ulfsConf(new Configuration()), DIR);
  }

  @AfterClass
  public static void tearDown() throws IOException {
    fs.delete(DIR, true);
  }

  private static UlfsMount mount() {
    return ((UlfsFileSystem) fs).getMount();
  }

  private static long deviceReadBytes() {
    return mount().counters()[3];
  }

  /** A 4 MiB file written back to the device and dropped from the cache. */
  private static Path coldFile(String name) throws IOException {
    Path p = new Path(DIR, name);
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(new byte[PAGES * PAGE]);
      out.hsync(); // clean pages: dropCache drops them
    }
    mount().dropCache(p.toUri().getPath());
    return p;
  }

  @Test
  public void testRandomPreadsReadTheirPagesSequentialStreamsReadAhead() throws IOException {
    Path p = coldFile("ra");
    byte[] page = new byte[PAGE];
    try (FSDataInputStream in = fs.open(p)) {
      long before = deviceReadBytes();
      for (int i = 0; i < 64; i++) { // scattered 4 KB Gets, never adjacent
        in.readFully((long) ((i * 97 + 5) % PAGES) * PAGE, page);
      }
      assertEquals("a random pread reads exactly its page", 64L * PAGE,
        deviceReadBytes() - before);
    }
    mount().dropCache(p.toUri().getPath());
    try (FSDataInputStream in = fs.open(p)) {
      long before = deviceReadBytes();
      long ahead = mount().cacheStats().readaheadIssued();
      for (int i = 0; i < 256; i++) { // 1 MiB in 4 KB stream reads
        in.readFully(page);
      }
      assertTrue("a sequential stream is read ahead",
        mount().cacheStats().readaheadIssued() - ahead >= 64);
      long read = deviceReadBytes() - before;
      assertTrue("read " + read, read >= 256L * PAGE && read <= (256L + 64 + 16) * PAGE);
    }
  }

  @Test
  public void testUlfsStatPrintsTheCountersOfAMountedDevice() throws Exception {
    try (FSDataInputStream in = fs.open(coldFile("stat"))) {
      in.readFully(0, new byte[PAGE]);
    }
    String image = UlfsContract.IMAGE;
    assertTrue("published while mounted", new File(image + ".stats").isFile());
    mount().publishCounters();
    long hits = mount().counters()[5];
    String out = ChildJvm.output(new ProcessBuilder(
      new File("target/native/ulfs-stat").getAbsolutePath(), image).redirectErrorStream(true)
      .start());
    assertTrue(out, out.contains("mounted by another process"));
    assertTrue(out, out.contains(" " + hits + " hits,"));
    assertTrue(out, out.contains("hits/misses role user"));
  }

  private static Process child(String... args) throws IOException {
    return ChildJvm.start(Collections.singletonList("-Xmx256m"), UlfsMountChild.class, args);
  }

  private static File image(String name) {
    File f = new File("target/ulfs-counters/" + name + ".img").getAbsoluteFile();
    f.delete();
    f.getParentFile().mkdirs();
    return f;
  }

  private static String fsck(File image) throws Exception {
    return ChildJvm.output(new ProcessBuilder(new File("target/native/ulfs-fsck").getAbsolutePath(),
      "-n", image.getPath()).redirectErrorStream(true).start());
  }

  @Test
  public void testJmxBeanLivesAsLongAsTheMount() throws Exception {
    File image = image("jmx");
    List<String> out = Arrays.asList(ChildJvm.output(child("jmx", image.getPath())).split("\n"));
    assertTrue(out.toString(), out.contains("registered true"));
    assertTrue(out.toString(), out.contains("registered-after-close false"));
    long hits = value(out, "hits ");
    long readahead = value(out, "readahead ");
    long userMisses = value(out, "user-misses ");
    assertTrue(out.toString(), hits > 0 && readahead > 0 && userMisses > 0);
    assertTrue("stats file removed at unmount", !new File(image + ".stats").exists());
  }

  private static long value(List<String> lines, String prefix) {
    for (String l : lines) {
      if (l.startsWith(prefix)) {
        return Long.parseLong(l.substring(prefix.length()).trim());
      }
    }
    throw new AssertionError("no '" + prefix + "' in " + lines);
  }

  @Test
  public void testExitWithOpenStreamsUnmountsCleanly() throws Exception {
    File image = image("exit");
    assertEquals("open", ChildJvm.output(child("exit", image.getPath())));
    String report = fsck(image);
    assertTrue(report, report.contains("0 journal txns pending, unmounted cleanly"));
    assertTrue("stats file removed at exit", !new File(image + ".stats").exists());
  }
}
