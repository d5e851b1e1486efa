package org.apache.hadoop.hbase.rlsm.tool;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.FixedFileTrailer;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.rlsm.file.V2Files;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.ManifestRecord;
import org.apache.hadoop.hbase.rlsm.format.PartitionDescriptor;
import org.apache.hadoop.hbase.rlsm.format.PartitionStats;
import org.apache.hadoop.hbase.rlsm.format.V2FileInfo;
import org.apache.hadoop.hbase.rlsm.index.RowQuantiles;
import org.apache.hadoop.hbase.rlsm.index.RowSketch;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The {@code rlsm-dump} output of a format-v2 file (an HFile): HBase's trailer summary, the
 * file-info (RLSM entries decoded, the manifest's partitions listed), the row quantiles' meta
 * block and the cells in key order (the first N, or one row). Damage surfaces as the typed
 * errors of {@link V2Files}.
 */
@InterfaceAudience.Private
final class V2Dump {
  private V2Dump() {
  }

  static void print(FileSystem fs, Path p, Configuration conf, PrintStream out, long records,
    String row, int maxValue) throws IOException {
    Map<byte[], byte[]> info = V2Files.fileInfo(fs, p, conf);
    try (HFile.Reader r = HFile.createReader(fs, p, CacheConfig.DISABLED, true, conf)) {
      FixedFileTrailer t = r.getTrailer();
      FileRole role = V2FileInfo.role(p.toString(), t.getLoadOnOpenDataOffset(),
        info.get(V2FileInfo.ROLE));
      out.println("file      " + p);
      out.println("format    v2 (HFile v" + t.getMajorVersion() + "." + t.getMinorVersion()
        + ")" + (role == null ? ", not written by RLSM" : ", role " + role));
      out.println("cells     " + r.getEntries() + ", data index levels "
        + t.getNumDataIndexLevels() + ", load-on-open at " + t.getLoadOnOpenDataOffset()
        + ", compression " + r.getFileContext().getCompression() + ", encoding "
        + r.getFileContext().getDataBlockEncoding() + ", encrypted "
        + (r.getFileContext().getEncryptionContext().getKey() != null));
      out.println("file-info");
      for (Map.Entry<byte[], byte[]> e : info.entrySet()) {
        out.println("  " + Bytes.toString(e.getKey()) + " = " + value(p, e.getKey(), e.getValue()));
      }
      RowQuantiles q = V2Files.quantiles(p.toString(), r, false);
      if (q != null) {
        out.println("meta block " + V2FileInfo.ROW_QUANTILES_BLOCK + " = " + quantiles(q));
      }
      printCells(r, conf, out, records, row, maxValue);
    }
  }

  private static String range(byte[] low, byte[] high) {
    return "\n    [" + Bytes.toStringBinary(low) + ", " + Bytes.toStringBinary(high) + "]";
  }

  /** A row sketch as its count: exact, or "~" and HyperLogLog's estimate. */
  private static String sketch(Path p, byte[] v) throws IOException {
    RowSketch s = RowSketch.decode(p.toString(), -1, v);
    return (s.isExact() ? "" : "~") + s.estimate() + " distinct rows";
  }

  private static String quantiles(RowQuantiles q) {
    StringBuilder b = new StringBuilder().append(q.buckets().size()).append(" buckets");
    for (RowQuantiles.Bucket bucket : q.buckets()) {
      b.append("\n    up to ").append(Bytes.toStringBinary(bucket.last())).append(": ")
        .append(bucket.rows()).append(" rows");
    }
    return b.toString();
  }

  private static String value(Path p, byte[] key, byte[] v) throws IOException {
    if (Bytes.equals(key, V2FileInfo.ROLE)) {
      return String.valueOf(V2FileInfo.role(p.toString(), -1, v));
    }
    if (Bytes.equals(key, V2FileInfo.MANIFEST_PARTITIONS)) {
      StringBuilder b = new StringBuilder();
      for (PartitionDescriptor d : V2FileInfo.partitions(p.toString(), -1, v)) {
        b.append(range(d.low(), d.high())).append(' ').append(d.segments());
      }
      return b.toString();
    }
    if (Bytes.equals(key, V2FileInfo.MANIFEST_REMOVED)) {
      StringBuilder b = new StringBuilder();
      for (byte[][] r : ManifestRecord.decodeRanges(p.toString(), -1, v)) {
        b.append(range(r[0], r[1]));
      }
      return b.toString();
    }
    if (Bytes.equals(key, V2FileInfo.ROW_SKETCH)) {
      return sketch(p, v);
    }
    if (Bytes.equals(key, V2FileInfo.ROW_QUANTILES)) {
      return quantiles(RowQuantiles.decode(p.toString(), -1, v));
    }
    if (Bytes.equals(key, V2FileInfo.MANIFEST_STATS)) {
      StringBuilder b = new StringBuilder();
      int n = v.length < Bytes.SIZEOF_INT ? 0 : Bytes.toInt(v);
      for (PartitionStats s : PartitionStats.decodeList(p.toString(), -1, v, n)) {
        b.append("\n    ").append(s == null ? "unknown"
          : s.entries() + " entries, " + s.bytes() + " bytes, " + sketch(p, s.sketch()));
      }
      return b.toString();
    }
    if (v.length == Bytes.SIZEOF_LONG) {
      return Long.toString(Bytes.toLong(v));
    }
    if (v.length == Bytes.SIZEOF_SHORT) {
      return Short.toString(Bytes.toShort(v));
    }
    return Bytes.toStringBinary(v, 0, Math.min(v.length, 64)) + (v.length > 64 ? "..." : "");
  }

  private static void printCells(HFile.Reader r, Configuration conf, PrintStream out,
    long records, String row, int maxValue) throws IOException {
    try (HFileScanner s = r.getScanner(conf, false, true)) {
      byte[] key = row == null ? null : Bytes.toBytesBinary(row);
      boolean positioned;
      if (key == null) {
        positioned = s.seekTo();
      } else {
        // -1: before the first cell; 1: on the last cell before the key
        int at = s.seekTo(PrivateCellUtil.createFirstOnRow(key));
        positioned = at == -1 ? s.seekTo() : (at == 0 || s.next());
      }
      long n = 0;
      out.println(key == null ? "cells in key order" : "row " + row);
      while (positioned && (records < 0 || n < records || key != null)) {
        Cell c = s.getCell();
        if (key != null && !CellUtil.matchingRows(c, key)) {
          break;
        }
        int vlen = c.getValueLength();
        out.println("  " + Bytes.toStringBinary(CellUtil.cloneRow(c)) + " "
          + Bytes.toStringBinary(CellUtil.cloneQualifier(c)) + " " + c.getType() + " ts "
          + c.getTimestamp() + " seq " + c.getSequenceId() + " value "
          + Bytes.toStringBinary(c.getValueArray(), c.getValueOffset(), Math.min(vlen, maxValue))
          + (vlen > maxValue ? "... (" + vlen + " bytes)" : ""));
        n++;
        positioned = s.next();
      }
      if (key != null && n == 0) {
        out.println("row " + row + " is not in this file");
      }
    }
  }
}
