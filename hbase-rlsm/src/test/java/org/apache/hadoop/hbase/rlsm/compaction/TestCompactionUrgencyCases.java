package org.apache.hadoop.hbase.rlsm.compaction;

import static org.junit.Assert.assertEquals;

import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
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

/** Compaction priority and pressure from counts: testdata/compaction-urgency. */
@RunWith(Parameterized.class)
@Category({ SmallTests.class, RegionServerTests.class })
public class TestCompactionUrgencyCases {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestCompactionUrgencyCases.class);

  private static final String BLOCKING_KEY = "hbase.hstore.blockingStoreFiles";

  @Parameters(name = "{0}")
  public static List<Object[]> cases() {
    return CaseFile.load("compaction-urgency");
  }

  private final Case c;

  public TestCompactionUrgencyCases(String name, Case c) {
    this.c = c;
  }

  @Test
  public void urgency() {
    c.allowOnly(Set.of(RlsmCompactionConfig.L0_TRIGGER_KEY, RlsmCompactionConfig.MAX_SEGMENTS_KEY,
      BLOCKING_KEY, "level0", "deepest", "work", "priority", "pressure"));
    Configuration conf = new Configuration(false);
    conf.set(RlsmCompactionConfig.L0_TRIGGER_KEY, c.get(RlsmCompactionConfig.L0_TRIGGER_KEY));
    conf.set(RlsmCompactionConfig.MAX_SEGMENTS_KEY, c.get(RlsmCompactionConfig.MAX_SEGMENTS_KEY));
    CompactionUrgency u = new CompactionUrgency(new RlsmCompactionConfig(conf),
      Integer.parseInt(c.get(BLOCKING_KEY)));
    int level0 = Integer.parseInt(c.get("level0"));
    int deepest = Integer.parseInt(c.get("deepest"));
    if (c.has("priority")) {
      assertEquals(c.name(), Integer.parseInt(c.get("priority")),
        u.priority(level0, deepest, c.getBoolean("work")));
    }
    if (c.has("pressure")) {
      assertEquals(c.name(), Double.parseDouble(c.get("pressure")), u.pressure(level0, deepest),
        1e-9);
    }
  }
}
