package org.apache.hadoop.hbase.rlsm.compaction;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;

/** The paper's placement rules as data-driven cases, Figure 3.4 first. */
public class TestRowPlacement {
  private static byte[] k(int v) {
    return Bytes.toBytes(String.format("%02d", v));
  }

  private static byte[][] keys(int... v) {
    byte[][] out = new byte[v.length][];
    for (int i = 0; i < v.length; i++) {
      out[i] = k(v[i]);
    }
    return out;
  }

  /** Describes ranges as "[lo-hi]" / "[lo-hi]new" and row targets as indexes. */
  private static String run(int[][] ranges, int[] rows, int minRows) {
    byte[][] lows = new byte[ranges.length][];
    byte[][] highs = new byte[ranges.length][];
    for (int i = 0; i < ranges.length; i++) {
      lows[i] = k(ranges[i][0]);
      highs[i] = k(ranges[i][1]);
    }
    RowPlacement p = RowPlacement.place(lows, highs, keys(rows), minRows);
    List<String> out = new ArrayList<>();
    for (RowPlacement.Range r : p.ranges()) {
      out.add("[" + Bytes.toString(r.low) + "-" + Bytes.toString(r.high) + "]"
        + (r.existing < 0 ? "new" : ""));
    }
    StringBuilder t = new StringBuilder();
    for (int i = 0; i < rows.length; i++) {
      t.append(rows[i]).append("->").append(p.target(i)).append(' ');
    }
    return String.join(",", out) + " | " + t.toString().trim();
  }

  @Test
  public void figure34() {
    // Victims {4,7,11,15} with Level-1 files [1-8] and [10-17]: 4,7 -> [1-8]; 11,15 -> [10-17].
    assertEquals("[01-08],[10-17] | 4->0 7->0 11->1 15->1",
      run(new int[][] { { 1, 8 }, { 10, 17 } }, new int[] { 4, 7, 11, 15 }, 2));
    // Then {9,18,23}: 9 widens [10-17] to [9-17]; 18 and 23 create a new file [18-23].
    assertEquals("[01-08],[09-17],[18-23]new | 9->1 18->2 23->2",
      run(new int[][] { { 1, 8 }, { 10, 17 } }, new int[] { 9, 18, 23 }, 2));
  }

  @Test
  public void emptyLevelOneFormsTheFirstPartition() {
    assertEquals("[03-40]new | 3->0 12->0 40->0", run(new int[0][], new int[] { 3, 12, 40 }, 2));
    assertEquals("[05-05]new | 5->0", run(new int[0][], new int[] { 5 }, 2));
  }

  @Test
  public void loneRowsWidenTheNextPartitionOrTheLastOne() {
    assertEquals("[02-10],[20-30] | 2->0", run(new int[][] { { 5, 10 }, { 20, 30 } },
      new int[] { 2 }, 2));
    assertEquals("[05-10],[20-35] | 35->1", run(new int[][] { { 5, 10 }, { 20, 30 } },
      new int[] { 35 }, 2));
    assertEquals("[05-10],[12-30] | 12->1", run(new int[][] { { 5, 10 }, { 20, 30 } },
      new int[] { 12 }, 2));
  }

  @Test
  public void severalRowsInOneGapStartAPartitionPerGap() {
    assertEquals("[01-02]new,[05-10],[12-15]new,[20-30] | 1->0 2->0 6->1 12->2 15->2 25->3",
      run(new int[][] { { 5, 10 }, { 20, 30 } }, new int[] { 1, 2, 6, 12, 15, 25 }, 2));
    // A higher threshold widens instead.
    assertEquals("[05-10],[12-30] | 12->1 15->1", run(new int[][] { { 5, 10 }, { 20, 30 } },
      new int[] { 12, 15 }, 3));
  }
}
