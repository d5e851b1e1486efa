package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.List;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * A Level-1 segment as one read or compaction sees it: the segment's rows inside the ranges of
 * the partitions listing it, in the layout the read started from. A segment shared by several
 * partitions (after an index split) holds superseded rows outside those ranges, which must stay
 * invisible. A v1 file scans through its own ranged scanner, a v2 file through HBase's scanner,
 * wrapped in {@link RlsmRangeScanner} when there are ranges to keep to. Compactions pass ranges;
 * reads pass none, since {@link RlsmChainScanner} keeps a partition's merged segments inside its
 * range itself.
 */
@InterfaceAudience.Private
final class RlsmSegmentView {
  private RlsmSegmentView() {
  }

  /**
   * A scanner over {@code file}'s rows inside {@code ranges} (null: all its rows), for reads and
   * compactions.
   */
  static StoreFileScanner scanner(HStoreFile file, List<byte[][]> ranges, boolean pread,
    boolean cacheBlocks, boolean isCompaction, long readPt, long scannerOrder) throws IOException {
    file.initReader();
    if (file instanceof RlsmStoreFile) {
      return ((RlsmStoreFile) file).getScanner(!isCompaction, readPt, scannerOrder, ranges);
    }
    StoreFileScanner s = pread
      ? file.getPreadScanner(cacheBlocks, readPt, scannerOrder, false)
      : file.getStreamScanner(false, cacheBlocks, isCompaction, readPt, scannerOrder, false);
    return ranges == null ? s : new RlsmRangeScanner(s, ranges, scannerOrder);
  }
}
