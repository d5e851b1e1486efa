package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestRows;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Region-level tests' Level-1 layouts of several small partitions, some sharing segments (index
 * splits): a family with a 64 KiB partition split size, no partition merges and at most 4
 * segments a partition, loaded in rounds of overlapping flushes each followed by compactions
 * until the planner has no work.
 */
final class RlsmLayouts {
  static final byte[] F = Bytes.toBytes("f");
  static final byte[] Q = Bytes.toBytes("q");
  private static final byte[] PAD = Bytes.toBytes("x".repeat(100));

  private RlsmLayouts() {
  }

  static TableDescriptor smallPartitions(String table) {
    return smallPartitions(table, Compression.Algorithm.NONE);
  }

  /** As {@link #smallPartitions(String)}, with the family's {@code COMPRESSION}. */
  static TableDescriptor smallPartitions(String table, Compression.Algorithm compression) {
    return RlsmTables.configure(TableDescriptorBuilder.newBuilder(TableName.valueOf(table)))
      .setColumnFamily(RlsmTables.familyBuilder(F).setCompressionType(compression)
        .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(64 * 1024))
        .setConfiguration(RlsmCompactionConfig.MERGE_BYTES_KEY, "0")
        .setConfiguration(RlsmCompactionConfig.MAX_SEGMENTS_KEY, "4").build())
      .build();
  }

  /** Whether a segment of {@code state} belongs to two partitions (left by an index split). */
  static boolean sharesSegments(RlsmStoreFileManager.State state) {
    return state.partitions.stream().anyMatch(p -> p.segments.stream().anyMatch(
      seg -> state.partitions.stream().anyMatch(o -> o != p && o.segments.contains(seg))));
  }

  static void compactUntilSettled(HRegion r) throws IOException {
    for (int i = 0; i < 50 && r.getStore(F).getStoreEngine().needsCompaction(List.of()); i++) {
      r.compact(false);
    }
  }

  /** How a test works off the compactions a round of flushes calls for. */
  interface Settling {
    void settle(HRegion r) throws IOException;
  }

  /** {@code rounds} rounds of three overlapping flushes of rows around 0..1200+150*round. */
  static void load(HRegion r, int rounds) throws IOException {
    load(r, rounds, RlsmLayouts::compactUntilSettled);
  }

  /** As {@link #load(HRegion, int)}, each round settled by {@code settling}. */
  static void load(HRegion r, int rounds, Settling settling) throws IOException {
    for (int round = 0; round < rounds; round++) {
      for (int f = 0; f < 3; f++) {
        int step = 1 + (round + f) % 4;
        for (int i = round * 150 + f; i < 1200 + round * 150; i += step) {
          r.put(new Put(RlsmTestRows.row(i)).addColumn(F, Q, value(i, round)));
        }
        r.flush(true);
      }
      settling.settle(r);
    }
  }

  private static byte[] value(int i, int round) {
    return Bytes.add(RlsmTestRows.value(i), Bytes.toBytes("/" + round), PAD);
  }

  /**
   * A full scan of {@code r} after {@link #load} of {@code rounds} rounds returns every row the
   * load wrote, once, with the value of the last round that wrote it.
   */
  static void assertNewestValues(HRegion r, int rounds) throws IOException {
    TreeMap<Integer, Integer> newest = new TreeMap<>(); // row index -> last round writing it
    for (int round = 0; round < rounds; round++) {
      for (int f = 0; f < 3; f++) {
        int step = 1 + (round + f) % 4;
        for (int i = round * 150 + f; i < 1200 + round * 150; i += step) {
          newest.put(i, round);
        }
      }
    }
    TreeMap<byte[], byte[]> expected = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    newest.forEach((i, round) -> expected.put(RlsmTestRows.row(i), value(i, round)));
    List<Cell> cells = new ArrayList<>();
    try (RegionScanner s = r.getScanner(new Scan())) {
      boolean more;
      do {
        more = s.next(cells);
      } while (more);
    }
    assertEquals("rows a full scan returned", expected.size(), cells.size());
    for (Cell c : cells) {
      byte[] row = CellUtil.cloneRow(c);
      assertArrayEquals(Bytes.toStringBinary(row), expected.get(row), CellUtil.cloneValue(c));
    }
  }
}
