package org.apache.hadoop.hbase.rlsm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Row keys and values for tests that write numbered rows: keys sort in number order (zero-padded
 * to six digits), and each value names its row and differs from every other, so a row read back
 * under the wrong key or from the wrong version shows.
 */
public final class RlsmTestRows {
  private RlsmTestRows() {
  }

  /** {@code row000042} for 42. */
  public static byte[] row(int i) {
    return Bytes.toBytes(String.format(Locale.ROOT, "row%06d", i));
  }

  /** A value unique to row {@code i}. */
  public static byte[] value(int i) {
    return Bytes.toBytes("value-" + i + "-" + Integer.toHexString(i * 31 + 7));
  }

  /** Every cell {@code scan} returns from region {@code r}, in scan order. */
  public static List<Cell> cells(Region r, Scan scan) throws IOException {
    List<Cell> all = new ArrayList<>();
    try (RegionScanner s = r.getScanner(scan)) {
      List<Cell> row = new ArrayList<>();
      boolean more;
      do {
        more = s.next(row);
        all.addAll(row);
        row.clear();
      } while (more);
    }
    return all;
  }
}
