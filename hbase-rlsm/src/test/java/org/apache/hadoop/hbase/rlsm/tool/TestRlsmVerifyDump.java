package org.apache.hadoop.hbase.rlsm.tool;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.fault.CrashableRegion;
import org.apache.hadoop.hbase.rlsm.fault.FaultInjectingFileSystem;
import org.apache.hadoop.hbase.rlsm.fault.TestRlsmCorruption;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.testclassification.MiscTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * {@code rlsm-verify} and {@code rlsm-dump} on a real region's store (one Level-0 file, one
 * segment, a manifest): exit codes, report lines naming file and offset, orphans as notices,
 * dumps of every role, and paths given as file:// and faultfs:// URIs.
 */
@Category({ SmallTests.class, MiscTests.class })
public class TestRlsmVerifyDump {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmVerifyDump.class);

  private static Configuration conf;
  private static CrashableRegion cr;
  private static Map<FileRole, Path> files;

  @BeforeClass
  public static void setUp() throws IOException {
    conf = HBaseConfiguration.create();
    FaultInjectingFileSystem.register(conf);
    cr = new CrashableRegion(conf, new File("target/verify-dump"),
      RlsmTables.configure(TableDescriptorBuilder.newBuilder(TableName.valueOf("tools")))
        .setColumnFamily(RlsmTables.family(Bytes.toBytes("f"))).build());
    files = TestRlsmCorruption.buildLayout(cr);
    cr.saveSnapshot();
  }

  /** Exit code, stdout, stderr. */
  private static String[] run(boolean verify, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
      PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      int code = verify ? RlsmVerify.run(args, conf, o, e) : RlsmDump.run(args, conf, o, e);
      return new String[] { Integer.toString(code), out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8) };
    }
  }

  private static String fileUri(Path p) {
    return "file://" + p.toUri().getPath();
  }

  @Test
  public void cleanStoreRegionTableAndFile() throws IOException {
    cr.restoreSnapshot();
    Path store = cr.storeDir("f");
    for (String p : new String[] { store.toString(), cr.regionDir().toString(),
      cr.regionDir().getParent().toString(), fileUri(store),
      files.get(FileRole.FLUSH).toString() }) {
      String[] r = run(true, p);
      assertEquals(p + ": " + r[1] + r[2], "0", r[0]);
      assertTrue(r[1], r[1].startsWith("CLEAN "));
    }
    String[] r = run(true, cr.regionDir().toString());
    assertTrue(r[1], r[1].contains(": 3 files in 1 stores, 0 findings"));
  }

  @Test
  public void damageIsReportedWithFileAndOffset() throws IOException {
    cr.restoreSnapshot();
    Path seg = files.get(FileRole.SEGMENT);
    long at = 100; // inside the first data block
    try (RandomAccessFile raf = new RandomAccessFile(seg.toUri().getPath(), "rw")) {
      raf.seek(at);
      raf.write(0x5a ^ raf.readByte());
    }
    String[] r = run(true, cr.storeDir("f").toString());
    assertEquals(r[1], "1", r[0]);
    Matcher m = Pattern.compile("DAMAGE " + Pattern.quote(seg.toString()) + " (\\d+) .*")
      .matcher(r[1]);
    assertTrue(r[1], m.find());
    long reported = Long.parseLong(m.group(1));
    assertTrue(r[1], reported >= 0 && reported < cr.fs().getFileStatus(seg).getLen());
    assertTrue(r[1], r[1].contains("block checksum mismatch"));
    assertTrue(r[1], r[1].contains("DAMAGED "));
    // the dump reads through HBase, which re-reads a block failing its checksum unchecked on a
    // file system without checksums; a damaged trailer it refuses, typed
    try (RandomAccessFile raf = new RandomAccessFile(seg.toUri().getPath(), "rw")) {
      raf.seek(raf.length() - 4096 + 2);
      raf.write(0x5a ^ raf.readByte());
    }
    String[] d = run(false, seg.toString());
    assertEquals(d[1] + d[2], "1", d[0]);
    assertTrue(d[2], d[2].contains("Corrupt RLSM file " + seg + " at offset"));
  }

  @Test
  public void orphansAreNoticesAndStrictFailsThem() throws IOException {
    cr.restoreSnapshot();
    Path seg = files.get(FileRole.SEGMENT);
    Path orphan = new Path(seg.getParent(), "0123456789abcdef0123456789abcdef");
    Files.copy(new File(seg.toUri().getPath()).toPath(),
      new File(orphan.toUri().getPath()).toPath());
    String[] r = run(true, cr.storeDir("f").toString());
    assertEquals(r[1], "0", r[0]);
    assertTrue(r[1], r[1].contains("NOTICE " + orphan + " - orphan SEGMENT"));
    assertEquals("1", run(true, "--strict", cr.storeDir("f").toString())[0]);
  }

  @Test
  public void aFileThatIsNeitherRlsmNorHFileIsDamage() throws IOException {
    cr.restoreSnapshot();
    Path junk = new Path(cr.storeDir("f"), "fedcba9876543210fedcba9876543210");
    Files.write(new File(junk.toUri().getPath()).toPath(), new byte[1000]);
    String[] r = run(true, cr.storeDir("f").toString());
    assertEquals("1", r[0]);
    assertTrue(r[1], r[1].contains("DAMAGE " + junk + " 992 "));
    assertTrue(r[1], r[1].contains("nor an HFile"));
  }

  @Test
  public void badCommandLines() {
    assertEquals("2", run(true)[0]);
    assertEquals("2", run(true, "--bogus", "x")[0]);
    assertEquals("2", run(true, "file:///nonexistent/rlsm")[0]);
    assertEquals("2", run(false)[0]);
    assertEquals("2", run(false, "--records", "many", "x")[0]);
    assertEquals("2", run(false, "file:///nonexistent/rlsm")[0]);
  }

  @Test
  public void dumpsEveryRole() throws IOException {
    cr.restoreSnapshot();
    String[] l0 = run(false, fileUri(files.get(FileRole.FLUSH)));
    assertEquals(l0[2], "0", l0[0]);
    assertTrue(l0[1], l0[1].contains("format    v2 (HFile v3.") && l0[1].contains("role FLUSH"));
    assertTrue(l0[1], l0[1].contains("  RLSM_ROLE = FLUSH"));
    assertTrue(l0[1], l0[1].contains("  RLSM_FORMAT_VERSION = 2"));
    assertTrue(l0[1], l0[1].contains("  BLOOM_FILTER_TYPE = ROW"));
    assertTrue(l0[1], l0[1].contains(" q Put ts "));
    String[] seg = run(false, "--records", "3", "--max-value", "4",
      files.get(FileRole.SEGMENT).toString());
    assertEquals("0", seg[0]);
    assertTrue(seg[1], seg[1].contains("role SEGMENT"));
    assertTrue(seg[1], seg[1].contains("  RLSM_ROW_COUNT = 300"));
    assertTrue(seg[1], seg[1].contains("\n  row00000 q Put ts "));
    assertTrue(seg[1], seg[1].contains("\n  row00001 q Put ts "));
    assertFalse(seg[1], seg[1].contains("\n  row00003 q Put ts "));
    assertTrue(seg[1], seg[1].contains("... ("));
    String[] row = run(false, "--row", "row00042", files.get(FileRole.SEGMENT).toString());
    assertTrue(row[1], row[1].contains("\n  row00042 q Put ts "));
    assertFalse(row[1], row[1].contains("\n  row00043 q Put ts "));
    assertTrue(run(false, "--row", "nope", files.get(FileRole.SEGMENT).toString())[1]
      .contains("row nope is not in this file"));
    String[] man = run(false, files.get(FileRole.MANIFEST).toString());
    assertEquals("0", man[0]);
    assertTrue(man[1], man[1].contains("role MANIFEST"));
    assertTrue(man[1], man[1].contains("RLSM_MANIFEST_PARTITIONS = \n"
      + "    [row00000, row00299] [" + files.get(FileRole.SEGMENT).getName() + "]"));
    assertTrue(man[1], man[1].contains("RLSM_MANIFEST_GENERATION = "));
    assertTrue(man[1], man[1].contains("cells     0,"));
  }
}
