package org.apache.hadoop.hbase.rlsm.fault;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreStats;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.rlsm.file.V2Files;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.rlsm.format.V2FileInfo;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manifest chain on a real region's store (docs/format/rlsm-file.md, "Manifest chain"):
 * <ul>
 * <li>the bytes of the manifest a one-partition compaction writes do not grow with the
 * partition count when it is an edit, and do when every manifest is a checkpoint (the layout
 * before edits existed, {@code hbase.rlsm.manifest.checkpoint.edits=0});</li>
 * <li>a live chain survives reopening, and is bounded: a checkpoint retires it;</li>
 * <li>a missing or damaged edit in the middle of the chain fails the region open with a typed
 * error naming the file, rather than opening without the partitions it changed.</li>
 * </ul>
 */
@Category({ MediumTests.class, IOTests.class })
public class TestRlsmManifestChain {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmManifestChain.class);

  private static final Logger LOG = LoggerFactory.getLogger(TestRlsmManifestChain.class);
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  /** Rows of one partition: {@code ROWS} apart, the first five of each block of ten. */
  private static final int ROWS = 10;

  private static String row(int i) {
    return String.format("row%06d", i);
  }

  private static TableDescriptor descriptor(String name, Map<String, String> conf) {
    ColumnFamilyDescriptorBuilder cf = RlsmTables.familyBuilder(F)
      .setConfiguration(RlsmCompactionConfig.L0_TRIGGER_KEY, "2")
      .setConfiguration(RlsmCompactionConfig.MERGE_BYTES_KEY, "0");
    conf.forEach(cf::setConfiguration);
    return RlsmTables.configure(TableDescriptorBuilder.newBuilder(TableName.valueOf(name)))
      .setColumnFamily(cf.build()).build();
  }

  private static void put(HRegion r, TreeMap<String, String> oracle, int... rows)
    throws IOException {
    for (int i : rows) {
      String v = "v" + i + "-" + oracle.size();
      r.put(new Put(Bytes.toBytes(row(i))).addColumn(F, Q, Bytes.toBytes(v)));
      oracle.put(row(i), v);
    }
    r.flush(true);
  }

  private static RlsmStoreStats stats(HRegion r) {
    return ((RlsmStoreEngine) r.getStore(F).getStoreEngine()).getStats();
  }

  private static void verify(HRegion r, TreeMap<String, String> oracle) throws IOException {
    for (Map.Entry<String, String> e : oracle.entrySet()) {
      assertArrayEquals(e.getKey(), Bytes.toBytes(e.getValue()),
        r.get(new Get(Bytes.toBytes(e.getKey()))).getValue(F, Q));
    }
  }

  /** Every manifest a checkpoint, as before edits existed. */
  private static final Map<String, String> WHOLE =
    Map.of(RlsmCompactionConfig.CHECKPOINT_EDITS_KEY, "0");

  /**
   * A closed region of {@code partitions} Level-1 partitions, one per pair of flushes whose rows
   * lie past the last partition (each pair a range-append making a new partition); its one
   * manifest is a checkpoint.
   */
  private static CrashableRegion build(String name, int partitions,
    TreeMap<String, String> oracle) throws IOException {
    CrashableRegion cr = new CrashableRegion(HBaseConfiguration.create(),
      new File("target/manifest-chain/" + name), descriptor(name, WHOLE));
    HRegion r = cr.open();
    for (int p = 0; p < partitions; p++) {
      int at = p * ROWS;
      put(r, oracle, at, at + 2, at + 4);
      put(r, oracle, at + 1, at + 3);
      r.compact(false);
    }
    assertEquals(partitions, stats(r).getPartitions());
    cr.close();
    cr.saveSnapshot();
    return cr;
  }

  /**
   * Opens the snapshot under {@code conf}, flushes twice into the middle partition (the two
   * files are linked into it: only that partition changes) and returns the bytes of the
   * manifest the compaction wrote.
   */
  private static long oneChangedPartition(CrashableRegion cr, int partitions,
    Map<String, String> conf, TreeMap<String, String> base) throws IOException {
    cr.setDescriptor(descriptor(cr.table().getNameAsString(), conf));
    cr.restoreSnapshot();
    HRegion r = cr.open();
    TreeMap<String, String> oracle = new TreeMap<>(base);
    int at = partitions / 2 * ROWS;
    put(r, oracle, at + 1, at + 2);
    put(r, oracle, at + 2, at + 3);
    long before = stats(r).getManifestBytes();
    long linked = stats(r).getLinkedFiles();
    r.compact(false);
    assertEquals("both files linked", linked + 2, stats(r).getLinkedFiles());
    assertEquals(partitions, stats(r).getPartitions());
    long bytes = stats(r).getManifestBytes() - before;
    verify(r, oracle);
    cr.close();
    return bytes;
  }

  @Test
  public void editBytesDoNotGrowWithThePartitionCount() throws Exception {
    long[] edit = new long[2];
    long[] checkpoint = new long[2];
    int[] counts = { 10, 100 };
    for (int i = 0; i < 2; i++) {
      TreeMap<String, String> oracle = new TreeMap<>();
      CrashableRegion cr = build("sizes_" + counts[i], counts[i], oracle);
      edit[i] = oneChangedPartition(cr, counts[i], Map.of(), oracle);
      checkpoint[i] = oneChangedPartition(cr, counts[i], WHOLE, oracle);
      LOG.info("MANIFEST-BYTES {} partitions: edit {} bytes, checkpoint {} bytes", counts[i],
        edit[i], checkpoint[i]);
    }
    assertTrue("a checkpoint grows with the partitions: " + checkpoint[0] + " at 10, "
      + checkpoint[1] + " at 100", checkpoint[1] > checkpoint[0] + 90 * 50);
    assertTrue("an edit of one partition does not: " + edit[0] + " at 10, " + edit[1] + " at 100",
      Math.abs(edit[1] - edit[0]) < edit[0] / 10);
  }

  /** The store's manifests by generation. */
  private static TreeMap<Long, Path> manifests(CrashableRegion cr) throws IOException {
    TreeMap<Long, Path> out = new TreeMap<>();
    for (FileStatus st : cr.fs().listStatus(cr.storeDir("f"))) {
      Map<byte[], byte[]> info = V2Files.fileInfo(cr.fs(), st.getPath(), cr.fs().getConf());
      if (V2FileInfo.role(st.getPath().toString(), -1, info.get(V2FileInfo.ROLE))
        == FileRole.MANIFEST) {
        out.put(V2FileInfo.getLong(info.get(V2FileInfo.MANIFEST_GENERATION), -1),
          st.getPath());
      }
    }
    return out;
  }

  /** A checkpoint and two edits of 3 partitions; the chain's files by generation. */
  private static CrashableRegion chainOfTwoEdits(TreeMap<String, String> oracle)
    throws IOException {
    CrashableRegion cr = build("chain", 3, oracle);
    cr.setDescriptor(descriptor("chain", Map.of(RlsmCompactionConfig.CHECKPOINT_RATIO_KEY, "100",
      RlsmCompactionConfig.CHECKPOINT_EDITS_KEY, "2")));
    cr.restoreSnapshot();
    HRegion r = cr.open();
    for (int p = 0; p < 2; p++) {
      put(r, oracle, p * ROWS + 1, p * ROWS + 3);
      put(r, oracle, p * ROWS + 2, p * ROWS + 4);
      r.compact(false);
    }
    cr.close();
    assertEquals("a checkpoint and two edits", 3, manifests(cr).size());
    cr.saveSnapshot();
    return cr;
  }

  @Test
  public void chainSurvivesReopenAndACheckpointRetiresIt() throws Exception {
    TreeMap<String, String> oracle = new TreeMap<>();
    CrashableRegion cr = chainOfTwoEdits(oracle);
    HRegion r = cr.open();
    verify(r, oracle);
    assertEquals(3, stats(r).getPartitions());
    // the chain holds two edits: the next manifest is a checkpoint
    put(r, oracle, 2 * ROWS + 1, 2 * ROWS + 3);
    put(r, oracle, 2 * ROWS + 2, 2 * ROWS + 4);
    r.compact(false);
    cr.close();
    assertEquals("the checkpoint alone", 1, manifests(cr).size());
    r = cr.open();
    verify(r, oracle);
    cr.close();
  }

  private static RlsmCorruptionException openFails(CrashableRegion cr) throws IOException {
    try {
      cr.open();
      cr.close();
      fail("the region opened without a member of its manifest chain");
      return null;
    } catch (IOException e) {
      cr.abandon();
      for (Throwable c = e; c != null; c = c.getCause()) {
        if (c instanceof RlsmCorruptionException) {
          return (RlsmCorruptionException) c;
        }
      }
      throw new AssertionError("open failed without the typed error", e);
    }
  }

  @Test
  public void missingEditFailsTheOpenNamingTheChain() throws Exception {
    TreeMap<String, String> oracle = new TreeMap<>();
    CrashableRegion cr = chainOfTwoEdits(oracle);
    TreeMap<Long, Path> chain = manifests(cr);
    long middle = chain.keySet().stream().skip(1).findFirst().get();
    assertTrue(cr.fs().delete(chain.get(middle), false));
    RlsmCorruptionException e = openFails(cr);
    assertTrue(e.getMessage(), e.getFile().endsWith(chain.lastEntry().getValue().getName()));
    assertTrue(e.getMessage(), e.getMessage().contains("generation " + middle));
  }

  @Test
  public void damagedEditFailsTheOpenNamingIt() throws Exception {
    TreeMap<String, String> oracle = new TreeMap<>();
    CrashableRegion cr = chainOfTwoEdits(oracle);
    TreeMap<Long, Path> chain = manifests(cr);
    Path middle = chain.get(chain.keySet().stream().skip(1).findFirst().get());
    File f = new File(middle.toUri().getPath());
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      raf.seek(raf.length() - 4096);
      raf.write(new byte[4096]); // HBase's trailer
    }
    RlsmCorruptionException e = openFails(cr);
    assertNotNull(e.getFile());
    assertTrue(e.getMessage(), e.getFile().endsWith(middle.getName()));
  }
}
