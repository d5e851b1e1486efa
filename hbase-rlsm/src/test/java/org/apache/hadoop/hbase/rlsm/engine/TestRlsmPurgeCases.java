package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.rlsm.CaseFile;
import org.apache.hadoop.hbase.rlsm.CaseFile.Case;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.apache.hadoop.hbase.util.ManualEnvironmentEdge;
import org.junit.After;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * HBase's purge semantics on RLSM: each case of testdata/purge runs the same puts, deletes,
 * flushes and compactions on a local region of HBase's default engine and on one of RLSM, as
 * HBase's own TestKeepDeletes and TestMinVersions do, then compares raw scans (every version and
 * delete marker) and user scans cell by cell.
 */
@RunWith(Parameterized.class)
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmPurgeCases {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmPurgeCases.class);

  private static final byte[] F = Bytes.toBytes("f");
  /** The case's start time; a manual clock keeps TTL decisions independent of the machine. */
  private static final long T0 = 1_600_000_000_000L;
  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();
  private static int tables;

  @Parameters(name = "{0}")
  public static List<Object[]> cases() {
    return CaseFile.load("purge");
  }

  private final Case c;
  private final ManualEnvironmentEdge clock = new ManualEnvironmentEdge();
  private final List<HRegion> regions = new ArrayList<>();

  public TestRlsmPurgeCases(String name, Case c) {
    this.c = c;
  }

  @After
  public void tearDown() throws IOException {
    for (HRegion r : regions) {
      HBaseTestingUtility.closeRegionAndWAL(r);
    }
    EnvironmentEdgeManager.reset();
  }

  @AfterClass
  public static void cleanUp() throws IOException {
    UTIL.cleanupTestDir();
  }

  private HRegion region(boolean rlsm) throws IOException {
    ColumnFamilyDescriptorBuilder f = ColumnFamilyDescriptorBuilder.newBuilder(F)
      .setKeepDeletedCells(KeepDeletedCells.valueOf(c.get("keep-deleted-cells")))
      .setMaxVersions(Integer.parseInt(c.get("max-versions")))
      .setMinVersions(Integer.parseInt(c.get("min-versions")));
    String ttl = c.get("ttl");
    f.setTimeToLive(ttl.equals("FOREVER") ? HConstants.FOREVER : Integer.parseInt(ttl));
    if (rlsm) {
      RlsmTables.configure(f);
    }
    TableDescriptorBuilder t = TableDescriptorBuilder
      .newBuilder(TableName.valueOf((rlsm ? "rlsm" : "default") + tables++)).setColumnFamily(
        f.build());
    HRegion r = UTIL.createLocalHRegion(t.build(), null, null);
    regions.add(r);
    return r;
  }

  @Test
  public void sameAsDefaultEngine() throws IOException {
    c.allowOnly(Set.of("keep-deleted-cells", "max-versions", "min-versions", "ttl", "step",
      "default-markers", "freed"));
    clock.setValue(T0);
    EnvironmentEdgeManager.injectEdge(clock);
    HRegion base = region(false);
    HRegion rlsm = region(true);
    for (String step : c.all("step")) {
      List<String> w = Case.words(step);
      for (HRegion r : regions) {
        apply(r, w);
      }
      if (w.get(0).equals("advance")) {
        clock.incValue(Long.parseLong(w.get(1)));
      }
    }
    List<String> baseRaw = scan(base, true);
    assertEquals(c.name() + ": raw scan", baseRaw, scan(rlsm, true));
    assertEquals(c.name() + ": user scan", scan(base, false), scan(rlsm, false));
    if (c.has("default-markers")) {
      long markers = baseRaw.stream().filter(s -> !s.contains("/Put/")).count();
      assertEquals(c.name() + ": markers the default engine keeps",
        Long.parseLong(c.get("default-markers")), markers);
    }
    if (c.has("freed")) {
      long freed = ((RlsmStoreEngine) rlsm.getStore(F).getStoreEngine()).getStats()
        .getFreedBytes();
      assertEquals(c.name() + ": freed bytes " + freed, c.getBoolean("freed"), freed > 0);
    }
  }

  private void apply(HRegion r, List<String> w) throws IOException {
    switch (w.get(0)) {
      case "put":
        r.put(new Put(Bytes.toBytes(w.get(1))).addColumn(F, Bytes.toBytes(w.get(2)),
          ts(w.get(3)), Bytes.toBytes(w.get(4))));
        break;
      case "puts":
        for (int i = Integer.parseInt(w.get(1)); i <= Integer.parseInt(w.get(2)); i++) {
          r.put(new Put(Bytes.toBytes(String.format(Locale.ROOT, "row%04d", i)))
            .addColumn(F, Bytes.toBytes("c"), ts(w.get(3)), Bytes.toBytes("v" + w.get(3))));
        }
        break;
      case "delete-version":
        r.delete(new Delete(Bytes.toBytes(w.get(1))).addColumn(F, Bytes.toBytes(w.get(2)),
          ts(w.get(3))));
        break;
      case "delete-column":
        r.delete(new Delete(Bytes.toBytes(w.get(1))).addColumns(F, Bytes.toBytes(w.get(2)),
          ts(w.get(3))));
        break;
      case "delete-family":
        r.delete(new Delete(Bytes.toBytes(w.get(1))).addFamily(F, ts(w.get(2))));
        break;
      case "delete-family-version":
        r.delete(new Delete(Bytes.toBytes(w.get(1))).addFamilyVersion(F, ts(w.get(2))));
        break;
      case "delete-row":
        r.delete(new Delete(Bytes.toBytes(w.get(1))));
        break;
      case "flush":
        r.flush(true);
        break;
      case "major":
        r.compact(true);
        break;
      case "minor":
        r.compact(false);
        break;
      case "advance":
        break; // once for both regions, by the caller
      default:
        throw new IllegalArgumentException(c.name() + ": unknown step " + w);
    }
  }

  private long ts(String offset) {
    return EnvironmentEdgeManager.currentTime() + Long.parseLong(offset);
  }

  /** Every cell as text, in scan order; raw scans include delete markers. */
  private static List<String> scan(HRegion r, boolean raw) throws IOException {
    List<String> out = new ArrayList<>();
    try (RegionScanner s = r.getScanner(new Scan().setRaw(raw).readAllVersions())) {
      List<Cell> cells = new ArrayList<>();
      boolean more;
      do {
        more = s.next(cells);
        for (Cell cell : cells) {
          out.add(Bytes.toString(CellUtil.cloneRow(cell)) + "/"
            + Bytes.toString(CellUtil.cloneQualifier(cell)) + "/" + (cell.getTimestamp() - T0)
            + "/" + cell.getType() + "/" + Bytes.toString(CellUtil.cloneValue(cell)));
        }
        cells.clear();
      } while (more);
    }
    return out;
  }
}
