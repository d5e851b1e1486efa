package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.regionserver.querymatcher.CompactionScanQueryMatcher;
import org.apache.hadoop.hbase.regionserver.querymatcher.ScanQueryMatcher;
import org.apache.hadoop.hbase.rlsm.memstore.HashCellTable;
import org.apache.hadoop.hbase.rlsm.memstore.MemRow;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The flush scanner of a hash memstore snapshot: yields one whole row per {@link #next} call, rows
 * in key order from the table's row skip list (the one scans keep; brought up to date once here,
 * O(log n) per row not yet in it), so the flush writes a key-ordered file while writes to the
 * memstore still never sort beyond their row.
 *
 * <p>What a flush keeps is decided by the very matcher HBase's flush {@code StoreScanner} uses
 * ({@code CompactionScanQueryMatcher} for {@code COMPACT_RETAIN_DELETES}, with the store's
 * {@code ScanInfo}, the region's smallest read point, {@code now - ttl} and the coprocessor
 * host's delete tracker), fed each row's sorted cells. Its seek answers are applied as the
 * {@code StoreScanner} applies them to a single memstore scanner: {@code SEEK_NEXT_COL} moves to
 * the first cell at or after {@code getKeyForNextColumn}, {@code SEEK_NEXT_ROW} and {@code DONE}
 * end the row. So max versions, min versions, TTL (family and cell), delete markers and
 * {@code KEEP_DELETED_CELLS} behave exactly as in HBase's flush. Only used when no coprocessor
 * hooks the flush scanner (see {@code RlsmStoreFlusher}).
 */
@InterfaceAudience.Private
public class RlsmHashFlushScanner implements InternalScanner {
  private final RlsmHashScanner snapshotScanner;
  private final HashCellTable table;
  private final CellComparator cmp;
  private final ScanQueryMatcher matcher;
  private final Iterator<MemRow> rows;
  private boolean done;

  RlsmHashFlushScanner(RlsmHashScanner snapshotScanner, HStore store) throws IOException {
    this.snapshotScanner = snapshotScanner;
    this.table = snapshotScanner.getTable();
    this.cmp = table.getComparator();
    this.rows = table.sortedRows().iterator();
    ScanInfo scanInfo = store.getScanInfo();
    long now = EnvironmentEdgeManager.currentTime();
    // As StoreScanner's constructor (a flush scan is never raw).
    long oldestUnexpiredTS = now - scanInfo.getTtl();
    this.matcher = CompactionScanQueryMatcher.create(scanInfo, ScanType.COMPACT_RETAIN_DELETES,
      store.getSmallestReadPoint(), HConstants.OLDEST_TIMESTAMP, oldestUnexpiredTS, now, null, null,
      store.getCoprocessorHost());
  }

  /** Adds the kept cells of the next row that keeps any; false when no row is left after it. */
  @Override
  public boolean next(List<Cell> result, ScannerContext scannerContext) throws IOException {
    while (rows.hasNext() && !done) {
      if (filterRow(rows.next().toArray(), result)) {
        break;
      }
    }
    return rows.hasNext() && !done;
  }

  private boolean filterRow(Cell[] cells, List<Cell> result) throws IOException {
    if (cells.length == 0) {
      return false;
    }
    int before = result.size();
    matcher.setToNewRow(cells[0]);
    int i = 0;
    while (i < cells.length) {
      Cell c = cells[i];
      switch (matcher.match(c)) {
        case INCLUDE:
          result.add(c);
          i++;
          break;
        case INCLUDE_AND_SEEK_NEXT_COL:
          result.add(c);
          i = seek(cells, i, matcher.getKeyForNextColumn(c));
          break;
        case SEEK_NEXT_COL:
          i = seek(cells, i, matcher.getKeyForNextColumn(c));
          break;
        case INCLUDE_AND_SEEK_NEXT_ROW:
          result.add(c);
          i = cells.length;
          break;
        case SEEK_NEXT_ROW:
        case DONE:
          i = cells.length;
          break;
        case SKIP:
        case SEEK_NEXT_USING_HINT: // a compaction matcher has no filter, so no hint: next cell
          i++;
          break;
        case DONE_SCAN: // never answered during a flush; the StoreScanner would stop the scan
          done = true;
          i = cells.length;
          break;
        default:
          throw new IllegalStateException("unexpected match code for " + c);
      }
    }
    matcher.clearCurrentRow();
    return result.size() > before;
  }

  /** The reseek of a memstore scanner: first cell after {@code i} at or after {@code key}. */
  private int seek(Cell[] cells, int i, Cell key) {
    int j = i + 1;
    while (j < cells.length && cmp.compare(cells[j], key) < 0) {
      j++;
    }
    return j;
  }

  @Override
  public void close() {
    snapshotScanner.close();
  }
}
