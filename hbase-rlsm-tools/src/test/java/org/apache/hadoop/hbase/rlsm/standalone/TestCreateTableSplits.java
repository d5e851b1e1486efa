package org.apache.hadoop.hbase.rlsm.standalone;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.tool.ToolSupport;
import org.apache.hadoop.hbase.testclassification.MiscTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.RegionSplitter;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** bin/create-table's pre-split options: --splits, --regions and --split-algo. */
@Category({ SmallTests.class, MiscTests.class })
public class TestCreateTableSplits {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestCreateTableSplits.class);

  private static final List<String> VALUED = Arrays.asList("--splits", "--regions", "--split-algo");

  private static byte[][] splits(String... argv) throws ToolSupport.UsageException {
    return CreateTable.splitKeys(new ToolSupport.Args(argv, List.of(), VALUED));
  }

  @Test
  public void splitKeysAndRegionCounts() throws Exception {
    assertNull(splits());
    byte[][] keys = splits("--splits", "g,m,\\x00t");
    assertEquals(3, keys.length);
    assertArrayEquals(Bytes.toBytes("g"), keys[0]);
    assertArrayEquals(new byte[] { 0, 't' }, keys[2]);
    byte[][] hex = splits("--regions", "4");
    assertEquals(3, hex.length);
    assertArrayEquals(new RegionSplitter.HexStringSplit().split(4), hex);
    assertArrayEquals(new RegionSplitter.UniformSplit().split(5),
      splits("--regions", "5", "--split-algo", "UniformSplit"));
  }

  @Test
  public void badCombinationsAreUsageErrors() {
    for (String[] argv : new String[][] { { "--splits", "a", "--regions", "3" },
      { "--split-algo", "UniformSplit" }, { "--regions", "1" },
      { "--regions", "3", "--split-algo", "NoSuchSplit" } }) {
      try {
        splits(argv);
        fail("accepted " + Arrays.toString(argv));
      } catch (ToolSupport.UsageException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("--"));
      }
    }
  }
}
