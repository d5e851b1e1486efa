package org.apache.hadoop.hbase.rlsm.compaction;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.CaseFile;
import org.apache.hadoop.hbase.rlsm.CaseFile.Case;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/** Median selection over sorted, reversed and other adversarial inputs: testdata/quickselect. */
@RunWith(Parameterized.class)
@Category({ SmallTests.class, RegionServerTests.class })
public class TestQuickselectCases {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestQuickselectCases.class);

  @Parameters(name = "{0}")
  public static List<Object[]> cases() {
    return CaseFile.load("quickselect");
  }

  private final Case c;

  public TestQuickselectCases(String name, Case c) {
    this.c = c;
  }

  private Integer[] input() {
    if (c.has("values")) {
      return Case.words(c.get("values")).stream().map(Integer::valueOf).toArray(Integer[]::new);
    }
    int n = Integer.parseInt(c.get("n"));
    switch (c.get("shape")) {
      case "sorted":
        return TestQuickselectPartitioner.make(n, i -> i);
      case "reversed":
        return TestQuickselectPartitioner.make(n, i -> n - i);
      case "all-equal":
        return TestQuickselectPartitioner.make(n, i -> 7);
      case "organ-pipe":
        return TestQuickselectPartitioner.make(n, i -> Math.min(i, n - i));
      default:
        throw new IllegalArgumentException("unknown shape " + c.get("shape"));
    }
  }

  @Test
  public void select() {
    c.allowOnly(Set.of("values", "shape", "n", "select"));
    Integer[] input = input();
    for (String rankElement : Case.words(c.get("select"))) {
      String[] re = rankElement.split("->");
      int rank = Integer.parseInt(re[0]);
      if (re[1].equals("refused")) {
        assertThrows(IllegalArgumentException.class,
          () -> TestQuickselectPartitioner.select(c.name(), input, rank));
      } else {
        assertEquals(c.name() + " rank " + rank, Integer.valueOf(re[1]),
          TestQuickselectPartitioner.select(c.name(), input, rank));
      }
    }
  }
}
