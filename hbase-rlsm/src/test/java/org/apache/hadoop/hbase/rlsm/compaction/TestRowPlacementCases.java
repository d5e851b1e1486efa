package org.apache.hadoop.hbase.rlsm.compaction;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.CaseFile;
import org.apache.hadoop.hbase.rlsm.CaseFile.Case;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/** The RLSM paper's placement rules (docs/design.md), Figure 3.4 first, as row-placement cases. */
@RunWith(Parameterized.class)
@Category({ SmallTests.class, RegionServerTests.class })
public class TestRowPlacementCases {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRowPlacementCases.class);

  @Parameters(name = "{0}")
  public static List<Object[]> cases() {
    return CaseFile.load("row-placement");
  }

  private final Case c;

  public TestRowPlacementCases(String name, Case c) {
    this.c = c;
  }

  @Test
  public void placement() {
    c.allowOnly(Set.of("partitions", "rows", "new-partition-min-rows", "ranges", "targets"));
    List<String> partitions = Case.words(c.get("partitions"));
    byte[][] lows = new byte[partitions.size()][];
    byte[][] highs = new byte[partitions.size()][];
    for (int i = 0; i < partitions.size(); i++) {
      byte[][] range = Case.range(partitions.get(i));
      lows[i] = range[0];
      highs[i] = range[1];
    }
    List<String> rows = Case.words(c.get("rows"));
    RowPlacement p = RowPlacement.place(lows, highs, Case.keys(rows),
      Integer.parseInt(c.get("new-partition-min-rows")));

    List<String> ranges = new ArrayList<>();
    for (RowPlacement.Range r : p.ranges()) {
      ranges.add("[" + Bytes.toString(r.low) + "-" + Bytes.toString(r.high) + "]"
        + (r.existing < 0 ? "new" : ""));
    }
    List<String> targets = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      targets.add(rows.get(i) + "->" + p.target(i));
    }
    assertEquals("ranges", Case.words(c.get("ranges")), ranges);
    assertEquals("targets", Case.words(c.get("targets")), targets);
  }
}
