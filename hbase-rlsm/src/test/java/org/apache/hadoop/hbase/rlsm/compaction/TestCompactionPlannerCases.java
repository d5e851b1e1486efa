package org.apache.hadoop.hbase.rlsm.compaction;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.CaseFile;
import org.apache.hadoop.hbase.rlsm.CaseFile.Case;
import org.apache.hadoop.hbase.rlsm.index.RangeTree;
import org.apache.hadoop.hbase.rlsm.index.RowQuantiles;
import org.apache.hadoop.hbase.rlsm.index.RowSketch;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/** The planner's choice of the next compaction as the cases of testdata/compaction-planner. */
@RunWith(Parameterized.class)
@Category({ SmallTests.class, RegionServerTests.class })
public class TestCompactionPlannerCases {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestCompactionPlannerCases.class);

  private static final List<String> CONFIG_KEYS = List.of(RlsmCompactionConfig.L0_TRIGGER_KEY,
    RlsmCompactionConfig.MAX_VICTIMS_KEY, RlsmCompactionConfig.NEW_PARTITION_MIN_ROWS_KEY,
    RlsmCompactionConfig.SPLIT_BYTES_KEY, RlsmCompactionConfig.SPLIT_MODE_KEY,
    RlsmCompactionConfig.SPLIT_READ_ROWS_KEY, RlsmCompactionConfig.SPLIT_IN_APPEND_KEY,
    RlsmCompactionConfig.OVERDUE_SPLIT_FACTOR_KEY, RlsmCompactionConfig.MERGE_BYTES_KEY,
    RlsmCompactionConfig.MAX_SEGMENTS_KEY, RlsmCompactionConfig.TIER_RATIO_KEY,
    RlsmCompactionConfig.FOLD_SPREAD_KEY, RlsmCompactionConfig.MAX_DEAD_FRACTION_KEY,
    RlsmCompactionConfig.REWRITE_DROP_DELETES_KEY, RlsmCompactionConfig.LEAVE_KEY);
  private static final List<String> KEYS = List.of("partition", "level0", "rows", "length",
    "quantiles", "major",
    "victim-order", "needs-compaction", "kind", "linked", "appended", "inputs", "drop-deletes",
    "target", "kept", "retired", "rows-read");

  @Parameters(name = "{0}")
  public static List<Object[]> cases() {
    return CaseFile.load("compaction-planner");
  }

  private final Case c;
  /** Rows of every file the case names rows for: Level-0 files and "rows:" segments. */
  private final Map<String, byte[][]> rows = new HashMap<>();

  /** Rows the source has handed out (the layout step's reads). */
  private long rowsRead;

  /** Lengths the case gives with "length:" lines; else 100 bytes a row. */
  private final Map<String, Long> lengths = new HashMap<>();
  /** Files whose row quantiles the source hands out ("quantiles:"), built from their rows. */
  private final Set<String> withQuantiles = new HashSet<>();
  private final RowSource source = new RowSource() {
    @Override
    public byte[][] rows(String name, byte[] low, byte[] high) {
      List<byte[]> out = new ArrayList<>();
      for (byte[] r : known(name)) {
        if ((low == null || Bytes.compareTo(r, low) >= 0)
          && (high == null || Bytes.compareTo(r, high) <= 0)) {
          out.add(r);
        }
      }
      rowsRead += out.size();
      return out.toArray(new byte[0][]);
    }

    @Override
    public long count(String name, byte[] low, byte[] high) {
      return rows(name, low, high).length;
    }

    @Override
    public long length(String name) {
      return lengths.getOrDefault(name, known(name).length * 100L);
    }

    @Override
    public long rowCount(String name) {
      return known(name).length;
    }

    @Override
    public RowQuantiles quantiles(String name) {
      if (!withQuantiles.contains(name)) {
        return null;
      }
      RowQuantiles.Builder b = new RowQuantiles.Builder();
      for (byte[] r : known(name)) {
        b.add(r, RowSketch.hash(r, 0, r.length));
      }
      return b.build();
    }

    private byte[][] known(String name) {
      byte[][] all = rows.get(name);
      if (all == null) {
        throw new IllegalStateException("the planner read " + name + ", whose rows the case omits");
      }
      return all;
    }
  };

  public TestCompactionPlannerCases(String name, Case c) {
    this.c = c;
  }

  /** Registers the rows of "name key key ..." and returns the name. */
  private String rowsOf(String line) {
    List<String> words = Case.words(line);
    rows.put(words.get(0), Case.keys(words.subList(1, words.size())));
    return words.get(0);
  }

  private List<FileSummary> level0() {
    List<FileSummary> out = new ArrayList<>();
    for (String line : c.all("level0")) {
      byte[][] r = rows.get(rowsOf(line));
      out.add(new FileSummary(Case.words(line).get(0), r[0], r[r.length - 1], r.length,
        r.length * 100L, true, sketch(r)));
    }
    return out;
  }

  private List<PartitionSummary> partitions() {
    List<PartitionSummary> out = new ArrayList<>();
    for (String line : c.all("partition")) {
      List<String> words = Case.words(line);
      Map<String, String> attrs = new HashMap<>();
      for (String w : words.subList(1, words.size())) {
        String[] kv = w.split("=", 2);
        attrs.put(kv[0], kv[1]);
      }
      byte[][] range = Case.range(words.get(0));
      List<String> segments = List.of(attrs.get("segments").split(","));
      long[] segmentBytes = segmentBytes(attrs, segments.size());
      if ("rows".equals(attrs.get("stats")) || "recorded".equals(attrs.get("stats"))) {
        out.add(withStats(range, segments, segmentBytes, "recorded".equals(attrs.get("stats"))));
      } else {
        out.add(new PartitionSummary(range[0], range[1], segments, segmentBytes,
          Long.parseLong(attrs.getOrDefault("entries", "10")),
          Long.parseLong(attrs.getOrDefault("distinct", "10"))));
      }
    }
    return out;
  }

  /**
   * Per segment bytes: "segment-bytes=B1,B2,...", or else "bytes=B" shared evenly (the first
   * segments take the remainder).
   */
  private static long[] segmentBytes(Map<String, String> attrs, int segments) {
    long[] out = new long[segments];
    if (attrs.containsKey("segment-bytes")) {
      String[] values = attrs.get("segment-bytes").split(",");
      assertEquals("segment-bytes values", segments, values.length);
      for (int i = 0; i < segments; i++) {
        out[i] = Long.parseLong(values[i]);
      }
      return out;
    }
    long bytes = Long.parseLong(attrs.get("bytes"));
    for (int i = 0; i < segments; i++) {
      out[i] = bytes / segments + (i < bytes % segments ? 1 : 0);
    }
    return out;
  }

  private static RowSketch sketch(byte[][] keys) {
    RowSketch s = new RowSketch();
    for (byte[] k : keys) {
      s.add(k);
    }
    return s;
  }

  /**
   * A partition whose statistics are those of its segments' "rows:" inside its range; when
   * {@code recorded}, as a manifest records them: for the partition, each segment reaching past
   * the range taking a share of the entries the others leave, in proportion to its row count
   * (RlsmStoreFileManager's recorded summary).
   */
  private PartitionSummary withStats(byte[][] range, List<String> segments,
    long[] segmentBytes, boolean recorded) {
    long entries = 0;
    long bytes = 0;
    long[] segmentEntries = new long[segments.size()];
    RowSketch distinct = new RowSketch();
    boolean exclusive = true;
    for (int i = 0; i < segmentEntries.length; i++) {
      String seg = segments.get(i);
      byte[][] inRange = source.rows(seg, range[0], range[1]);
      segmentEntries[i] = inRange.length;
      entries += inRange.length;
      bytes += segmentBytes[i];
      distinct.addAll(sketch(inRange));
      exclusive &= inRange.length == rows.get(seg).length;
    }
    boolean[] shares = new boolean[segments.size()];
    if (recorded) {
      long rest = entries;
      long sharedRows = 0;
      for (int i = 0; i < shares.length; i++) {
        shares[i] = segmentEntries[i] < rows.get(segments.get(i)).length;
        rest -= shares[i] ? 0 : segmentEntries[i];
        sharedRows += shares[i] ? rows.get(segments.get(i)).length : 0;
      }
      for (int i = 0; i < shares.length; i++) {
        if (shares[i]) {
          segmentEntries[i] = rest * rows.get(segments.get(i)).length / sharedRows;
        }
      }
    }
    return new PartitionSummary(range[0], range[1], segments,
      new RowStats(entries, bytes, distinct), segmentBytes, segmentEntries, exclusive, shares);
  }

  private static String kept(RowStats s) {
    return s == null ? "unknown"
      : "entries=" + s.entries() + " distinct=" + s.distinctRows() + " bytes=" + s.bytes();
  }

  private RlsmCompactionConfig config() {
    Configuration conf = new Configuration(false);
    for (String key : CONFIG_KEYS) {
      conf.set(key, c.get(key));
    }
    return new RlsmCompactionConfig(conf);
  }

  private List<String> names(String key) {
    return Case.words(c.get(key));
  }

  private Set<String> nameSet(String key) {
    return new HashSet<>(names(key));
  }

  @Test
  public void plan() {
    List<String> allowed = new ArrayList<>(KEYS);
    allowed.addAll(CONFIG_KEYS);
    c.allowOnly(new HashSet<>(allowed));
    c.all("rows").forEach(this::rowsOf);
    for (String line : c.all("length")) {
      List<String> words = Case.words(line);
      lengths.put(words.get(0), Long.parseLong(words.get(1)));
    }
    if (c.has("quantiles")) {
      withQuantiles.addAll(names("quantiles"));
    }
    List<FileSummary> level0 = level0();
    List<PartitionSummary> partitions = partitions();
    RlsmCompactionPlanner planner = new RlsmCompactionPlanner(config());

    if (c.has("victim-order")) {
      RangeTree<PartitionSummary> tree = new RangeTree<>(partitions, p -> p.low, p -> p.high);
      List<String> order = new ArrayList<>();
      RlsmCompactionPlanner.orderVictims(level0, tree).forEach(f -> order.add(f.name()));
      assertEquals("victim order", names("victim-order"), order);
    }
    if (c.has("needs-compaction")) {
      assertEquals("needs compaction", c.getBoolean("needs-compaction"),
        planner.needsCompaction(level0, partitions));
    }
    if (!c.has("kind")) {
      return;
    }
    // the selection has no way to read a row: its only inputs are the summaries
    CompactionPlan plan =
      planner.plan(level0, partitions, c.has("major") && c.getBoolean("major"));
    assertEquals("kind", c.get("kind"), plan == null ? "none" : plan.kind().name());
    if (plan == null) {
      return;
    }
    // the runner's step: the layout, from the rows it places
    rowsRead = 0;
    List<CompactionPlan.Target> layout = plan.targets(source);
    if (c.has("rows-read")) {
      assertEquals("rows the layout step read", Long.parseLong(c.get("rows-read")), rowsRead);
    }
    assertEquals("files the layout keeps, as the selection said (retired files follow)",
      plan.referenced(), CompactionPlan.keptBy(layout));
    if (c.has("linked")) {
      assertEquals("linked", names("linked"), plan.linkedVictims());
    }
    if (c.has("appended")) {
      assertEquals("appended", names("appended"), plan.appendedVictims());
    }
    if (c.has("inputs")) {
      assertEquals("inputs", nameSet("inputs"), plan.inputs().keySet());
    }
    if (c.has("drop-deletes")) {
      assertEquals("drop deletes", c.getBoolean("drop-deletes"),
        plan.dropDeletes());
    }
    if (c.has("target")) {
      List<String> targets = new ArrayList<>();
      layout.forEach(t -> targets.add(t.toString()));
      assertEquals("targets", c.all("target"), targets);
    }
    if (c.has("kept")) {
      List<String> kept = new ArrayList<>();
      layout.forEach(t -> kept.add(kept(t.kept)));
      assertEquals("kept statistics", c.all("kept"), kept);
    }
    if (c.has("retired")) {
      assertEquals("retired", nameSet("retired"),
        RlsmCompactionPlanner.retired(partitions, plan));
    }
  }
}
