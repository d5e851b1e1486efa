package org.apache.hadoop.hbase.rlsm.fault;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.rlsm.format.Section;
import org.apache.hadoop.hbase.rlsm.format.Trailer;
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
 * Damage in every section of a Level-0 file, a Level-1 segment and the manifest of a real
 * region's store: one flipped byte, and a zeroed 4 KiB page, at the middle of each non-empty
 * section and of the trailer. Each must be an {@link RlsmCorruptionException} naming the file and
 * an offset inside it, the verify tool must report it, and the region must never serve wrong
 * data: damage outside the data section fails the region open with that message; damage inside
 * it fails the read that reaches the record, and with {@link RlsmConfig#OPEN_VERIFY_DATA_KEY}
 * it fails the region open too.
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
      try (RlsmFileReader rd = RlsmFileReader.open(cr.fs(), st.getPath())) {
        assertEquals("one file per role", null, files.put(rd.trailer().role(), st.getPath()));
      }
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

  private static void assertNames(String ctx, RlsmCorruptionException e, Path file, long len) {
    assertNotNull(ctx + ": a typed RlsmCorruptionException", e);
    assertTrue(ctx + ": names the file: " + e.getMessage(),
      e.getMessage().contains(file.getName()));
    assertTrue(ctx + ": offset inside the file: " + e.getOffset(),
      e.getOffset() >= 0 && e.getOffset() < len);
  }

  @Test
  public void damageInEverySectionIsTypedReportedAndNeverServed() throws Exception {
    Configuration conf = HBaseConfiguration.create();
    CrashableRegion cr =
      new CrashableRegion(conf, new File("target/corruption"), descriptor(false));
    Map<FileRole, Path> files = buildLayout(cr);
    cr.saveSnapshot();
    int cases = 0;
    for (Map.Entry<FileRole, Path> e : files.entrySet()) {
      Path file = e.getValue();
      File local = new File(file.toUri().getPath());
      long len = local.length();
      Section[] sections;
      try (RlsmFileReader rd = RlsmFileReader.open(cr.fs(), file)) {
        Trailer t = rd.trailer();
        sections = new Section[] { t.data(), t.index(), t.bloom(), t.meta(),
          new Section(len - Trailer.ENCODED_LENGTH, Trailer.ENCODED_LENGTH, 0) };
      }
      String[] names = { "data", "index", "bloom", "meta", "trailer" };
      for (int s = 0; s < sections.length; s++) {
        if (sections[s].length() == 0) {
          continue;
        }
        for (boolean page : new boolean[] { false, true }) {
          String ctx =
            e.getKey() + " " + names[s] + (page ? " zeroed 4 KiB page" : " flipped byte");
          cr.restoreSnapshot();
          long at = sections[s].offset() + sections[s].length() / 2;
          damage(local, at, page);
          checkFile(ctx, cr, file, len);
          checkRegion(ctx, cr, file, len, s == 0);
          cases++;
        }
      }
    }
    LOG.info("CORRUPTION: {} damaged files, each typed, reported and never served", cases);
    assertEquals("5 + 4 + 3 sections (segments have no Bloom, manifests no data), 2 ways", 24,
      cases);
  }

  private static void checkFile(String ctx, CrashableRegion cr, Path file, long len)
    throws IOException {
    try (RlsmFileReader rd = RlsmFileReader.open(cr.fs(), file)) {
      rd.verifyData();
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
        assertTrue(ctx + ": only data-section damage lets the region open",
          data && !verifyData);
      } catch (IOException ex) {
        failure = ex;
      }
      assertNotNull(ctx + ": the region neither failed to open nor failed the read", failure);
      assertNames(ctx + (r == null ? " (open)" : " (scan)"), typed(failure), file, len);
      cr.abandon();
    }
  }
}
