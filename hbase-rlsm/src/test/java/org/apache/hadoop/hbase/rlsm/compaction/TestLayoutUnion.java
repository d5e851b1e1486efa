package org.apache.hadoop.hbase.rlsm.compaction;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.format.PartitionDescriptor;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** {@link LayoutUnion}: the Level-1 of a daughter or merged region from its origins' manifests. */
@Category({ SmallTests.class, RegionServerTests.class })
public class TestLayoutUnion {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestLayoutUnion.class);

  private static final byte[] OPEN = new byte[0];

  private static PartitionDescriptor p(String low, String high, String... segments) {
    return new PartitionDescriptor(Bytes.toBytes(low), Bytes.toBytes(high), List.of(segments));
  }

  /** "origin:[low,high]segments" per partition, in order. */
  private static List<String> show(List<LayoutUnion.Part> parts) {
    List<String> out = new ArrayList<>();
    for (LayoutUnion.Part x : parts) {
      out.add(x.origin + ":[" + Bytes.toString(x.partition.low()) + ","
        + Bytes.toString(x.partition.high()) + "]" + x.partition.segments());
    }
    return out;
  }

  @Test
  public void mergedParentsInterleaveByRange() throws Exception {
    List<LayoutUnion.Part> u = LayoutUnion.union(List.of(
      new LayoutUnion.Layout("B", List.of(p("m", "p", "b1"), p("q", "t", "b2"))),
      new LayoutUnion.Layout("A", List.of(p("a", "c", "a1"), p("d", "k", "a1", "a2")))),
      OPEN, OPEN);
    assertEquals(List.of("A:[a,c][a1]", "A:[d,k][a1, a2]", "B:[m,p][b1]", "B:[q,t][b2]"),
      show(u));
  }

  @Test
  public void daughtersClipTheParentLayoutToTheirRows() throws Exception {
    List<LayoutUnion.Layout> parent = List.of(new LayoutUnion.Layout("P",
      List.of(p("a", "c", "s1"), p("d", "k", "s2"), p("m", "t", "s3"))));
    // lower daughter [start, "e"): the partition across "e" keeps its high bound (rows at or
    // above "e" are invisible through the half-file reader)
    assertEquals(List.of("P:[a,c][s1]", "P:[d,k][s2]"),
      show(LayoutUnion.union(parent, OPEN, Bytes.toBytes("e"))));
    // upper daughter ["e", end): the partition across "e" starts at "e"
    assertEquals(List.of("P:[e,k][s2]", "P:[m,t][s3]"),
      show(LayoutUnion.union(parent, Bytes.toBytes("e"), OPEN)));
    // a partition ending exactly below the start is dropped; one starting at the end too
    assertEquals(List.of("P:[m,t][s3]"),
      show(LayoutUnion.union(parent, Bytes.toBytes("l"), Bytes.toBytes("z"))));
    assertEquals(List.of("P:[a,c][s1]"),
      show(LayoutUnion.union(parent, OPEN, Bytes.toBytes("d"))));
  }

  @Test
  public void overlappingOriginsAreRefused() {
    try {
      LayoutUnion.union(List.of(new LayoutUnion.Layout("A", List.of(p("a", "k", "a1"))),
        new LayoutUnion.Layout("B", List.of(p("k", "t", "b1")))), OPEN, OPEN);
      fail("overlap accepted");
    } catch (LayoutUnion.OverlapException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("region A")
        && e.getMessage().contains("region B") && e.getMessage().contains("[k, t]"));
    }
  }
}
