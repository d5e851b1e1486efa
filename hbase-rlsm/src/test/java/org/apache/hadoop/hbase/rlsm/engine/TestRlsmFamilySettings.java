package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.io.InputStream;
import java.security.KeyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.crypto.KeyProviderForTesting;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Family settings an operator sets through the client (compression, encryption at rest, data
 * block encoding, Bloom filter type, block size, MOB) on RLSM families, each checked against a
 * default-engine twin in the same cluster: a setting is honoured (files smaller, no plaintext on
 * disk, a wrong master key refused, the same content) or refused when the table is created or
 * altered, never silently ignored. Encryption uses HBase's test key provider, which derives each
 * key from its name, with master key {@code hbase} as in HBase's own encryption tests.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmFamilySettings {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmFamilySettings.class);

  static final String MASTER_KEY = "hbase";
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] G = Bytes.toBytes("g");
  private static final int ROWS = 3000;

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER =
    new RlsmMiniClusterRule(1, TestRlsmFamilySettings::enableEncryption);
  private static final HBaseTestingUtility util = CLUSTER.util();

  /**
   * HBase's encryption settings for tests (HFile v3, the test key provider, a master key), and
   * the master observer that completes and checks RLSM descriptors at create and alter, as
   * docs/install.md tells operators to (it is what refuses settings RLSM cannot honour).
   */
  static void enableEncryption(Configuration conf) {
    RlsmTestCluster.completeRlsmDescriptors(conf);
    conf.setInt("hfile.format.version", 3);
    conf.set(HConstants.CRYPTO_KEYPROVIDER_CONF_KEY, KeyProviderForTesting.class.getName());
    conf.set(HConstants.CRYPTO_MASTERKEY_NAME_CONF_KEY, MASTER_KEY);
  }

  /** Compressible text that names its row, with {@code marker} in it. */
  private static byte[] value(int row, String marker) {
    return Bytes.toBytes(String.format(Locale.ROOT,
      "%s row %06d: the quick brown fox jumps over the lazy dog, again and again and again", marker,
      row));
  }

  /**
   * Puts {@code ROWS} rows of three columns into {@code tn}, in every family given; timestamps are
   * explicit (one per load) so that twins hold identical cells.
   */
  private static void load(TableName tn, int from, String marker, byte[]... families)
    throws IOException {
    try (BufferedMutator m = util.getConnection().getBufferedMutator(tn)) {
      for (int i = from; i < from + ROWS; i++) {
        Put p = new Put(Bytes.toBytes(String.format(Locale.ROOT, "row%06d", i)));
        for (byte[] f : families) {
          for (int q = 0; q < 3; q++) {
            p.addColumn(f, Bytes.toBytes("q" + q), 1_000_000L + from, value(i, marker));
          }
        }
        m.mutate(p);
      }
    }
  }

  private static void load(RlsmTwinTables twins, int from, String marker, byte[]... families)
    throws IOException {
    load(twins.rlsm, from, marker, families);
    load(twins.dflt, from, marker, families);
  }

  @Test
  public void gzCompressionMakesSmallerFilesWithTheSameContent() throws Exception {
    RlsmTwinTables gz = RlsmTwinTables.create(util, "gz",
      cf -> cf.setCompressionType(Compression.Algorithm.GZ), F);
    TableName plain = TableName.valueOf("gz_uncompressed_rlsm");
    util.getAdmin().createTable(RlsmTwinTables.descriptor(plain, true, cf -> cf, F).build());
    load(gz, 0, "gz", F);
    load(plain, 0, "gz", F);
    gz.flushAndMajorCompact();
    util.getAdmin().flush(plain);
    util.compact(plain, true);

    gz.assertSameScan(new Scan());
    long compressed = RlsmTwinTables.storeBytes(util, gz.rlsm, "f");
    long uncompressed = RlsmTwinTables.storeBytes(util, plain, "f");
    long dflt = RlsmTwinTables.storeBytes(util, gz.dflt, "f");
    System.out.printf("gz: rlsm %d B, rlsm uncompressed %d B, default %d B%n", compressed,
      uncompressed, dflt);
    assertTrue("the uncompressed RLSM store holds the data", uncompressed > 0);
    // The values repeat one sentence: GZ shrinks them several times over, as it does for the
    // default engine; an engine that ignores the setting writes as much as without it.
    assertTrue("RLSM with COMPRESSION GZ wrote " + compressed + " bytes, uncompressed "
      + uncompressed + " (default engine with GZ: " + dflt + ")", compressed * 2 < uncompressed);
  }

  @Test
  public void aesEncryptionLeavesNoPlaintextAndNeedsTheMasterKey() throws Exception {
    String marker = "PLAINTEXT-MARKER-4b1d";
    RlsmTwinTables aes = RlsmTwinTables.create(util, "aes", cf -> cf.setEncryptionType("AES"), F);
    TableName plain = TableName.valueOf("aes_control_rlsm");
    util.getAdmin().createTable(RlsmTwinTables.descriptor(plain, true, cf -> cf, F).build());
    load(aes, 0, marker, F);
    load(plain, 0, marker, F);
    aes.flushAndMajorCompact();
    // A second flush leaves a file that no compaction rewrote (a Level-0 file for RLSM).
    load(aes, ROWS, marker, F);
    load(plain, 0, marker, F);
    for (TableName tn : new TableName[] { aes.rlsm, aes.dflt, plain }) {
      util.getAdmin().flush(tn);
    }
    aes.assertSameScan(new Scan());

    byte[] needle = Bytes.toBytes(marker);
    // The search finds the marker where it is written in the clear: the unencrypted control.
    assertFalse("the marker is in the clear in the unencrypted RLSM table's files",
      filesContaining(plain, needle).isEmpty());
    assertEquals("files of the encrypted default-engine table holding the marker", List.of(),
      filesContaining(aes.dflt, needle));
    assertEquals("files of the encrypted RLSM table holding the marker in plaintext", List.of(),
      filesContaining(aes.rlsm, needle));

    // The regions' files opened with another master key: HBase cannot unwrap the file keys.
    assertWrongMasterKeyFails(aes.dflt);
    assertWrongMasterKeyFails(aes.rlsm);
  }

  /** Paths of the files of {@code tn} (table and archive directory) that contain {@code needle}. */
  private static List<String> filesContaining(TableName tn, byte[] needle) throws IOException {
    FileSystem fs = util.getTestFileSystem();
    List<String> out = new ArrayList<>();
    for (Path p : RlsmTwinTables.allFiles(util, tn)) {
      byte[] content;
      try (InputStream in = fs.open(p)) {
        content = in.readAllBytes();
      }
      if (Bytes.indexOf(content, needle) >= 0) {
        out.add(p.toString());
      }
    }
    return out;
  }

  /**
   * Opens the table's region from its files, read-only, with master key {@code other}: the store
   * files' keys were wrapped with {@code hbase}, so the open must fail with HBase's key error.
   */
  private static void assertWrongMasterKeyFails(TableName tn) throws IOException {
    Configuration wrong = new Configuration(util.getConfiguration());
    wrong.set(HConstants.CRYPTO_MASTERKEY_NAME_CONF_KEY, "other");
    wrong.unset(HConstants.CRYPTO_MASTERKEY_ALTERNATE_NAME_CONF_KEY);
    TableDescriptor td = util.getAdmin().getDescriptor(tn);
    RegionInfo info = util.getAdmin().getRegions(tn).get(0);
    Path tableDir = CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(wrong), tn);
    HRegion region;
    try {
      region = HRegion.openReadOnlyFileSystemHRegion(wrong, util.getTestFileSystem(), tableDir,
        info, td);
    } catch (IOException e) {
      assertKeyError(tn, e);
      return;
    }
    // Opened: every read must still fail, or the data was readable without the key.
    try {
      Result r = region.get(new Get(Bytes.toBytes("row000001")));
      fail(tn + " opened and served " + r + " under the wrong master key");
    } catch (IOException e) {
      assertKeyError(tn, e);
    } finally {
      region.close();
    }
  }

  private static void assertKeyError(TableName tn, Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof KeyException) {
        return;
      }
    }
    throw new AssertionError(tn + ": expected HBase's KeyException for the wrong master key", e);
  }

  @Test
  public void blockEncodingBloomsAndBlockSizeKeepTheContent() throws Exception {
    // Family f: FAST_DIFF, ROWCOL Bloom, 8 KB blocks, 3 versions; family g: no Bloom, 8 KB.
    RlsmTwinTables twins = RlsmTwinTables.create(util, "encoded",
      cf -> Bytes.equals(cf.build().getName(), F)
        ? cf.setDataBlockEncoding(DataBlockEncoding.FAST_DIFF).setBloomFilterType(BloomType.ROWCOL)
          .setBlocksize(8 * 1024).setMaxVersions(3)
        : cf.setBloomFilterType(BloomType.NONE).setBlocksize(8 * 1024),
      F, G);
    Admin admin = util.getAdmin();
    load(twins, 0, "enc", F, G);
    twins.flushAndMajorCompact();
    load(twins, ROWS / 2, "enc2", F, G); // second versions of half the rows, and new rows
    for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
      admin.flush(tn);
    }
    twins.assertSameScan(new Scan().readAllVersions());
    twins.assertSameScan(new Scan().withStartRow(Bytes.toBytes("row001234")).setLimit(50));
    twins.assertSameScan(new Scan().addColumn(F, Bytes.toBytes("q1")).setReversed(true));
    try (Table r = util.getConnection().getTable(twins.rlsm);
      Table d = util.getConnection().getTable(twins.dflt)) {
      // Row-column Bloom probes: present and absent columns of present and absent rows.
      for (int i = 0; i < 2 * ROWS; i += 97) {
        byte[] row = Bytes.toBytes(String.format(Locale.ROOT, "row%06d", i));
        for (Get get : new Get[] { new Get(row).addColumn(F, Bytes.toBytes("q2")),
          new Get(row).addColumn(F, Bytes.toBytes("absent")).addColumn(G, Bytes.toBytes("q0")),
          new Get(row).readAllVersions() }) {
          RlsmTwinTables.assertSameCells(get.toString(), RlsmTwinTables.cells(d, new Scan(get)),
            RlsmTwinTables.cells(r, new Scan(get)));
        }
      }
    }
  }

  /**
   * MOB keeps large values in separate files that HBase's MOB compactions manage. HBase opens a
   * MOB family as an {@code HMobStore}, whose {@code createStoreEngine} always builds a
   * {@code MobStoreEngine}: the family's {@code hbase.hstore.engine.class} is dropped without a
   * word, so an "RLSM" family with {@code IS_MOB} runs on the default engine. RLSM must refuse
   * such a family at create and alter (RlsmMasterObserver, enabled in this cluster); this test
   * expects the refusal, with a message naming MOB.
   */
  @Test
  public void mobOnAnRlsmFamilyIsRefused() throws Exception {
    Admin admin = util.getAdmin();
    TableName created = TableName.valueOf("mob_create_rlsm");
    try {
      admin.createTable(RlsmTwinTables.descriptor(created, true,
        cf -> cf.setMobEnabled(true).setMobThreshold(100), F).build());
      fail("an RLSM family with IS_MOB => true was created");
    } catch (IOException e) {
      assertMentionsMob(e);
    }
    assertFalse("refused table left behind", admin.tableExists(created));

    TableName altered = TableName.valueOf("mob_alter_rlsm");
    admin.createTable(RlsmTwinTables.descriptor(altered, true, cf -> cf, F).build());
    ColumnFamilyDescriptorBuilder mob = RlsmTables.configure(
      ColumnFamilyDescriptorBuilder.newBuilder(admin.getDescriptor(altered).getColumnFamily(F)))
      .setMobEnabled(true).setMobThreshold(100);
    try {
      admin.modifyColumnFamily(altered, mob.build());
      fail("an RLSM family was altered to IS_MOB => true");
    } catch (IOException e) {
      assertMentionsMob(e);
    }
    assertFalse("the refused alter took effect",
      admin.getDescriptor(altered).getColumnFamily(F).isMobEnabled());
    // The table still serves.
    try (Table t = util.getConnection().getTable(altered)) {
      t.put(new Put(Bytes.toBytes("r")).addColumn(F, Bytes.toBytes("q"), Bytes.toBytes("v")));
      assertNotNull(t.get(new Get(Bytes.toBytes("r"))).getValue(F, Bytes.toBytes("q")));
    }
  }

  private static void assertMentionsMob(IOException e) {
    String text = e.toString();
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      text += " / " + t;
    }
    assertTrue("refusal does not name MOB: " + text, text.toLowerCase(Locale.ROOT).contains("mob"));
  }
}
