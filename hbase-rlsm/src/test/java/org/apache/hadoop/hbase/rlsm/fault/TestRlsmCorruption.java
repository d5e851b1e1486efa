package org.apache.hadoop.hbase.rlsm.fault;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.RlsmFiles;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.RlsmMetaBlocks;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.file.V2Files;
import org.apache.hadoop.hbase.rlsm.format.V2FileInfo;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.rlsm.tool.Damage;
import org.apache.hadoop.hbase.rlsm.tool.StoreVerifier;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Damage in every section of a format-v2 Level-0 file, Level-1 segment and manifest of a real
 * region's store (HFile v3: data blocks with their inline index and Bloom blocks, the
 * load-on-open section, the trailer): one flipped byte, and a zeroed 4 KiB page, at the middle of
 * each non-empty section. Each must be an {@link RlsmCorruptionException} naming the file and an
 * offset inside it when the file is checked, the verify tool must report it, and the region must
 * not serve it: damage outside the data blocks fails the region open with that typed message;
 * damage inside them is left to HBase's block checksums on reads (which, on a file system
 * without checksums of its own like this test's, fall back to serving the block; see
 * docs/durability.md), and with {@link RlsmConfig#OPEN_VERIFY_DATA_KEY} it fails the region
 * open with the typed error.
 */
@Category({ SmallTests.class, IOTests.class })
public class TestRlsmCorruption {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmCorruption.class);

  private static final Logger LOG = LoggerFactory.getLogger(TestRlsmCorruption.class);
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  /**
   * A closed region whose store holds one Level-0 file, one Level-1 segment and a manifest;
   * returns the store's RLSM files by role.
   */
  public static Map<FileRole, Path> buildLayout(CrashableRegion cr) throws IOException {
    HRegion r = cr.open();
    for (int f = 0; f < 4; f++) {
      for (int i = f; i < 300; i += 1 + f) {
        r.put(new Put(Bytes.toBytes(String.format("row%05d", i))).addColumn(F, Q,
          Bytes.toBytes("v" + f + "-" + i + "-" + "y".repeat(120))));
      }
      r.flush(true);
      if (f == 2) {
        r.compact(false);
      }
    }
    cr.close();
    Map<FileRole, Path> files = new EnumMap<>(FileRole.class);
    for (FileStatus st : cr.fs().listStatus(cr.storeDir("f"))) {
      FileRole role = RlsmTestCluster.role(cr.fs(), cr.fs().getConf(), st.getPath());
      assertEquals("one file per role", null, files.put(role, st.getPath()));
    }
    assertEquals(3, files.size());
    return files;
  }

  private static TableDescriptor descriptor(boolean verifyData) {
    return RlsmTables.configure(org.apache.hadoop.hbase.client.TableDescriptorBuilder
      .newBuilder(TableName.valueOf("corrupt")))
      .setColumnFamily(RlsmTables.familyBuilder(F)
        .setConfiguration(RlsmConfig.OPEN_VERIFY_DATA_KEY, Boolean.toString(verifyData)).build())
      .build();
  }

  /** The typed error in {@code t}'s cause chain, or null. */
  private static RlsmCorruptionException typed(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof RlsmCorruptionException) {
        return (RlsmCorruptionException) c;
      }
    }
    return null;
  }

  private static void damage(File f, long at, boolean page) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      if (page) {
        long start = at / 4096 * 4096;
        int n = (int) Math.min(4096, raf.length() - start);
        raf.seek(start);
        raf.write(new byte[n]);
      } else {
        raf.seek(at);
        int b = raf.read();
        raf.seek(at);
        raf.write(b ^ 0x80);
      }
    }
  }

  /** Reads every row; returns the first failure (null: all rows read). */
  private static Throwable scanAll(HRegion r) {
    try (RegionScanner s = r.getScanner(new Scan())) {
      List<Cell> cells = new ArrayList<>();
      boolean more;
      do {
        cells.clear();
        more = s.next(cells);
      } while (more);
      return null;
    } catch (IOException | RuntimeException e) {
      return e;
    }
  }

  /** HBase's own error for a damaged block met by a read: names the file and the offset. */
  private static void assertNamesBlock(String ctx, Throwable t, Path file) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      String m = String.valueOf(c.getMessage());
      if (m.contains(file.getName()) && m.contains("offset")) {
        return;
      }
    }
    throw new AssertionError(ctx + ": the read failure names neither file nor offset", t);
  }

  private static void assertNames(String ctx, RlsmCorruptionException e, Path file, long len) {
    assertNotNull(ctx + ": a typed RlsmCorruptionException", e);
    assertTrue(ctx + ": names the file: " + e.getMessage(),
      e.getMessage().contains(file.getName()));
    assertTrue(ctx + ": offset inside the file: " + e.getOffset(),
      e.getOffset() >= 0 && e.getOffset() < len);
  }

  /**
   * A region in {@code dir} holding {@link #buildLayout}'s files (put into {@code files}), closed,
   * its directory saved for {@link CrashableRegion#restoreSnapshot}.
   */
  private static CrashableRegion savedLayout(String dir, Map<FileRole, Path> files)
    throws IOException {
    CrashableRegion cr =
      new CrashableRegion(HBaseConfiguration.create(), new File(dir), descriptor(false));
    files.putAll(buildLayout(cr));
    cr.saveSnapshot();
    return cr;
  }

  @Test
  public void damageInEverySectionIsTypedReportedAndNeverServed() throws Exception {
    Map<FileRole, Path> files = new EnumMap<>(FileRole.class);
    CrashableRegion cr = savedLayout("target/corruption", files);
    int cases = 0;
    for (Map.Entry<FileRole, Path> e : files.entrySet()) {
      Path file = e.getValue();
      File local = new File(file.toUri().getPath());
      long len = local.length();
      long loadOnOpen;
      try (HFile.Reader r =
        HFile.createReader(cr.fs(), file, CacheConfig.DISABLED, true, cr.fs().getConf())) {
        loadOnOpen = r.getTrailer().getLoadOnOpenDataOffset();
      }
      long trailer = len - V2FileInfo.TRAILER_BYTES;
      long[][] sections = { { 0, loadOnOpen }, { loadOnOpen, trailer }, { trailer, len } };
      String[] names = { "data blocks", "load-on-open", "trailer" };
      for (int s = 0; s < sections.length; s++) {
        if (sections[s][1] <= sections[s][0]) {
          continue;
        }
        for (boolean page : new boolean[] { false, true }) {
          String ctx =
            e.getKey() + " " + names[s] + (page ? " zeroed 4 KiB page" : " flipped byte");
          cr.restoreSnapshot();
          // The trailer: HBase's fixed 4 KiB v3 trailer is an 8-byte magic and a small
          // delimited protobuf, the rest zero padding HBase never reads (so damage there changes
          // nothing read); hit the protobuf's length. Other sections: their middle.
          long at = s == 2 ? sections[s][0] + 8 : (sections[s][0] + sections[s][1]) / 2;
          damage(local, at, page);
          checkFile(ctx, cr, file, len);
          checkRegion(ctx, cr, file, len, s == 0);
          cases++;
        }
      }
    }
    LOG.info("CORRUPTION: {} damaged files, each typed, reported and never served", cases);
    assertEquals("3 + 3 + 2 sections (manifests have no data blocks), 2 ways", 16, cases);
  }

  /**
   * Damage in the body of the row quantiles' meta block of a Level-0 file and of a segment: the
   * region still opens and serves every row (nothing read at open or by reads needs the
   * quantiles); reading them (what an index split does) is a typed error naming the file and an
   * offset in the block; the verify tool reports it, and an open with
   * {@link RlsmConfig#OPEN_VERIFY_DATA_KEY} fails with a typed error. The quantiles are not in
   * file-info, which HBase pins on the heap for every open file.
   */
  @Test
  public void damagedRowQuantilesAreTypedWhenRead() throws Exception {
    Map<FileRole, Path> files = new EnumMap<>(FileRole.class);
    CrashableRegion cr = savedLayout("target/corruption-quantiles", files);
    for (FileRole role : new FileRole[] { FileRole.FLUSH, FileRole.SEGMENT }) {
      String ctx = role + " row quantiles";
      Path file = files.get(role);
      File local = new File(file.toUri().getPath());
      long len = local.length();
      long block;
      try (HFile.Reader r =
        HFile.createReader(cr.fs(), file, CacheConfig.DISABLED, true, cr.fs().getConf())) {
        assertNull(ctx + " are not in file-info", r.getHFileInfo().get(V2FileInfo.ROW_QUANTILES));
        RlsmMetaBlocks.Block b = RlsmMetaBlocks.read(r, V2FileInfo.ROW_QUANTILES_BLOCK, false);
        assertNotNull(ctx + " are in a meta block", b);
        block = b.offset();
        assertTrue(ctx + ": a block of some buckets", b.content().length > 100);
      }
      cr.restoreSnapshot();
      damage(local, block + HConstants.HFILEBLOCK_HEADER_SIZE + 40, false);
      checkFile(ctx, cr, file, len);
      cr.setDescriptor(descriptor(false));
      HRegion r = cr.open();
      try {
        assertNull(ctx + ": every row still reads", scanAll(r));
        HStoreFile sf = r.getStore(F).getStorefiles().stream()
          .filter(f -> f.getPath().getName().equals(file.getName())).findFirst().get();
        RlsmCorruptionException ex =
          assertThrows(RlsmCorruptionException.class, () -> RlsmFiles.quantiles(sf));
        assertNames(ctx, ex, file, len);
        assertTrue(ctx + ": offset in the block: " + ex.getOffset(), ex.getOffset() >= block);
      } finally {
        cr.close();
      }
      cr.setDescriptor(descriptor(true));
      try {
        cr.open();
        fail(ctx + ": opened with data verification");
      } catch (IOException ex) {
        assertNames(ctx + ", open with data verification", typed(ex), file, len);
      }
    }
  }

  private static void checkFile(String ctx, CrashableRegion cr, Path file, long len)
    throws IOException {
    try {
      V2Files.verify(cr.fs(), file, cr.fs().getConf());
      fail(ctx + ": the damage went unnoticed");
    } catch (RlsmCorruptionException ex) {
      assertNames(ctx, ex, file, len);
    }
    StoreVerifier v = new StoreVerifier(cr.fs()).verify(cr.storeDir("f"));
    assertTrue(ctx + ": verify reports it", !v.clean());
    boolean named = false;
    for (Damage d : v.findings()) {
      // The damaged file itself, or the manifest listing it as unreadable: nothing else.
      assertEquals(ctx + ": " + d, Damage.Severity.DAMAGE, d.severity());
      assertTrue(ctx + ": only the damaged file is reported: " + d,
        d.file().contains(file.getName()) || d.what().contains(file.getName()));
      named |= d.file().contains(file.getName()) && d.offset() >= 0 && d.offset() < len;
    }
    assertTrue(ctx + ": a finding names the file and an offset in it: " + v.findings(), named);
  }

  private void checkRegion(String ctx, CrashableRegion cr, Path file, long len, boolean data)
    throws IOException {
    for (boolean verifyData : new boolean[] { false, true }) {
      cr.setDescriptor(descriptor(verifyData));
      HRegion r = null;
      Throwable failure;
      try {
        r = cr.open();
        failure = scanAll(r);
        assertTrue(ctx + ": only data-block damage lets the region open", data && !verifyData);
      } catch (IOException ex) {
        failure = ex;
      }
      if (r != null && failure == null) {
        // HBase re-reads a block whose checksum fails with the file system's checksums; this
        // test's local file system has none, so HBase serves the block (on HDFS its checksums
        // fail the read). Reads then are HBase's; open.verify.data (the next round) refuses it.
        LOG.info("{}: HBase's checksum fallback read the damaged block (no FS checksums)", ctx);
      } else if (r == null) {
        assertNames(ctx + " (open)", typed(failure), file, len);
      } else {
        assertNamesBlock(ctx + " (scan)", failure, file);
      }
      cr.abandon();
    }
  }
}
