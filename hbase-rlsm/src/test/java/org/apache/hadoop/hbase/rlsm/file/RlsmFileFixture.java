package org.apache.hadoop.hbase.rlsm.file;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.ArrayBackedTag;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.Tag;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.util.Bytes;

/** Builds RLSM files from known cells on the raw local file system (no Hadoop CRC files). */
public final class RlsmFileFixture {
  public static final byte[] FAMILY = Bytes.toBytes("f");

  public final FileSystem fs;
  public final Path dir;

  public RlsmFileFixture(String name) throws IOException {
    fs = FileSystem.getLocal(new Configuration()).getRawFileSystem();
    dir =
      new Path(new File("target/test-data/" + name + "-" + System.nanoTime()).getAbsolutePath());
    fs.mkdirs(dir);
  }

  /** Random rows with 1-4 cells each, several types, versions, tags and sequence ids. */
  public static TreeMap<byte[], List<Cell>> randomRows(Random rnd, int rows) {
    TreeMap<byte[], List<Cell>> out = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    while (out.size() < rows) {
      byte[] row = new byte[1 + rnd.nextInt(24)];
      rnd.nextBytes(row);
      List<Cell> cells = new ArrayList<>();
      int n = 1 + rnd.nextInt(4);
      for (int i = 0; i < n; i++) {
        byte[] q = Bytes.toBytes("q" + rnd.nextInt(3));
        byte[] v = new byte[rnd.nextInt(200)];
        rnd.nextBytes(v);
        KeyValue.Type type = rnd.nextInt(6) == 0 ? KeyValue.Type.DeleteColumn : KeyValue.Type.Put;
        List<Tag> tags = new ArrayList<>();
        if (rnd.nextInt(5) == 0) {
          tags.add(new ArrayBackedTag((byte) 1, Bytes.toBytes("ttl" + i)));
        }
        KeyValue kv = new KeyValue(row, 0, row.length, FAMILY, 0, FAMILY.length, q, 0, q.length,
          1000L + rnd.nextInt(1000), type, v, 0, v.length, tags);
        kv.setSequenceId(1 + rnd.nextInt(100_000));
        cells.add(kv);
      }
      cells.sort(CellComparator.getInstance());
      out.put(row, cells);
    }
    return out;
  }

  /** Same key, type, value, tags and sequence id. */
  public static boolean sameCell(Cell a, Cell b) {
    return CellUtil.equals(a, b) && a.getTypeByte() == b.getTypeByte()
      && CellUtil.matchingValue(a, b) && a.getSequenceId() == b.getSequenceId()
      && Bytes.equals(a.getTagsArray(), a.getTagsOffset(), a.getTagsLength(), b.getTagsArray(),
        b.getTagsOffset(), b.getTagsLength());
  }

  public Path write(String name, TreeMap<byte[], List<Cell>> rows, FileRole role, double fpp,
    long maxSeqId) throws IOException {
    Path p = new Path(dir, name);
    RlsmFileWriter w = new RlsmFileWriter(fs, p, FAMILY, role, fpp);
    for (List<Cell> cells : rows.values()) {
      for (Cell c : cells) {
        w.append(c);
      }
    }
    w.finish(maxSeqId);
    return p;
  }
}
