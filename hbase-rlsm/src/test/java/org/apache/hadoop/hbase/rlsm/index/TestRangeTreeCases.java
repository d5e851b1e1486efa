package org.apache.hadoop.hbase.rlsm.index;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.CaseFile;
import org.apache.hadoop.hbase.rlsm.CaseFile.Case;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/** Range tree lookups and refused layouts as the cases of testdata/range-tree. */
@RunWith(Parameterized.class)
@Category({ SmallTests.class, IOTests.class })
public class TestRangeTreeCases {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRangeTreeCases.class);

  @Parameters(name = "{0}")
  public static List<Object[]> cases() {
    return CaseFile.load("range-tree");
  }

  private final Case c;

  public TestRangeTreeCases(String name, Case c) {
    this.c = c;
  }

  /** The tree's partitions are the case's "low-high" words. */
  private RangeTree<String> tree() {
    return new RangeTree<>(Case.words(c.get("partitions")), p -> Case.range(p)[0],
      p -> Case.range(p)[1]);
  }

  @Test
  public void lookups() {
    c.allowOnly(Set.of("partitions", "find", "floor", "higher", "refused"));
    if (c.has("refused")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, this::tree);
      assertTrue(e.getMessage(), e.getMessage().contains(c.get("refused")));
      return;
    }
    RangeTree<String> t = tree();
    check("find", t::find);
    check("floor", t::floor);
    check("higher", t::higher);
  }

  private void check(String lookup, Function<byte[], String> f) {
    for (String line : c.all(lookup)) {
      String[] keyAnswer = line.split("->");
      String key = keyAnswer[0].strip();
      String got = f.apply(Bytes.toBytes(key));
      assertEquals(lookup + " " + key, keyAnswer[1].strip(), got == null ? "none" : got);
    }
  }
}
