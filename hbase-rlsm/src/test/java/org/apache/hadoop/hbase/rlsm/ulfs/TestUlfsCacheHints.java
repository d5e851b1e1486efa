package org.apache.hadoop.hbase.rlsm.ulfs;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.fs.HFileSystem;
import org.apache.hadoop.hbase.rlsm.cachehint.CacheHints;
import org.apache.hadoop.hbase.rlsm.cachehint.FileKind;
import org.apache.hadoop.hbase.rlsm.cachehint.StreamRole;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Cache hints and counters through a real UlfsFileSystem (the JVM's shared test device, whatever
 * policy mounted it): the adapter's path classification (WAL, .tmp, commit by rename), the
 * engine's hints through CacheHints (reached under HBase's HFileSystem wrapper, ignored on other
 * file systems), compaction-input reads by thread role and by HBase's setDropBehind (prefetched
 * in 1 MB units), archived store files dropped from the cache, and the counters per kind and
 * level read from Java.
 */
@Category({ SmallTests.class, IOTests.class })
public class TestUlfsCacheHints {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestUlfsCacheHints.class);

  private static final int PAGE = 4096;
  private static final Path DIR = new Path("/TestUlfsCacheHints");
  private static Configuration conf;
  private static UlfsFileSystem fs;

  @BeforeClass
  public static void setUp() throws IOException {
    conf = UlfsContract.ulfsConf(new Configuration());
    fs = (UlfsFileSystem) UlfsContract.cleanDirectory(conf, DIR);
  }

  @AfterClass
  public static void tearDown() throws IOException {
    fs.delete(DIR, true);
  }

  private static void write(Path p, byte[] b) throws IOException {
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(b);
    }
  }

  private static void readBack(Path p, byte[] want) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      byte[] got = new byte[want.length];
      in.readFully(0, got);
      assertArrayEquals(want, got);
    }
  }

  private static UlfsCacheStats stats() {
    return fs.getMount().cacheStats();
  }

  /** Drops the file's clean pages (a drop-behind stream advises DONTNEED when closed). */
  private static void evict(Path p) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      in.setDropBehind(true);
    }
  }

  @Test
  public void testPolicyNamedAndValidated() throws IOException {
    UlfsCacheStats s = stats();
    assertTrue(s.policy(), Arrays.asList(UlfsConfig.CACHE_POLICIES).contains(s.policy()));
    assertTrue(s.lists().length >= 1);
    Configuration bad = new Configuration(conf);
    bad.set(UlfsConfig.CACHE_POLICY_KEY, "clock");
    try {
      UlfsMount.acquire(bad);
      fail("an unknown policy must be refused");
    } catch (IllegalArgumentException | IOException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(UlfsConfig.CACHE_POLICY_KEY));
    }
    // conf/hbase-site.xml's trace variable left undefined: refused, never a file of that name.
    Configuration unresolved = new Configuration(conf);
    unresolved.set(UlfsConfig.CACHE_TRACE_KEY, "${rlsm.test.undefined.trace}");
    try {
      UlfsMount.acquire(unresolved);
      fail("an unresolved trace variable must be refused");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(UlfsConfig.CACHE_TRACE_KEY));
    }
  }

  @Test
  public void testWalPathsCountAsWal() throws IOException {
    Path wal = new Path(DIR, "WALs/rs1,16020,1/rs1.1");
    Path edits = new Path(DIR, "data/default/t/r/recovered.edits/0000000000000000042");
    byte[] b = UlfsContract.data(16 * PAGE, 1);
    write(wal, b);
    write(edits, b);
    UlfsCacheStats before = stats();
    readBack(wal, b);
    readBack(edits, b);
    UlfsCacheStats after = stats();
    long walAccesses = after.hits(FileKind.WAL) + after.misses(FileKind.WAL)
      - before.hits(FileKind.WAL) - before.misses(FileKind.WAL);
    assertEquals("32 WAL pages read", 32, walAccesses);
    assertEquals(32, after.hitsAtLevel(FileKind.NO_LEVEL) + after.missesAtLevel(FileKind.NO_LEVEL)
      - before.hitsAtLevel(FileKind.NO_LEVEL) - before.missesAtLevel(FileKind.NO_LEVEL));
  }

  @Test
  public void testTmpOutputCommittedByRename() throws IOException {
    Path tmp = new Path(DIR, "data/default/t/r/.tmp/cf/abc");
    Path fin = new Path(DIR, "data/default/t/r/cf/abc");
    byte[] b = UlfsContract.data(8 * PAGE, 2);
    write(tmp, b);
    UlfsCacheStats s0 = stats();
    readBack(tmp, b);
    UlfsCacheStats s1 = stats();
    assertEquals(8, s1.hits(FileKind.TMP) + s1.misses(FileKind.TMP) - s0.hits(FileKind.TMP)
      - s0.misses(FileKind.TMP));
    assertTrue(fs.mkdirs(fin.getParent()));
    assertTrue(fs.rename(tmp, fin));
    readBack(fin, b);
    UlfsCacheStats s2 = stats();
    assertEquals("no longer TMP once committed", s1.hits(FileKind.TMP), s2.hits(FileKind.TMP));
    assertEquals(8, s2.hits(FileKind.OTHER) - s1.hits(FileKind.OTHER));
  }

  @Test
  public void testArchivedStoreFileLeavesTheCache() throws IOException {
    Path live = new Path(DIR, "data/default/t/r/cf/compacted");
    Path moved = new Path(DIR, "data/default/t/r/cf/kept");
    Path archived = new Path(DIR, "archive/data/default/t/r/cf/compacted");
    byte[] b = UlfsContract.data(8 * PAGE, 5);
    write(live, b);
    write(moved, b);
    readBack(live, b);
    readBack(moved, b);
    assertTrue(fs.mkdirs(archived.getParent()));
    assertTrue(fs.rename(live, archived)); // HFileArchiver's move of a compacted file
    assertTrue(fs.rename(moved, new Path(DIR, "data/default/t/r/cf/kept2")));
    UlfsCacheStats s0 = stats();
    readBack(new Path(DIR, "data/default/t/r/cf/kept2"), b);
    UlfsCacheStats s1 = stats();
    assertEquals("a plain rename keeps the pages", s0.totalMisses(), s1.totalMisses());
    readBack(archived, b);
    assertTrue("an archived file's pages were dropped", stats().totalMisses() > s1.totalMisses());
  }

  @Test
  public void testEngineHintsThroughHFileSystem() throws IOException {
    Path seg = new Path(DIR, "data/default/t/r/cf/segment");
    byte[] b = UlfsContract.data(8 * PAGE, 3);
    write(seg, b);
    FileSystem wrapped = new HFileSystem(fs); // what HBase hands a store engine
    CacheHints.hintFile(wrapped, seg, FileKind.L1_SEGMENT, 1);
    UlfsCacheStats s0 = stats();
    readBack(seg, b);
    UlfsCacheStats s1 = stats();
    assertEquals(8, s1.hits(FileKind.L1_SEGMENT) - s0.hits(FileKind.L1_SEGMENT));
    assertEquals(8, s1.hitsAtLevel(1) - s0.hitsAtLevel(1));
    // a renamed hinted file keeps its hint: commit only ends TMP
    Path moved = new Path(DIR, "data/default/t/r/cf/segment2");
    assertTrue(fs.rename(seg, moved));
    readBack(moved, b);
    assertEquals(8, stats().hits(FileKind.L1_SEGMENT) - s1.hits(FileKind.L1_SEGMENT));
    // on any other file system the hints are no-ops
    FileSystem local = FileSystem.getLocal(conf);
    CacheHints.hintFile(new HFileSystem(local), new Path("/nonexistent"), FileKind.L0, 0);
  }

  @Test
  public void testCompactionInputsArePrefetched() throws IOException, InterruptedException {
    byte[] b = UlfsContract.data(4 << 20, 4);
    Path byRole = new Path(DIR, "data/default/t/r/cf/input1");
    Path byDropBehind = new Path(DIR, "data/default/t/r/cf/input2");
    write(byRole, b);
    write(byDropBehind, b);
    CacheHints.hintFile(fs, byRole, FileKind.L0, 0);
    evict(byRole);
    evict(byDropBehind);
    // the RLSM compactor reads through a shared reader with its thread's role
    UlfsCacheStats s0 = stats();
    try (FSDataInputStream in = fs.open(byRole);
      CacheHints.Scope scope = CacheHints.enter(StreamRole.COMPACTION_INPUT)) {
      readSlowly(in, b);
    }
    assertEquals("the thread role ends with its scope", null, CacheHints.threadRole());
    UlfsCacheStats s1 = stats();
    assertTrue("prefetched: " + s1, s1.prefetchIssued() > s0.prefetchIssued());
    assertTrue("prefetch used: " + s1, s1.prefetchUsed() > s0.prefetchUsed());
    assertEquals(1024, s1.hitsAtLevel(0) + s1.missesAtLevel(0) - s0.hitsAtLevel(0)
      - s0.missesAtLevel(0));
    // HBase's own compaction streams ask for drop-behind (FSDataInputStreamWrapper)
    try (FSDataInputStream in = fs.open(byDropBehind)) {
      in.setDropBehind(true);
      readSlowly(in, b);
    }
    UlfsCacheStats s2 = stats();
    assertTrue("prefetched: " + s2, s2.prefetchIssued() > s1.prefetchIssued());
    assertTrue(s2.prefetchUsed() <= s2.prefetchIssued());
  }

  /**
   * Reads in 256 KB steps and lets the prefetcher read what it has queued after each step (it
   * competes with these reads for the mount's lock), so later steps find prefetched pages.
   */
  private static void readSlowly(FSDataInputStream in, byte[] want) throws IOException {
    byte[] got = new byte[want.length];
    for (int off = 0; off < want.length; off += 256 << 10) {
      in.readFully(off, got, off, Math.min(256 << 10, want.length - off));
      fs.getMount().awaitPrefetch();
    }
    assertArrayEquals(want, got);
  }
}
