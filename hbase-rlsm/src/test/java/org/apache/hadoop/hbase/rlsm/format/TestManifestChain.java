package org.apache.hadoop.hbase.rlsm.format;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The manifest chain (docs/format/rlsm-file.md, "Manifest chain"): which manifests are live,
 * how a checkpoint and its edits replay into a layout, and every way a chain is refused (a
 * missing or misplaced member, an edit of another generation, removals of ranges the layout does
 * not hold, additions that overlap). Also the edit's file-info round trip and version rule.
 */
@Category(SmallTests.class)
public class TestManifestChain {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestManifestChain.class);

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private static PartitionDescriptor part(String low, String high, String... segments) {
    return new PartitionDescriptor(b(low), b(high), Arrays.asList(segments));
  }

  private static PartitionStats stats(long entries) {
    return new PartitionStats(entries, entries * 100, new byte[] { (byte) entries });
  }

  /** Ranges from bounds: low, high, low, high, ... */
  private static List<byte[][]> ranges(String... bounds) {
    List<byte[][]> out = new ArrayList<>();
    for (int i = 0; i < bounds.length; i += 2) {
      out.add(new byte[][] { b(bounds[i]), b(bounds[i + 1]) });
    }
    return out;
  }

  /** [a,c] s1, [e,g] s2, [k,m] s3 at generation 4, each with statistics. */
  private static ManifestRecord checkpoint() {
    return ManifestRecord.checkpoint("m4", 4,
      List.of(part("a", "c", "s1"), part("e", "g", "s2"), part("k", "m", "s3")),
      List.of(stats(1), stats(2), stats(3)));
  }

  private static List<String> show(ManifestChain.Layout l) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < l.partitions.size(); i++) {
      PartitionStats s = l.stats.get(i);
      out.add(l.partitions.get(i) + (s == null ? " ?" : " " + s.entries()));
    }
    return out;
  }

  @Test
  public void checkpointAloneIsItsLayout() throws Exception {
    assertEquals(List.of("[a, c] [s1] 1", "[e, g] [s2] 2", "[k, m] [s3] 3"),
      show(ManifestChain.replay(List.of(checkpoint()))));
  }

  @Test
  public void editsApplyInOrder() throws Exception {
    // an append into [e,g] (changed), a new partition [n,p]; then a split of [a,c] by index
    ManifestRecord e5 = ManifestRecord.edit("m5", 5, 4, ranges("e", "g"),
      List.of(part("d", "g", "s2", "s4"), part("n", "p", "s5")), List.of(stats(6), stats(7)));
    ManifestRecord e6 = ManifestRecord.edit("m6", 6, 5, ranges("a", "c"),
      List.of(part("a", "a", "s1"), part("b", "c", "s1")), null);
    assertEquals(List.of("[a, a] [s1] ?", "[b, c] [s1] ?", "[d, g] [s2, s4] 6", "[k, m] [s3] 3",
      "[n, p] [s5] 7"), show(ManifestChain.replay(List.of(checkpoint(), e5, e6))));
  }

  @Test
  public void editOfAnotherGenerationIsRefused() {
    ManifestRecord e5 = ManifestRecord.edit("m5", 5, 4, List.of(), List.of(), List.of());
    ManifestRecord e7 = ManifestRecord.edit("m7", 7, 3, List.of(), List.of(), List.of());
    refused(List.of(checkpoint(), e5, e7), "m7",
      "applies to generation 3 but follows generation 5");
    refused(List.of(e5), "m5", "starts with an edit");
    refused(List.of(checkpoint(), ManifestRecord.checkpoint("m9", 9, List.of(), null)), "m9",
      "is a checkpoint");
  }

  @Test
  public void removalOfARangeNotHeldIsRefused() {
    refused(List.of(checkpoint(),
      ManifestRecord.edit("m5", 5, 4, ranges("e", "h"), List.of(), List.of())), "m5",
      "removes [e, h]");
    refused(List.of(checkpoint(),
      ManifestRecord.edit("m5", 5, 4, ranges("x", "y"), List.of(), List.of())), "m5",
      "removes [x, y]");
  }

  @Test
  public void overlappingAdditionIsRefused() {
    refused(List.of(checkpoint(), ManifestRecord.edit("m5", 5, 4, List.of(),
      List.of(part("f", "h", "s9")), List.of(stats(1)))), "m5", "overlaps [e, g]");
    refused(List.of(checkpoint(), ManifestRecord.edit("m5", 5, 4, List.of(),
      List.of(part("b", "d", "s9")), List.of(stats(1)))), "m5", "overlaps [a, c]");
  }

  private static void refused(List<ManifestRecord> chain, String file, String what) {
    try {
      ManifestChain.replay(chain);
      fail("replayed " + chain);
    } catch (RlsmCorruptionException e) {
      assertEquals(file, e.getFile());
      assertTrue(e.getMessage(), e.getMessage().contains(what));
    }
  }

  /** A manifest as the store holds it: name, generation, base. */
  private static final class M {
    final String name;
    final long generation;
    final long base;

    M(String name, long generation, long base) {
      this.name = name;
      this.generation = generation;
      this.base = base;
    }
  }

  private static List<String> live(M... ms) throws RlsmCorruptionException {
    List<String> out = new ArrayList<>();
    for (M m : ManifestChain.live(Arrays.asList(ms), x -> x.generation, x -> x.base,
      x -> x.name)) {
      out.add(m.name);
    }
    return out;
  }

  @Test
  public void liveChainEndsAtTheNewestCheckpoint() throws Exception {
    // older checkpoint 2 and its edit 3 are superseded by checkpoint 4; orphan 9 is newest
    // only if committed, which an interrupted compaction's output is not (it is not in the set)
    M c2 = new M("c2", 2, 0);
    M e3 = new M("e3", 3, 2);
    M c4 = new M("c4", 4, 0);
    M e5 = new M("e5", 5, 4);
    M e6 = new M("e6", 6, 5);
    assertEquals(List.of("c4", "e5", "e6"), live(e6, c2, e3, c4, e5));
    assertEquals(List.of("c4"), live(c2, e3, c4));
    assertEquals(List.of(), live());
    // a checkpoint cuts the chain: the edits before it are not replayed
    M c7 = new M("c7", 7, 0);
    assertEquals(List.of("c7"), live(c4, e5, e6, c7));
  }

  @Test
  public void missingMemberFailsNamingTheEdit() {
    M c4 = new M("c4", 4, 0);
    M e6 = new M("e6", 6, 5);
    M e7 = new M("e7", 7, 6);
    try {
      live(c4, e6, e7);
      fail("a chain without generation 5 was accepted");
    } catch (RlsmCorruptionException e) {
      assertEquals("e6", e.getFile());
      assertTrue(e.getMessage(), e.getMessage().contains("generation 5"));
    }
  }

  @Test
  public void editFileInfoRoundTrip() throws Exception {
    List<PartitionDescriptor> added = List.of(part("d", "g", "s2", "s4"));
    List<PartitionStats> stats = List.of(stats(6));
    Map<byte[], byte[]> info = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    info.put(V2FileInfo.FORMAT_VERSION, V2FileInfo.versionBytes(V2FileInfo.EDIT_VERSION));
    info.put(V2FileInfo.MANIFEST_GENERATION, Bytes.toBytes(5L));
    info.put(V2FileInfo.MANIFEST_BASE, Bytes.toBytes(4L));
    info.put(V2FileInfo.MANIFEST_REMOVED, ManifestRecord.encodeRanges(ranges("e", "g")));
    info.put(V2FileInfo.MANIFEST_PARTITIONS, PartitionDescriptor.encodeList(added));
    info.put(V2FileInfo.MANIFEST_STATS, PartitionStats.encodeList(stats));
    ManifestRecord m = V2FileInfo.manifest("m5", 7, info::get);
    assertEquals(4, m.base());
    assertEquals(List.of("[a, c] [s1] 1", "[d, g] [s2, s4] 6", "[k, m] [s3] 3"),
      show(ManifestChain.replay(List.of(checkpoint(), m))));
    // an edit recorded with the checkpoint version would be misread by a version-2 reader
    info.put(V2FileInfo.FORMAT_VERSION, V2FileInfo.versionBytes(V2FileInfo.VERSION));
    refusedInfo(info::get, "without format version 3");
    info.put(V2FileInfo.FORMAT_VERSION, V2FileInfo.versionBytes(V2FileInfo.EDIT_VERSION));
    info.put(V2FileInfo.MANIFEST_BASE, Bytes.toBytes(5L));
    refusedInfo(info::get, "base generation 5");
    info.put(V2FileInfo.MANIFEST_BASE, Bytes.toBytes(4L));
    info.remove(V2FileInfo.MANIFEST_REMOVED);
    refusedInfo(info::get, "lacks RLSM_MANIFEST_REMOVED");
    // a checkpoint has no base; one without statistics records none
    info.remove(V2FileInfo.MANIFEST_BASE);
    info.remove(V2FileInfo.MANIFEST_STATS);
    ManifestRecord c = V2FileInfo.manifest("m5", 7, info::get);
    assertTrue(c.isCheckpoint());
    assertNull(c.stats());
  }

  @Test
  public void removedRangesAreChecked() throws Exception {
    byte[] ok = ManifestRecord.encodeRanges(ranges("a", "c", "e", "g"));
    assertEquals(2, ManifestRecord.decodeRanges("f", 0, ok).size());
    for (List<byte[][]> bad : List.of(ranges("e", "g", "a", "c"),
      ranges("c", "a"), ranges("a", "c", "c", "d"))) {
      try {
        ManifestRecord.decodeRanges("f", 0, ManifestRecord.encodeRanges(bad));
        fail("accepted unordered or inverted ranges");
      } catch (RlsmCorruptionException e) {
        assertTrue(e.getMessage(), e.getMessage().contains("inverted or overlaps"));
      }
    }
    byte[] extra = Arrays.copyOf(ok, ok.length + 1);
    try {
      ManifestRecord.decodeRanges("f", 0, extra);
      fail("accepted trailing bytes");
    } catch (RlsmCorruptionException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("trailing"));
    }
  }

  private static void refusedInfo(Function<byte[], byte[]> info, String what) {
    try {
      V2FileInfo.manifest("m5", 7, info);
      fail("accepted a bad edit");
    } catch (RlsmCorruptionException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(what));
    }
  }
}
