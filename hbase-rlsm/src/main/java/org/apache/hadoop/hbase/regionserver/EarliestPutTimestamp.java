package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.Collection;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeepDeletedCells;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The earliest put timestamp of a purging rewrite's inputs, which HBase's compaction scanner
 * needs to purge as HBase's major compaction does: a delete marker older than every put can mask
 * nothing, so it is dropped even when the family keeps deleted cells ({@code KEEP_DELETED_CELLS}
 * TRUE, or TTL with the marker not yet expired). HBase's {@code Compactor} reads the value from
 * each file's {@code EARLIEST_PUT_TS} file-info entry; a file that does not record it (RLSM files
 * of format 1) is read once here instead. A plan's inputs are whole files, a superset of the
 * rewritten ranges, so the result is a lower bound of the earliest put there: safe, never a
 * marker dropped that could still mask a put.
 */
@InterfaceAudience.Private
final class EarliestPutTimestamp {
  private EarliestPutTimestamp() {
  }

  /**
   * The value to hand the compaction scanner of a rewrite that drops delete markers; when the
   * family does not keep deleted cells the scanner never asks, and nothing is read.
   */
  static long of(Collection<HStoreFile> inputs, ScanInfo scanInfo, long readPoint)
    throws IOException {
    if (scanInfo.getKeepDeletedCells() == KeepDeletedCells.FALSE) {
      return HConstants.OLDEST_TIMESTAMP;
    }
    long earliest = HConstants.LATEST_TIMESTAMP;
    for (HStoreFile f : inputs) {
      byte[] recorded = f.getMetadataValue(HStoreFile.EARLIEST_PUT_TS);
      earliest = Math.min(earliest, recorded != null ? Bytes.toLong(recorded) : read(f, readPoint));
    }
    return earliest;
  }

  private static long read(HStoreFile f, long readPoint) throws IOException {
    long earliest = HConstants.LATEST_TIMESTAMP;
    StoreFileScanner s = f.getStreamScanner(false, false, true, readPoint, 0, false);
    try {
      s.seek(KeyValue.LOWESTKEY);
      for (Cell c = s.next(); c != null; c = s.next()) {
        if (c.getTypeByte() == KeyValue.Type.Put.getCode()) {
          earliest = Math.min(earliest, c.getTimestamp());
        }
      }
    } finally {
      s.close();
    }
    return earliest;
  }
}
