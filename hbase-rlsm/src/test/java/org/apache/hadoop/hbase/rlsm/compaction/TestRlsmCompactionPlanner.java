package org.apache.hadoop.hbase.rlsm.compaction;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan.Kind;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig.SplitMode;
import org.apache.hadoop.hbase.rlsm.index.RangeTree;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;

public class TestRlsmCompactionPlanner {
  private static byte[] k(int v) {
    return Bytes.toBytes(String.format("%04d", v));
  }

  private final Map<String, byte[][]> rows = new HashMap<>();
  private final RowSource source = (name, low, high) -> {
    List<byte[]> out = new ArrayList<>();
    for (byte[] r : rows.get(name)) {
      if ((low == null || Bytes.compareTo(r, low) >= 0)
        && (high == null || Bytes.compareTo(r, high) <= 0)) {
        out.add(r);
      }
    }
    return out.toArray(new byte[0][]);
  };

  private FileSummary file(String name, int... keys) {
    byte[][] r = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      r[i] = k(keys[i]);
    }
    rows.put(name, r);
    return new FileSummary(name, r[0], r[r.length - 1], keys.length, keys.length * 100L, true);
  }

  private PartitionSummary partition(int low, int high, long bytes, String... segments) {
    return new PartitionSummary(k(low), k(high), List.of(segments), bytes, 10, 10);
  }

  private static RlsmCompactionPlanner planner(SplitMode mode) {
    return new RlsmCompactionPlanner(RlsmCompactionConfig.builder().l0Trigger(3).maxVictims(16)
      .newPartitionMinRows(2).splitBytes(1000).splitMode(mode).mergeBytes(100).maxSegments(4)
      .maxDeadFraction(0.5).rewriteDropDeletes(true).build());
  }

  @Test
  public void victimOrderIsUnionSetThenDensity() {
    List<PartitionSummary> parts = List.of(partition(1, 8, 500, "s1"), partition(10, 17, 500,
      "s2"));
    RangeTree<PartitionSummary> tree = new RangeTree<>(parts, p -> p.low, p -> p.high);
    FileSummary sparse = file("sparse", 1, 9000);
    FileSummary dense = file("dense", 100, 101, 102);
    FileSummary inside = file("inside", 11, 15);
    List<FileSummary> order = RlsmCompactionPlanner.orderVictims(List.of(sparse, dense, inside),
      tree);
    assertEquals(List.of("inside", "dense", "sparse"),
      List.of(order.get(0).name(), order.get(1).name(), order.get(2).name()));
  }

  @Test
  public void appendLinksUnionSetVictimsAndPlacesTheRest() {
    List<PartitionSummary> parts = List.of(partition(1, 8, 500, "s1"), partition(10, 17, 500,
      "s2"));
    List<FileSummary> l0 = List.of(file("a", 4, 7, 11, 15), file("b", 9, 18, 23),
      file("c", 12, 13));
    CompactionPlan plan = planner(SplitMode.INDEX).plan(l0, parts, false, source);
    assertEquals(Kind.APPEND, plan.kind());
    assertEquals(List.of("c"), plan.linkedVictims());
    assertEquals(List.of("a", "b"), plan.appendedVictims());
    assertEquals(3, plan.targets().size());
    assertEquals("[0001, 0008] keep=[s1]", plan.targets().get(0).toString());
    assertEquals("[0009, 0017] keep=[s2, c]", plan.targets().get(1).toString());
    assertEquals("[0018, 0023] keep=[]", plan.targets().get(2).toString());
    assertFalse(plan.dropDeletes());
    assertEquals(Set.of("a", "b"), RlsmCompactionPlanner.retired(parts, plan));
  }

  @Test
  public void belowTriggerNothingOrLoadBalancing() {
    RlsmCompactionPlanner p = planner(SplitMode.INDEX);
    List<FileSummary> l0 = List.of(file("a", 1, 2), file("b", 3, 4));
    assertNull(p.plan(l0, List.of(), false, source));
    assertFalse(p.needsCompaction(l0, List.of()));
    rows.put("big", new byte[][] { k(10), k(20), k(30), k(40), k(50) });
    List<PartitionSummary> parts = List.of(partition(10, 50, 5000, "big"));
    assertTrue(p.needsCompaction(l0, parts));
    CompactionPlan split = p.plan(l0, parts, false, source);
    assertEquals(Kind.SPLIT, split.kind());
    assertTrue("index split reads nothing", split.inputs().isEmpty());
    assertEquals("[0010, 0020] keep=[big]", split.targets().get(0).toString());
    assertEquals("[0030, 0050] keep=[big]", split.targets().get(1).toString());
    assertEquals(Set.of(), RlsmCompactionPlanner.retired(parts, split));

    CompactionPlan rewrite =
      planner(SplitMode.REWRITE).plan(List.of(), parts, false, source);
    assertEquals(Kind.SPLIT, rewrite.kind());
    assertEquals(Set.of("big"), rewrite.inputs().keySet());
    assertTrue("no Level-0 overlaps, deletes may go", rewrite.dropDeletes());
    assertEquals(Set.of("big"), RlsmCompactionPlanner.retired(parts, rewrite));
  }

  @Test
  public void cleanupMergeAndMajor() {
    RlsmCompactionPlanner p = planner(SplitMode.INDEX);
    for (String s : new String[] { "m1", "m2", "m3", "m4", "m5", "t1", "t2" }) {
      rows.put(s, new byte[][] { k(1) });
    }
    List<PartitionSummary> longChain =
      List.of(partition(1, 9, 500, "m1", "m2", "m3", "m4", "m5"));
    CompactionPlan cleanup = p.plan(List.of(), longChain, false, source);
    assertEquals(Kind.CLEANUP, cleanup.kind());
    assertEquals(1, cleanup.targets().size());
    assertTrue(cleanup.targets().get(0).keep.isEmpty());

    List<PartitionSummary> tiny = List.of(partition(1, 2, 10, "t1"), partition(5, 6, 10, "t2"));
    CompactionPlan merge = p.plan(List.of(), tiny, false, source);
    assertEquals(Kind.MERGE, merge.kind());
    assertEquals("[0001, 0006] keep=[]", merge.targets().get(0).toString());

    List<FileSummary> l0 = List.of(file("x", 3, 4));
    CompactionPlan overlapped = p.plan(l0, tiny, false, source);
    assertFalse("Level-0 overlaps the merged range: keep delete markers",
      overlapped.dropDeletes());

    CompactionPlan major = p.plan(l0, tiny, true, source);
    assertEquals(Kind.MAJOR, major.kind());
    assertTrue(major.dropDeletes());
    assertEquals(Set.of("x", "t1", "t2"), major.inputs().keySet());
    assertEquals(Set.of("x", "t1", "t2"), RlsmCompactionPlanner.retired(tiny, major));
  }
}
