package org.apache.hadoop.hbase.rlsm.tool;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.format.FileMeta;
import org.apache.hadoop.hbase.rlsm.format.PartitionDescriptor;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.rlsm.format.RlsmFileFormat;
import org.apache.hadoop.hbase.rlsm.format.Trailer;
import org.apache.hadoop.hbase.rlsm.index.HashIndex;
import org.apache.hadoop.hbase.rlsm.index.SortedRowView;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * {@code bin/rlsm-dump FILE}: prints an RLSM file of any role (Level-0 flush file, Level-1
 * segment, manifest). Format v2 (an HFile): see {@link V2Dump}. Format v1: trailer, sections,
 * meta map (with the manifest's partitions decoded), index and Bloom summary and the records. Exit code 0; 1 when the file is corrupt (the typed
 * error, naming file and offset, is printed); 2 for a bad command line or unreadable path.
 */
@InterfaceAudience.Private
public final class RlsmDump {
  private static final String USAGE = "usage: rlsm-dump [--records N] [--sorted] [--row ROW]"
    + " [--max-value BYTES] FILE\n"
    + "  --records N       print the first N records (default 20; -1 all, 0 none)\n"
    + "  --sorted          records in row order instead of file (hash) order\n"
    + "  --row ROW         print only this row (Bytes.toStringBinary syntax)\n"
    + "  --max-value BYTES cut printed values after this many bytes (default 64)";

  private RlsmDump() {
  }

  static int run(String[] argv, Configuration conf, PrintStream out, PrintStream err) {
    ToolSupport.Args args;
    long records;
    int maxValue;
    try {
      args = new ToolSupport.Args(argv, List.of("--sorted"),
        List.of("--records", "--row", "--max-value"));
      if (args.positional().size() != 1) {
        throw new ToolSupport.UsageException("need exactly one file");
      }
      records = args.getLong("--records", 20);
      maxValue = (int) args.getLong("--max-value", 64);
    } catch (ToolSupport.UsageException e) {
      err.println(e.getMessage());
      err.println(USAGE);
      return RlsmVerify.EXIT_USAGE;
    }
    Path p = new Path(args.positional().get(0));
    try {
      FileSystem fs = p.getFileSystem(conf);
      if (!RlsmFileFormat.isRlsmFileElseHFile(fs, p)) {
        V2Dump.print(fs, p, conf, out, records, args.get("--row", null), maxValue);
        return RlsmVerify.EXIT_CLEAN;
      }
      try (RlsmFileReader r = RlsmFileReader.open(fs, p)) {
        header(r, out);
        String row = args.get("--row", null);
        if (row != null) {
          byte[] key = Bytes.toBytesBinary(row);
          KeyValue[] cells = r.readRow(key, 0, key.length);
          if (cells == null) {
            out.println("row " + row + " is not in this file");
          } else {
            printRecord(out, r.index().find(key, 0, key.length), r, cells, maxValue);
          }
        } else {
          printRecords(r, out, records, args.has("--sorted"), maxValue);
        }
        return RlsmVerify.EXIT_CLEAN;
      }
    } catch (RlsmCorruptionException e) {
      out.flush();
      err.println(e.getMessage());
      return RlsmVerify.EXIT_DAMAGE;
    } catch (IOException e) {
      err.println("cannot read " + p + ": " + e);
      return RlsmVerify.EXIT_USAGE;
    }
  }

  private static void header(RlsmFileReader r, PrintStream out) throws IOException {
    Trailer t = r.trailer();
    out.println("file      " + r.getPath() + " (" + r.length() + " bytes)");
    out.println("role      " + t.role() + ", level " + t.role().level() + ", format version "
      + Trailer.VERSION);
    out.println("trailer   at " + (r.length() - Trailer.ENCODED_LENGTH) + ", "
      + Trailer.ENCODED_LENGTH + " bytes");
    out.println("sections  data " + t.data() + "\n          index " + t.index()
      + "\n          bloom " + t.bloom() + "\n          meta  " + t.meta());
    out.println("seqid     max " + t.maxSequenceId() + ", max memstore ts " + t.maxMemstoreTs());
    out.println("time      [" + t.minTimestamp() + ", " + t.maxTimestamp() + "]");
    out.println("counts    rows " + t.rowCount() + ", cells " + t.cellCount());
    out.println("meta      " + r.meta().asMap().size() + " entries");
    for (Map.Entry<String, byte[]> e : r.meta().asMap().entrySet()) {
      out.println("  " + e.getKey() + " = " + metaValue(r, e.getKey(), e.getValue()));
    }
    HashIndex idx = r.index();
    out.println("index     " + idx.size() + " entries"
      + (idx.size() == 0 ? "" : ", first row " + Bytes.toStringBinary(r.firstRow())
        + ", last row " + Bytes.toStringBinary(r.lastRow())));
    out.println("bloom     " + (r.bloom() == null ? "none"
      : r.bloom().numBits() + " bits, " + r.bloom().numProbes() + " probes"));
  }

  private static String metaValue(RlsmFileReader r, String key, byte[] v) throws IOException {
    String file = r.getPath().toString();
    switch (key) {
      case FileMeta.FAMILY:
      case FileMeta.FIRST_ROW:
      case FileMeta.LAST_ROW:
        return Bytes.toStringBinary(v);
      case FileMeta.CREATED_MS:
      case FileMeta.DELETE_FAMILY_COUNT:
      case FileMeta.MANIFEST_GENERATION:
        return Long.toString(r.meta().getLong(key, -1));
      case FileMeta.COMPACTED_FILES:
        return r.meta().getStringList(file, key).toString();
      case FileMeta.MANIFEST_PARTITIONS:
        StringBuilder sb = new StringBuilder();
        List<PartitionDescriptor> parts =
          PartitionDescriptor.decodeList(file, r.trailer().meta().offset(), v);
        sb.append(parts.size()).append(" partitions");
        for (PartitionDescriptor p : parts) {
          sb.append("\n    [").append(Bytes.toStringBinary(p.low())).append(", ")
            .append(Bytes.toStringBinary(p.high())).append("] ").append(p.segments());
        }
        return sb.toString();
      default:
        return v.length + " bytes: " + new String(v, 0, Math.min(v.length, 64),
          StandardCharsets.ISO_8859_1);
    }
  }

  private static void printRecords(RlsmFileReader r, PrintStream out, long records,
    boolean sorted, int maxValue) throws IOException {
    HashIndex idx = r.index();
    long n = records < 0 ? idx.size() : Math.min(records, idx.size());
    out.println("records   " + n + " of " + idx.size() + (sorted ? " in row order"
      : " in file (hash) order"));
    SortedRowView view = sorted ? r.sortedView() : null;
    for (int i = 0; i < n; i++) {
      int e = sorted ? view.entry(i) : i;
      printRecord(out, e, r, r.readEntry(e), maxValue);
    }
  }

  private static void printRecord(PrintStream out, int e, RlsmFileReader r, KeyValue[] cells,
    int maxValue) {
    HashIndex idx = r.index();
    out.println("  @" + idx.offset(e) + " len " + idx.length(e) + " row "
      + Bytes.toStringBinary(idx.row(e)) + " (" + cells.length + " cells)");
    for (KeyValue kv : cells) {
      int vlen = kv.getValueLength();
      out.println("    " + Bytes.toStringBinary(kv.getQualifierArray(), kv.getQualifierOffset(),
        kv.getQualifierLength()) + " " + KeyValue.Type.codeToType(kv.getTypeByte()) + " ts "
        + kv.getTimestamp() + " seq " + kv.getSequenceId() + " value "
        + Bytes.toStringBinary(kv.getValueArray(), kv.getValueOffset(), Math.min(vlen, maxValue))
        + (vlen > maxValue ? "... (" + vlen + " bytes)" : ""));
    }
  }

  public static void main(String[] argv) {
    System.exit(run(argv, ToolSupport.clientConf(), System.out, System.err));
  }
}
