package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Where the cells of one row sit in an open region: what a raw scan of the region returns (with
 * sequence ids), the memstore's size, the RLSM layout of each store, and the row's cells in each
 * store file. Written when two twin tables differ, so that a failure says whether a cell is in a
 * file, in the memstore, or made up by a read.
 */
public final class RowWhereabouts {
  private RowWhereabouts() {
  }

  /** The lines describing {@code row} in {@code region}. */
  public static List<String> describe(HRegion region, byte[] row) throws IOException {
    List<String> out = new ArrayList<>();
    out.add("region " + region.getRegionInfo().getRegionNameAsString() + " closed="
      + region.isClosed() + " memstore=" + region.getMemStoreDataSize() + " maxFlushedSeqId="
      + region.getMaxFlushedSeqId());
    Scan scan = new Scan().withStartRow(row).withStopRow(row, true).setRaw(true)
      .readAllVersions();
    try (RegionScanner rs = region.getScanner(scan)) {
      List<Cell> cells = new ArrayList<>();
      boolean more;
      do {
        more = rs.next(cells);
      } while (more);
      for (Cell c : cells) {
        out.add("  raw " + c); // KeyValue prints the sequence id
      }
    }
    for (HStore s : region.getStores()) {
      out.add(" store " + s.getColumnFamilyName() + " files=" + s.getStorefiles().size()
        + " memstore=" + s.getMemStoreSize().getDataSize());
      if (s.getStoreEngine().getStoreFileManager() instanceof RlsmStoreFileManager) {
        RlsmStoreFileManager.State st =
          ((RlsmStoreFileManager) s.getStoreEngine().getStoreFileManager()).state();
        out.add("  level0 " + names(st.level0));
        for (RlsmStoreFileManager.Partition p : st.partitions) {
          out.add("  partition [" + Bytes.toStringBinary(p.low) + ", "
            + Bytes.toStringBinary(p.high) + "] " + names(p.segments));
        }
      }
      for (HStoreFile f : s.getStorefiles()) {
        out.add("  file " + f.getPath().getName() + " ref=" + f.isReference() + " maxSeq="
          + f.getMaxSequenceId() + " major=" + f.isMajorCompactionResult());
        for (Cell c : rowCells(f, row)) {
          out.add("    " + c);
        }
      }
    }
    return out;
  }

  private static List<Cell> rowCells(HStoreFile f, byte[] row) throws IOException {
    List<Cell> out = new ArrayList<>();
    if (f.getReader() == null) {
      return out;
    }
    try (StoreFileScanner sc = f.getPreadScanner(false, Long.MAX_VALUE, 0, false)) {
      if (sc.seek(KeyValueUtil.createFirstOnRow(row))) {
        for (Cell c = sc.next(); c != null && CellUtil.matchingRows(c, row); c = sc.next()) {
          out.add(KeyValueUtil.copyToNewKeyValue(c));
        }
      }
    }
    return out;
  }

  private static String names(List<HStoreFile> files) {
    List<String> out = new ArrayList<>();
    for (HStoreFile f : files) {
      out.add(f.getPath().getName());
    }
    return out.toString();
  }
}
