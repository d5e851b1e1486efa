package org.apache.hadoop.hbase.rlsm;

import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionContext;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequestImpl;
import org.apache.hadoop.hbase.regionserver.throttle.NoLimitThroughputController;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.HFileArchiveUtil;

/**
 * An RLSM table and its default-engine twin: the same families with the same settings, created in
 * one cluster, so that a test writes the same operations to both and compares what the client
 * reads back. Names are {@code <name>_rlsm} and {@code <name>_default}.
 */
public final class RlsmTwinTables {
  public final TableName rlsm;
  public final TableName dflt;
  private final HBaseTestingUtility util;

  private RlsmTwinTables(HBaseTestingUtility util, TableName rlsm, TableName dflt) {
    this.util = util;
    this.rlsm = rlsm;
    this.dflt = dflt;
  }

  /**
   * Creates both tables; {@code settings} applies the family settings under test to each family
   * builder (the RLSM engine settings are added to the RLSM side afterwards).
   */
  public static RlsmTwinTables create(HBaseTestingUtility util, String name,
    UnaryOperator<ColumnFamilyDescriptorBuilder> settings, byte[]... families) throws IOException {
    return create(util, name, null, UnaryOperator.identity(), settings, families);
  }

  /** As {@link #create}, both tables pre-split at {@code splitKeys}. */
  public static RlsmTwinTables createPreSplit(HBaseTestingUtility util, String name,
    UnaryOperator<ColumnFamilyDescriptorBuilder> settings, byte[][] splitKeys, byte[]... families)
    throws IOException {
    return create(util, name, splitKeys, UnaryOperator.identity(), settings, families);
  }

  /** As {@link #create}, with {@code table} applied to both table descriptors. */
  public static RlsmTwinTables create(HBaseTestingUtility util, String name,
    UnaryOperator<TableDescriptorBuilder> table,
    UnaryOperator<ColumnFamilyDescriptorBuilder> settings, byte[]... families) throws IOException {
    return create(util, name, null, table, settings, families);
  }

  /**
   * {@link #create} with both tables pre-split at {@code splitKeys} (the first row of every region
   * but the first; null or empty: one region each), as
   * {@code Admin.createTable(descriptor, splitKeys)}, and {@code tableSettings} applied to both
   * table builders last (the master observer, when the cluster runs it, completes the RLSM side).
   */
  public static RlsmTwinTables create(HBaseTestingUtility util, String name, byte[][] splitKeys,
    UnaryOperator<TableDescriptorBuilder> tableSettings,
    UnaryOperator<ColumnFamilyDescriptorBuilder> settings, byte[]... families) throws IOException {
    TableName r = TableName.valueOf(name + "_rlsm");
    TableName d = TableName.valueOf(name + "_default");
    for (TableName tn : new TableName[] { r, d }) {
      TableDescriptorBuilder td = tableSettings.apply(descriptor(tn, tn == r, settings, families));
      if (splitKeys == null || splitKeys.length == 0) {
        util.getAdmin().createTable(td.build());
      } else {
        util.getAdmin().createTable(td.build(), splitKeys);
      }
    }
    return new RlsmTwinTables(util, r, d);
  }

  /** A table descriptor whose families get {@code settings}, and RLSM's when {@code rlsm}. */
  public static TableDescriptorBuilder descriptor(TableName tn, boolean rlsm,
    UnaryOperator<ColumnFamilyDescriptorBuilder> settings, byte[]... families) {
    TableDescriptorBuilder tb = TableDescriptorBuilder.newBuilder(tn);
    if (rlsm) {
      RlsmTables.configure(tb);
    }
    for (byte[] f : families) {
      ColumnFamilyDescriptorBuilder cf = settings.apply(ColumnFamilyDescriptorBuilder.newBuilder(f));
      tb.setColumnFamily((rlsm ? RlsmTables.configure(cf) : cf).build());
    }
    return tb;
  }

  /** The testing utility of the cluster holding both tables. */
  public HBaseTestingUtility util() {
    return util;
  }

  /** Flushes both tables ({@link #flushWhole}) and runs a synchronous major compaction of each. */
  public void flushAndMajorCompact() throws Exception {
    flushWhole();
    majorCompactEachStore();
  }

  /**
   * Runs, in this thread, a major compaction of all files of every store of both tables. HBase
   * selects a major compaction only while no compaction holds any of the store's files
   * ({@code HStore.requestCompaction}); a system compaction that started meanwhile (after a
   * flush, or by the RegionServer's compaction checker) turns the request into a minor one,
   * which keeps versions and markers, on one table and not the other. So each store is
   * compacted again until a major compaction of all its files ran; a region that closes
   * meanwhile is left to its successors' next round.
   */
  private void majorCompactEachStore() throws Exception {
    for (TableName tn : new TableName[] { rlsm, dflt }) {
      for (HRegion r : util.getHBaseCluster().getRegions(tn)) {
        for (HStore s : r.getStores()) {
          util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> {
            // every file: an RLSM store counts only its Level-0 files in getStorefilesCount
            if (r.isClosed() || r.isClosing() || s.getStorefiles().isEmpty()) {
              return true;
            }
            s.triggerMajorCompaction();
            Optional<CompactionContext> c = s.requestCompaction();
            if (!c.isPresent()) {
              return false;
            }
            CompactionRequestImpl request = c.get().getRequest();
            r.compact(c.get(), s, NoLimitThroughputController.INSTANCE, null);
            return request.isMajor() && request.isAllFiles();
          });
        }
      }
    }
  }

  /**
   * Flushes every open region of both tables so that every write acknowledged before the call is
   * in a store file. HBase's flush of a table skips a region whose memstore a flush is already
   * writing ({@code HRegion.flushcache}: "already flushing"), which leaves the writes that came
   * after that flush's snapshot in memory, on one table and not the other; a raw scan then shows
   * them beside the versions a major compaction kept. So each region is flushed until a flush of
   * its own ran or found nothing to write; a region that closes meanwhile flushes as it closes.
   */
  public void flushWhole() throws Exception {
    awaitEachRegion(r -> {
      if (r.isClosed() || r.isClosing()) {
        return true;
      }
      HRegion.FlushResult f = r.flush(true);
      return f.isFlushSucceeded()
        || f.getResult() == HRegion.FlushResult.Result.CANNOT_FLUSH_MEMSTORE_EMPTY;
    });
  }

  /**
   * A major compaction that runs whole on both tables. One asked for while a system compaction
   * (after a flush, split or merge) holds some of a store's files does not run there, on either
   * engine, so one table could keep delete markers or versions the other purged. Waits until no
   * region of either table has a compaction queued or running, compacts each store until a major
   * compaction of all its files ran, and waits again.
   */
  public void majorCompactWhole() throws Exception {
    awaitCompactionsIdle();
    majorCompactEachStore();
    awaitCompactionsIdle();
  }

  private void awaitCompactionsIdle() throws Exception {
    awaitEachRegion(RlsmStoreProbe::compactionsIdle);
  }

  /** A condition on one open region, evaluated again until it holds. */
  @FunctionalInterface
  private interface RegionCondition {
    boolean holds(HRegion r) throws IOException;
  }

  /** Waits, one open region of both tables at a time, until {@code c} holds for it. */
  private void awaitEachRegion(RegionCondition c) throws Exception {
    for (TableName tn : new TableName[] { rlsm, dflt }) {
      for (HRegion r : util.getHBaseCluster().getRegions(tn)) {
        util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> c.holds(r));
      }
    }
  }

  /** Asserts that {@code scan} returns the same cells from both tables. */
  public void assertSameScan(Scan scan) throws IOException {
    try (Table r = util.getConnection().getTable(rlsm);
      Table d = util.getConnection().getTable(dflt)) {
      assertSameCells("scan " + scan + " of " + rlsm + " vs " + dflt, cells(d, scan),
        cells(r, scan));
    }
  }

  /** Asserts equal cell lists, naming the first difference rather than printing both lists. */
  public static void assertSameCells(String what, List<String> want, List<String> got) {
    for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
      assertEquals(what + ": cell " + i, want.get(i), got.get(i));
    }
    int n = Math.min(want.size(), got.size());
    String first = want.size() > n ? "first missing " + want.get(n)
      : got.size() > n ? "first extra " + got.get(n) : "";
    assertEquals(what + ": cell count (" + first + ")", want.size(), got.size());
  }

  /** Every cell {@code scan} returns, as row/family:qualifier/timestamp/type=value. */
  public static List<String> cells(Table t, Scan scan) throws IOException {
    List<String> out = new ArrayList<>();
    try (ResultScanner rs = t.getScanner(scan)) {
      for (Result r : rs) {
        for (Cell c : r.rawCells()) {
          out.add(describe(c));
        }
      }
    }
    return out;
  }

  /** {@link #describe(Cell)} of each cell, as a Get's {@code rawCells()} lists them. */
  public static List<String> describe(Cell[] cells) {
    List<String> out = new ArrayList<>();
    for (Cell c : cells) {
      out.add(describe(c));
    }
    return out;
  }

  public static String describe(Cell c) {
    return Bytes.toStringBinary(CellUtil.cloneRow(c)) + "/"
      + Bytes.toStringBinary(CellUtil.cloneFamily(c)) + ":"
      + Bytes.toStringBinary(CellUtil.cloneQualifier(c)) + "/" + c.getTimestamp() + "/"
      + c.getType() + "=" + Bytes.toStringBinary(CellUtil.cloneValue(c));
  }

  /**
   * Every regular file of {@code tn} on the cluster's file system: the table directory
   * (descriptor, region info, store files, RLSM manifests, anything else an engine writes there)
   * and the table's archive directory (files that compactions replaced).
   */
  public static List<Path> allFiles(HBaseTestingUtility util, TableName tn) throws IOException {
    FileSystem fs = util.getTestFileSystem();
    Path root = CommonFSUtils.getRootDir(util.getConfiguration());
    List<Path> out = new ArrayList<>();
    walk(fs, CommonFSUtils.getTableDir(root, tn), out);
    walk(fs, HFileArchiveUtil.getTableArchivePath(root, tn), out);
    return out;
  }

  private static void walk(FileSystem fs, Path dir, List<Path> out) throws IOException {
    if (!fs.exists(dir)) {
      return;
    }
    for (FileStatus st : fs.listStatus(dir)) {
      if (st.isDirectory()) {
        walk(fs, st.getPath(), out);
      } else {
        out.add(st.getPath());
      }
    }
  }

  /** Total bytes of the store files of {@code family} in every region of {@code tn}. */
  public static long storeBytes(HBaseTestingUtility util, TableName tn, String family)
    throws IOException {
    long total = 0;
    for (Path p : RlsmTestCluster.storeFiles(util, tn, family)) {
      total += util.getTestFileSystem().getFileStatus(p).getLen();
    }
    return total;
  }
}
