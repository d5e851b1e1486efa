package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionUrgency;
import org.apache.hadoop.hbase.rlsm.compaction.FileSummary;
import org.apache.hadoop.hbase.rlsm.compaction.LayoutUnion;
import org.apache.hadoop.hbase.rlsm.compaction.PartitionSummary;
import org.apache.hadoop.hbase.rlsm.compaction.RegionSplitPoint;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionPlanner;
import org.apache.hadoop.hbase.rlsm.compaction.RowStats;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.ManifestChain;
import org.apache.hadoop.hbase.rlsm.format.PartitionDescriptor;
import org.apache.hadoop.hbase.rlsm.format.PartitionStats;
import org.apache.hadoop.hbase.rlsm.index.RangeTree;
import org.apache.hadoop.hbase.rlsm.index.RowSketch;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.apache.hbase.thirdparty.com.google.common.collect.ImmutableCollection;
import org.apache.hbase.thirdparty.com.google.common.collect.ImmutableList;
import org.apache.hbase.thirdparty.com.google.common.collect.Iterables;

/**
 * The files of one RLSM store as Level-0 plus Level-1 partitions. The state is immutable and
 * rebuilt from the file set on every change (flush, compaction, open), under the store's write
 * lock, so a read always sees one consistent layout:
 * <ul>
 * <li>the Level-1 layout is the one recorded by the live manifest chain (the newest manifest
 * and, when it is an edit, the manifests it builds on back to a checkpoint:
 * {@link ManifestChain}) of this region, or before its first compaction of a daughter or merged
 * region, the union of the chains of each region whose files it references, clipped to its
 * rows ({@link #build});</li>
 * <li>Level-0 is every flush file (and bulk-loaded HFile) that the manifests do not list;</li>
 * <li>segments no manifest lists, and manifests outside the live chains, are orphans of an
 * interrupted compaction (or leftovers of a checkpoint): kept out of the state and archived by
 * the engine when the region opens (for a reference or link, the reference or link file in this
 * region's directory, never the file it points to); a snapshot clone or restore is a store of
 * links, resolved the same way).</li>
 * </ul>
 * A read gets Level-0 and, through one {@link RlsmPartitionChain}, the partitions overlapping
 * its rows (for a Get, the one whose range holds the row), each opened only when the read
 * reaches it, with scanners only on the segments HBase's per-file checks accept; a segment with
 * rows outside its partition is read restricted to the partition's range
 * ({@link RlsmSegmentView}).
 *
 * <p><b>Locking.</b> This class takes no lock of its own; it relies on HBase's store lock
 * ({@code StoreEngine.readLock()/writeLock()}):
 * <ul>
 * <li>{@link #state} and {@link #compactedFiles} are replaced (never mutated) only under the
 * store's write lock ({@code insertNewFiles}, {@code addCompactionResults},
 * {@code removeCompactedFiles}, {@code clearFiles}, {@code clearCompactedFiles}), or by
 * {@code loadFiles} while the region opens and no other thread sees the store;</li>
 * <li>both are volatile, so a reader without the lock (file counts, compaction priority, the
 * engine's compaction selection) sees one whole immutable layout, possibly one change old;</li>
 * <li>{@code getFilesForScan} runs under the store's read lock, which HBase also holds while it
 * takes the memstore scanners and ref-counts the files handed out: no compaction can commit or
 * archive in between, so the views match the file set the read chose. A chain forwards those
 * reference counts to all its segments, and its scanner holds them until it closes, so a
 * partition opened later in the scan still finds its segments unarchived.</li>
 * </ul>
 */
@InterfaceAudience.Private
public class RlsmStoreFileManager implements StoreFileManager {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmStoreFileManager.class);
  private static final Comparator<HStoreFile> ORDER = StoreFileComparators.SEQ_ID;

  /** One Level-1 partition of a state. */
  static final class Partition {
    final byte[] low;
    final byte[] high;
    final ImmutableList<HStoreFile> segments;
    /**
     * The manifest's record, or else computed on first use from immutable file-info and indexes,
     * without a lock: two threads may both compute it, and get equal values.
     */
    private volatile PartitionSummary summary;
    /** How reads open the segments; built on first read, as {@link #summary}. */
    private volatile Reading reading;
    /** A chain of this partition alone (every Get's); built on first read, as {@link #summary}. */
    private volatile RlsmPartitionChain chain;

    /**
     * This partition without the references whose half holds no cell, which no read may scan
     * ({@link #hasRows}); itself when it has none.
     */
    Partition withRows() {
      ImmutableList<HStoreFile> kept =
        ImmutableList.copyOf(RlsmStoreFileManager.withRows(segments));
      return kept.size() == segments.size() ? this : new Partition(low, high, kept, null);
    }

    /**
     * Whether the manifests record its statistics; if not, the next manifest records the
     * summary once it is known, even when the compaction did not change the partition.
     */
    final boolean recorded;

    /** @param recorded the statistics the manifest records for it, or null */
    Partition(byte[] low, byte[] high, ImmutableList<HStoreFile> segments, RowStats recorded) {
      this.low = low;
      this.high = high;
      this.segments = segments;
      this.recorded = recorded != null;
      if (recorded != null) {
        this.summary = recordedSummary(recorded);
      }
    }

    /**
     * The summary of the statistics a manifest records, with each segment's share: a segment
     * lying inside the range holds its whole file-info row count and length there; the segments
     * shared with a neighbour (after an index split) share the rest of the recorded entries and
     * bytes in proportion to their row counts and lengths (an estimate; file-info only).
     */
    private PartitionSummary recordedSummary(RowStats recorded) {
      int n = segments.size();
      long[] bytes = new long[n];
      long[] entries = new long[n];
      boolean[] inside = new boolean[n];
      long insideBytes = 0;
      long insideEntries = 0;
      long sharedLength = 0;
      long sharedRows = 0;
      for (int i = 0; i < n; i++) {
        HStoreFile seg = segments.get(i);
        inside[i] = inside(seg);
        bytes[i] = seg.getReader().length();
        entries[i] = RlsmFiles.rowCount(seg);
        if (inside[i]) {
          insideBytes += bytes[i];
          insideEntries += entries[i];
        } else {
          sharedLength += bytes[i];
          sharedRows += entries[i];
        }
      }
      double restBytes = Math.max(0, recorded.bytes() - insideBytes);
      double restEntries = Math.max(0, recorded.entries() - insideEntries);
      boolean exclusive = true;
      boolean[] shares = new boolean[n];
      for (int i = 0; i < n; i++) {
        if (!inside[i]) {
          exclusive = false;
          shares[i] = true;
          bytes[i] = sharedLength == 0 ? 0 : (long) (restBytes * bytes[i] / sharedLength);
          entries[i] = sharedRows == 0 ? 0 : (long) (restEntries * entries[i] / sharedRows);
        }
      }
      return new PartitionSummary(low, high, names(), recorded, bytes, entries, exclusive,
        shares);
    }

    /**
     * Bytes, row entries and distinct rows of the segments inside the range: as the manifest
     * records them; else, when every segment lies inside the range and records a row sketch,
     * the sum of the segments' file-info; else read by {@link RlsmRowCursor}s merged in key
     * order (one row per segment held at a time; only partitions of files written before the
     * statistics existed). A segment's bytes in range are its length in proportion to its rows
     * in range.
     * @throws UncheckedIOException when a segment cannot be read
     */
    PartitionSummary summary() {
      PartitionSummary s = summary;
      if (s == null) {
        try {
          s = computeSummary();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        summary = s;
      }
      return s;
    }

    /** The segments as reads open them: see {@link Reading}. */
    Reading reading() {
      Reading r = reading;
      if (r == null) {
        r = new Reading(this);
        reading = r;
      }
      return r;
    }

    /**
     * This partition as one file for a read that reaches no other partition. The chain holds
     * nothing of a read (its scanner does), so every read of the partition in this layout shares
     * it and no file object is made per Get.
     */
    RlsmPartitionChain chain() {
      RlsmPartitionChain c = chain;
      if (c == null) {
        c = new RlsmPartitionChain(List.of(this));
        chain = c;
      }
      return c;
    }

    private List<String> names() {
      List<String> names = new ArrayList<>(segments.size());
      segments.forEach(seg -> names.add(seg.getPath().getName()));
      return names;
    }

    /** Whether every segment's rows lie inside the range (file-info and root index only). */
    private boolean exclusive() {
      for (HStoreFile seg : segments) {
        if (!inside(seg)) {
          return false;
        }
      }
      return true;
    }

    /** Whether the segment's rows lie inside the range (file-info and root index only). */
    private boolean inside(HStoreFile seg) {
      byte[] first = firstRow(seg);
      return first == null
        || (Bytes.compareTo(first, low) >= 0 && Bytes.compareTo(lastRow(seg), high) <= 0);
    }

    private PartitionSummary computeSummary() throws IOException {
      if (exclusive()) {
        RowStats sum = RowStats.EMPTY;
        long[] bytes = new long[segments.size()];
        long[] entries = new long[segments.size()];
        for (int i = 0; i < bytes.length; i++) {
          HStoreFile seg = segments.get(i);
          RowSketch sketch = RlsmFiles.sketch(seg);
          if (sketch == null) {
            return readSummary();
          }
          bytes[i] = seg.getReader().length();
          entries[i] = RlsmFiles.rowCount(seg);
          sum = sum.plus(new RowStats(entries[i], bytes[i], sketch));
        }
        return new PartitionSummary(low, high, names(), sum, bytes, entries, true);
      }
      return readSummary();
    }

    /** The summary from the segments' rows in range (the way of files without statistics). */
    PartitionSummary readSummary() throws IOException {
      RowSketch distinct = new RowSketch();
      List<Head> all = new ArrayList<>(segments.size());
      PriorityQueue<Head> heads = new PriorityQueue<>();
      try {
        for (HStoreFile seg : segments) {
          Head h = new Head(seg, RlsmRowCursor.open(seg, low, high));
          all.add(h);
          if (h.advance()) {
            heads.add(h);
          }
        }
        byte[] previous = null;
        while (!heads.isEmpty()) {
          Head h = heads.poll();
          if (previous == null || !Bytes.equals(previous, h.row)) {
            distinct.add(h.row);
            previous = h.row;
          }
          h.rows++;
          if (h.advance()) {
            heads.add(h);
          }
        }
      } finally {
        for (Head h : all) {
          h.cursor.close();
        }
      }
      long bytes = 0;
      long entries = 0;
      long[] segmentBytes = new long[all.size()];
      long[] segmentEntries = new long[all.size()];
      for (int i = 0; i < segmentBytes.length; i++) {
        Head h = all.get(i);
        long fileRows = RlsmFiles.rowCount(h.segment);
        segmentEntries[i] = h.rows;
        segmentBytes[i] = fileRows == 0 ? 0 : h.segment.getReader().length() * h.rows / fileRows;
        entries += segmentEntries[i];
        bytes += segmentBytes[i];
      }
      return new PartitionSummary(low, high, names(), new RowStats(entries, bytes, distinct),
        segmentBytes, segmentEntries, exclusive());
    }

    @Override
    public String toString() {
      return "[" + Bytes.toStringBinary(low) + ", " + Bytes.toStringBinary(high) + "] x"
        + segments.size();
    }
  }

  /**
   * A partition's segments in the order HBase gives a store's scanners (ascending sequence id,
   * newest last), and whether a read must keep to the partition's range: true when a segment has
   * rows outside it (shared after an index split, or holding superseded rows). The chain scanner
   * then checks the range once per cell on the merged segments ({@link RlsmChainScanner}), so
   * every segment is read by HBase's own scanner, without a per-segment wrapper.
   */
  static final class Reading {
    final List<HStoreFile> segments;
    final boolean bounded;

    Reading(Partition p) {
      List<HStoreFile> segs = new ArrayList<>(p.segments);
      segs.sort(StoreFileComparators.SEQ_ID);
      this.segments = Collections.unmodifiableList(segs);
      this.bounded = !p.exclusive();
    }
  }

  /** One segment's current row in the merge of a partition summary. */
  private static final class Head implements Comparable<Head> {
    final HStoreFile segment;
    final RlsmRowCursor cursor;
    byte[] row;
    long rows;

    Head(HStoreFile segment, RlsmRowCursor cursor) {
      this.segment = segment;
      this.cursor = cursor;
    }

    boolean advance() throws IOException {
      row = cursor.next();
      return row != null;
    }

    @Override
    public int compareTo(Head o) {
      return Bytes.compareTo(row, o.row);
    }
  }

  /**
   * The region a store belongs to, as its layout needs it: the encoded name its own files
   * resolve to ({@link RlsmFiles#origin}) and its rows {@code [start, end)}, to which Level-1
   * partitions of other regions' manifests are clipped.
   */
  static final class Scope {
    final String region;
    final byte[] start;
    final byte[] end;

    Scope(String region, byte[] start, byte[] end) {
      this.region = region;
      this.start = start;
      this.end = end;
    }

    static Scope of(HStore store) {
      RegionInfo ri = store.getRegionFileSystem().getRegionInfoForFS();
      return new Scope(ri.getEncodedName(), ri.getStartKey(), ri.getEndKey());
    }
  }

  /** An immutable layout of the store. */
  static final class State {
    final ImmutableList<HStoreFile> all;
    /** {@link #all} by file name, for the planner's and the compaction's lookups. */
    final Map<String, HStoreFile> byName;
    final ImmutableList<HStoreFile> level0;
    final List<Partition> partitions;
    final RangeTree<Partition> tree;
    /**
     * The manifests defining Level-1: this region's live chain (checkpoint first, then the
     * edits after it), or, before this region wrote one, the chain of each origin region whose
     * files it references (a daughter or merged region). None may be archived while it is live.
     */
    final List<HStoreFile> manifests;
    /**
     * Whether {@link #manifests} is this region's own chain, so that the next manifest may be
     * an edit of it (a daughter's or a clone's first manifest must be a checkpoint).
     */
    final boolean ownChain;
    final List<HStoreFile> orphans;
    /** Generation of the next manifest this store writes: above every manifest it holds. */
    final long nextGeneration;
    /** Whether a file is a split or merge reference: the store must rewrite it (see below). */
    final boolean references;
    /** Whether a file is in format v1, which HBase's reference reader cannot read. */
    final boolean v1;
    /** Segments of the deepest partition (0 without partitions). */
    final int deepest;
    /** All partitions as one file, for scans without bounds; built on first read. */
    private volatile RlsmPartitionChain whole;

    State(ImmutableList<HStoreFile> all, ImmutableList<HStoreFile> level0,
      List<Partition> partitions, List<HStoreFile> manifests, boolean ownChain,
      List<HStoreFile> orphans, long nextGeneration) {
      this.all = all;
      Map<String, HStoreFile> names = new HashMap<>(all.size() * 2);
      all.forEach(f -> names.put(f.getPath().getName(), f));
      this.byName = Collections.unmodifiableMap(names);
      this.level0 = level0;
      this.partitions = partitions;
      this.tree = new RangeTree<>(partitions, p -> p.low, p -> p.high);
      this.manifests = manifests;
      this.ownChain = ownChain && !manifests.isEmpty();
      this.orphans = orphans;
      this.nextGeneration = nextGeneration;
      this.references = all.stream().anyMatch(HStoreFile::isReference);
      this.v1 = all.stream().anyMatch(f -> f instanceof RlsmStoreFile);
      this.deepest = partitions.stream().mapToInt(p -> p.segments.size()).max().orElse(0);
    }

    static final State EMPTY = new State(ImmutableList.of(), ImmutableList.of(), List.of(),
      List.of(), false, List.of(), 1);

    /** The generation of the newest manifest of this region's own chain (an edit's base). */
    long newestGeneration() {
      return RlsmFiles.generation(manifests.get(manifests.size() - 1));
    }

    /** Edits in this region's own chain after its checkpoint. */
    int edits() {
      return manifests.size() - 1;
    }

    /** Bytes of the edits in this region's own chain. */
    long editBytes() {
      long bytes = 0;
      for (HStoreFile m : manifests.subList(1, manifests.size())) {
        bytes += m.getReader().length();
      }
      return bytes;
    }

    /** Bytes of the checkpoint of this region's own chain. */
    long checkpointBytes() {
      return manifests.get(0).getReader().length();
    }

    /**
     * The partitions a read of rows {@code [from, to]} reaches (null: unbounded) as one file, or
     * null when none holds a segment. A chain holds nothing of a read, so one partition's, and
     * the whole layout's, are made once per layout and shared by its reads.
     */
    RlsmPartitionChain chain(byte[] from, byte[] to) {
      List<Partition> parts = from == null ? partitions : tree.overlapping(from, to);
      List<Partition> reached = new ArrayList<>(parts.size());
      boolean shared = true; // every partition reached is this layout's own, not a copy
      for (Partition p : parts) {
        // a read must not scan a reference whose half holds no cell (see hasRows)
        Partition r = references ? p.withRows() : p;
        shared &= r == p;
        if (!r.segments.isEmpty()) {
          reached.add(r);
        }
      }
      if (reached.isEmpty()) {
        return null;
      }
      if (shared && reached.size() == 1) {
        return reached.get(0).chain();
      }
      if (shared && from == null && reached.size() == partitions.size()) {
        RlsmPartitionChain c = whole;
        if (c == null) {
          c = new RlsmPartitionChain(reached);
          whole = c;
        }
        return c;
      }
      return new RlsmPartitionChain(reached);
    }

    List<FileSummary> level0Summaries() {
      List<FileSummary> out = new ArrayList<>(level0.size());
      for (HStoreFile f : level0) {
        out.add(summarize(f));
      }
      return out;
    }

    /**
     * The partitions' summaries, each computed when the caller first asks for it: the planner's
     * {@code needsCompaction} stops at the first sign of work (Level-0 depth first), so a flush
     * commit that finds Level-0 at the trigger does not learn a partition's summary first.
     */
    List<PartitionSummary> lazySummaries() {
      return new AbstractList<PartitionSummary>() {
        @Override
        public PartitionSummary get(int i) {
          return partitions.get(i).summary();
        }

        @Override
        public int size() {
          return partitions.size();
        }
      };
    }

    List<PartitionSummary> partitionSummaries() {
      List<PartitionSummary> out = new ArrayList<>(partitions.size());
      for (Partition p : partitions) {
        out.add(p.summary());
      }
      return out;
    }

    int segmentCount() {
      Set<HStoreFile> s = new HashSet<>();
      partitions.forEach(p -> s.addAll(p.segments));
      return s.size();
    }

    /**
     * Partition sizes without I/O, O(partitions × segments): a partition's statistics when the
     * manifest recorded them (or a compaction's selection already computed them), where each
     * segment counts by its own rows in the range (an index split shares a segment's bytes
     * between the halves by its rows in each, {@code PlacedLayouts}); else the sum of its
     * segments' lengths when none reaches past its range; else each segment's length shared
     * evenly among the partitions listing it (only partitions whose statistics were never
     * recorded: a widened range over a shared segment, a merged region's union).
     */
    long[] partitionBytes() {
      Map<HStoreFile, Integer> sharing = new IdentityHashMap<>();
      partitions.forEach(p -> p.segments.forEach(seg -> sharing.merge(seg, 1, Integer::sum)));
      long[] out = new long[partitions.size()];
      for (int i = 0; i < out.length; i++) {
        Partition p = partitions.get(i);
        PartitionSummary known = p.summary;
        if (known != null) {
          out[i] = known.bytes();
          continue;
        }
        boolean exclusive = p.exclusive();
        for (HStoreFile seg : p.segments) {
          long length = seg.getReader().length();
          out[i] += exclusive ? length : length / sharing.get(seg);
        }
      }
      return out;
    }
  }

  /**
   * A Level-0 file for the planner. Only v2 flush files are linkable: a v1 file is rewritten
   * into v2 by the range-append that takes it, and a bulk-loaded HFile carries no RLSM role.
   */
  static FileSummary summarize(HStoreFile f) {
    if (f instanceof RlsmStoreFile) {
      RlsmFileReader r = ((RlsmStoreFile) f).getReader().getRlsmFile();
      return new FileSummary(f.getPath().getName(), r.firstRow(), r.lastRow(),
        r.trailer().rowCount(), r.length(), false);
    }
    byte[] first = firstRow(f);
    return new FileSummary(f.getPath().getName(), first, lastRow(f),
      first == null ? 0 : RlsmFiles.rowCount(f), f.getReader().length(), RlsmFiles.isRlsm(f),
      RlsmFiles.sketch(f));
  }

  /** A file's first row, or null when it has none (root index, no data block read). */
  private static byte[] firstRow(HStoreFile f) {
    if (f instanceof RlsmStoreFile) {
      return ((RlsmStoreFile) f).getReader().getRlsmFile().firstRow();
    }
    return f.getFirstKey().map(c -> Bytes.copy(c.getRowArray(), c.getRowOffset(),
      c.getRowLength())).orElse(null);
  }

  /** A file's last row, or null when it has none (file-info, no data block read). */
  private static byte[] lastRow(HStoreFile f) {
    if (f instanceof RlsmStoreFile) {
      return ((RlsmStoreFile) f).getReader().getRlsmFile().lastRow();
    }
    return f.getReader().getLastRowKey().orElse(null);
  }

  private final RlsmCompactionPlanner planner;
  private final CompactionUrgency urgency;
  private final RlsmStoreStats stats;
  private final Scope scope;
  /**
   * Whether the table descriptor names RLSM's split policy, so that the master splits the
   * region with references to every RLSM file, manifest included; fixed at store open (a
   * descriptor change reopens the region).
   */
  private final boolean masterSplitsAsRlsm;
  /** Whether the refusal of a split point was logged (once per store). */
  private volatile boolean splitRefusalLogged;
  private final CellComparator comparator;
  /** The current layout; replaced under the store's write lock (see "Locking"). */
  private volatile State state = State.EMPTY;
  /** Files compacted away, not yet archived; replaced under the store's write lock. */
  private volatile ImmutableList<HStoreFile> compactedFiles = ImmutableList.of();
  /**
   * The Level-0 files the store's running compaction reads (RLSM runs one compaction per store at
   * a time), empty when none runs: {@link #getStorefileCount} leaves them out. Set when the
   * compaction starts writing, cleared when it commits or fails, or when HBase selects the next
   * one with no compaction marked running; read by the flusher without the store lock.
   */
  private volatile Set<HStoreFile> compactingLevel0 = Collections.emptySet();

  RlsmStoreFileManager(RlsmCompactionPlanner planner, CompactionUrgency urgency,
    RlsmStoreStats stats, Scope scope, boolean masterSplitsAsRlsm, CellComparator comparator) {
    this.scope = scope;
    this.masterSplitsAsRlsm = masterSplitsAsRlsm;
    this.comparator = comparator;
    this.planner = planner;
    this.urgency = urgency;
    this.stats = stats;
  }

  State state() {
    return state;
  }

  /** Whether the planner would find a compaction in the current layout (counts and sizes). */
  boolean hasWork() {
    return hasWork(state);
  }

  /** References are always work: they must be rewritten before the region can split again. */
  private boolean hasWork(State s) {
    return s.references || planner.needsCompaction(s.level0Summaries(), s.lazySummaries());
  }

  /**
   * Builds the layout of a file set; fails when a manifest names a file that is missing, when
   * the store holds segments of a region whose manifest it lacks, or when the manifests of two
   * regions overlap.
   */
  static State build(Collection<HStoreFile> files, Scope scope) throws IOException {
    return build(files, State.EMPTY, scope);
  }

  /**
   * As {@link #build(Collection, Scope)}; when the manifests are those of {@code previous}, its
   * partitions (and their cached summaries) are reused: flushes do not change Level-1.
   *
   * <p>Every file is keyed by its origin ({@link RlsmFiles#origin}): this region's own files,
   * and references or links to another region's files. The live manifest chain of each origin
   * region lists that region's segment names. Once this region wrote a manifest, it alone
   * defines Level-1: its first compaction rewrote every referenced file (see
   * {@link RlsmCompactionContext}) and retired the other regions' manifests. Before that,
   * Level-1 is the union of the origins' layouts ({@link LayoutUnion}).
   */
  static State build(Collection<HStoreFile> files, State previous, Scope scope)
    throws IOException {
    Map<RlsmFiles.Origin, HStoreFile> byOrigin = new HashMap<>();
    Map<String, List<HStoreFile>> manifestsOf = new LinkedHashMap<>();
    List<HStoreFile> orphans = new ArrayList<>();
    long maxGeneration = 0;
    for (HStoreFile f : files) {
      RlsmFiles.Origin o = RlsmFiles.origin(f, scope.region);
      byOrigin.put(o, f);
      if (RlsmFiles.role(f) == FileRole.MANIFEST) {
        maxGeneration = Math.max(maxGeneration, RlsmFiles.generation(f));
        manifestsOf.computeIfAbsent(o.region, k -> new ArrayList<>()).add(f);
      }
    }
    // each region's live chain (checkpoint and the edits after it) defines its layout; its
    // other manifests are superseded. Once this region has a chain of its own, it alone counts.
    Map<String, List<HStoreFile>> chains = new LinkedHashMap<>();
    boolean own = manifestsOf.containsKey(scope.region);
    for (Map.Entry<String, List<HStoreFile>> e : manifestsOf.entrySet()) {
      List<HStoreFile> chain =
        own && !e.getKey().equals(scope.region) ? List.of() : RlsmFiles.chain(e.getValue());
      if (!chain.isEmpty()) {
        chains.put(e.getKey(), chain);
      }
      Set<HStoreFile> live = Collections.newSetFromMap(new IdentityHashMap<>());
      live.addAll(chain);
      e.getValue().stream().filter(m -> !live.contains(m)).forEach(orphans::add);
    }
    List<HStoreFile> manifests = new ArrayList<>();
    chains.values().forEach(manifests::addAll);
    Set<HStoreFile> referenced = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Partition> partitions = new ArrayList<>();
    referenced.addAll(manifests);
    if (!manifests.isEmpty() && sameManifests(manifests, previous.manifests)
      && sameSegments(previous, files)) {
      partitions.addAll(previous.partitions);
      for (Partition p : partitions) {
        referenced.addAll(p.segments);
      }
    } else if (!manifests.isEmpty()) {
      Map<List<Object>, Partition> unchanged = new HashMap<>();
      for (Partition p : previous.partitions) {
        unchanged.put(identity(p.low, p.high, p.segments), p);
      }
      List<LayoutUnion.Layout> layouts = new ArrayList<>();
      Map<String, HStoreFile> manifestOf = new HashMap<>();
      Map<String, Map<List<String>, RowStats>> recordedOf = new HashMap<>();
      for (Map.Entry<String, List<HStoreFile>> e : chains.entrySet()) {
        List<HStoreFile> chain = e.getValue();
        ManifestChain.Layout layout = RlsmFiles.layout(chain);
        layouts.add(new LayoutUnion.Layout(e.getKey(), layout.partitions));
        manifestOf.put(e.getKey(), chain.get(chain.size() - 1));
        recordedOf.put(e.getKey(), recorded(chain.get(0), layout));
      }
      for (LayoutUnion.Part part : LayoutUnion.union(layouts, scope.start, scope.end)) {
        PartitionDescriptor d = part.partition;
        ImmutableList.Builder<HStoreFile> segments = ImmutableList.builder();
        for (String name : d.segments()) {
          HStoreFile seg = byOrigin.get(RlsmFiles.origin(name, part.origin));
          if (seg == null || !RlsmFiles.isRlsm(seg)) {
            throw new IOException("Level-1 manifest " + manifestOf.get(part.origin).getPath()
              + " lists segment " + name
              + (seg == null ? ", which is not in the store" : ", which is not RLSM"));
          }
          segments.add(seg);
          referenced.add(seg);
        }
        ImmutableList<HStoreFile> segs = segments.build();
        // a partition the compaction left alone keeps its summary (it may have been computed)
        Partition same = unchanged.get(identity(d.low(), d.high(), segs));
        partitions.add(same != null ? same : new Partition(d.low(), d.high(), segs,
          recordedOf.get(part.origin).get(statsKey(d))));
      }
    }
    List<HStoreFile> level0 = new ArrayList<>();
    List<HStoreFile> all = new ArrayList<>(referenced);
    for (HStoreFile f : files) {
      if (referenced.contains(f) || orphans.contains(f)) {
        continue;
      }
      if (RlsmFiles.role(f) != FileRole.FLUSH) {
        String region = RlsmFiles.origin(f, scope.region).region;
        if (!own && !region.equals(scope.region) && !chains.containsKey(region)) {
          // the split or merge that made this region left out the origin's manifest: archiving
          // the segment would lose its rows, so refuse to open instead
          throw new IOException("Store file " + f.getPath() + " is a Level-1 segment of region "
            + region + ", but the store holds no manifest of that region");
        }
        orphans.add(f);
      } else {
        level0.add(f);
        all.add(f);
      }
    }
    return new State(ImmutableList.sortedCopyOf(ORDER, all),
      ImmutableList.sortedCopyOf(ORDER, level0), partitions, manifests, own, orphans,
      maxGeneration + 1);
  }

  private static boolean sameManifests(List<HStoreFile> a, List<HStoreFile> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i) != b.get(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The statistics a replayed chain records, by {@link #statsKey} of its partitions: a partition
   * the layout union changed (a range cut to the region) finds none and is summarised from its
   * files.
   */
  private static Map<List<String>, RowStats> recorded(HStoreFile checkpoint,
    ManifestChain.Layout layout) throws IOException {
    Map<List<String>, RowStats> out = new HashMap<>();
    String name = checkpoint.getPath().toString();
    for (int i = 0; i < layout.partitions.size(); i++) {
      PartitionStats s = layout.stats.get(i);
      if (s != null) {
        out.put(statsKey(layout.partitions.get(i)), new RowStats(s.entries(), s.bytes(),
          RowSketch.decode(name, -1, s.sketch())));
      }
    }
    return out;
  }

  /** Range and segment names of a recorded partition. */
  static List<String> statsKey(PartitionDescriptor d) {
    List<String> key = new ArrayList<>(d.segments().size() + 2);
    key.add(Bytes.toStringBinary(d.low()));
    key.add(Bytes.toStringBinary(d.high()));
    key.addAll(d.segments());
    return key;
  }

  /** A key equal for partitions of equal range over the very same open segment files. */
  private static List<Object> identity(byte[] low, byte[] high, List<HStoreFile> segments) {
    List<Object> key = new ArrayList<>(segments.size() + 2);
    key.add(Bytes.toStringBinary(low));
    key.add(Bytes.toStringBinary(high));
    segments.forEach(seg -> key.add(new IdentityKey(seg)));
    return key;
  }

  /** Compares by object identity: a reopened file is a different file. */
  private static final class IdentityKey {
    private final Object o;

    IdentityKey(Object o) {
      this.o = o;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof IdentityKey && ((IdentityKey) other).o == o;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(o);
    }
  }

  private static boolean sameSegments(State previous, Collection<HStoreFile> files) {
    Set<HStoreFile> present = Collections.newSetFromMap(new IdentityHashMap<>());
    present.addAll(files);
    for (Partition p : previous.partitions) {
      for (HStoreFile seg : p.segments) {
        if (!present.contains(seg)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Files of the current layout that no manifest claims. Only a load finds any (a flush adds a
   * Level-0 file, and a compaction result with orphans is refused); the engine archives them
   * after region open.
   */
  List<HStoreFile> orphans() {
    return state.orphans;
  }

  @Override
  public void loadFiles(List<HStoreFile> storeFiles) throws IOException {
    state = build(storeFiles, scope);
    List<HStoreFile> outside = new ArrayList<>();
    List<HStoreFile> interrupted = new ArrayList<>();
    state.orphans.forEach(f -> (f.isReference() ? outside : interrupted).add(f));
    if (!outside.isEmpty()) {
      // a split or merge references every file of its parents (RlsmRegionSplitPolicy)
      LOG.info("Split or merge references {} point at parent files that no Level-1 partition "
        + "of this region lists (rows outside the region, or the parent's leftovers); archiving "
        + "the references, the parents' files stay", outside);
    }
    if (!interrupted.isEmpty()) {
      LOG.warn("Store files {} belong to no Level-1 manifest (an interrupted compaction)",
        interrupted);
    }
  }

  /**
   * The manifests among {@code compacted} that stay live once {@code results} are added: those
   * in this region's chain after the change. A compaction ending with an edit hands HBase the
   * edit's base with its retired files (HBase runs only a compaction that names a file, and
   * tells a store's running compaction by its files; {@link RlsmCompactionContext}); the engine
   * keeps it, also when HBase replays the compaction's WAL marker at region open.
   */
  List<HStoreFile> keptManifests(Collection<HStoreFile> compacted,
    Collection<HStoreFile> results) throws IOException {
    List<HStoreFile> own = new ArrayList<>();
    for (HStoreFile f : Iterables.concat(state.all, results)) {
      if (RlsmFiles.role(f) == FileRole.MANIFEST
        && RlsmFiles.origin(f, scope.region).region.equals(scope.region)) {
        own.add(f);
      }
    }
    Set<HStoreFile> live = Collections.newSetFromMap(new IdentityHashMap<>());
    live.addAll(RlsmFiles.chain(own));
    List<HStoreFile> kept = new ArrayList<>();
    compacted.stream().filter(live::contains).forEach(kept::add);
    return kept;
  }

  @Override
  public void insertNewFiles(Collection<HStoreFile> sfs) throws IOException {
    state = build(ImmutableList.copyOf(Iterables.concat(state.all, sfs)), state, scope);
  }

  @Override
  public void addCompactionResults(Collection<HStoreFile> compacted,
    Collection<HStoreFile> results) throws IOException {
    State next = build(ImmutableList.copyOf(
      Iterables.concat(Iterables.filter(state.all, sf -> !compacted.contains(sf)), results)),
      state, scope);
    if (!next.orphans.isEmpty()) {
      throw new IOException("compaction left files outside the manifest: " + next.orphans);
    }
    // orphans retired at region open are not in the layout: the engine archives them itself
    List<HStoreFile> retired = new ArrayList<>(compacted.size());
    Set<HStoreFile> live = Collections.newSetFromMap(new IdentityHashMap<>());
    live.addAll(state.all);
    compacted.stream().filter(live::contains).forEach(retired::add);
    state = next;
    compactionEnded();
    retired.forEach(HStoreFile::markCompactedAway);
    compactedFiles = ImmutableList.sortedCopyOf(ORDER, Iterables.concat(compactedFiles, retired));
  }

  @Override
  public void removeCompactedFiles(Collection<HStoreFile> removed) {
    compactedFiles = ImmutableList.sortedCopyOf(ORDER,
      Iterables.filter(compactedFiles, sf -> !removed.contains(sf)));
  }

  @Override
  public ImmutableCollection<HStoreFile> clearFiles() {
    ImmutableList<HStoreFile> result = state.all;
    state = State.EMPTY;
    stats.unregister(); // the store is closing
    return result;
  }

  @Override
  public Collection<HStoreFile> clearCompactedFiles() {
    ImmutableList<HStoreFile> result = compactedFiles;
    compactedFiles = ImmutableList.of();
    return result;
  }

  @Override
  public Collection<HStoreFile> getStoreFiles() {
    return state.all;
  }

  @Override
  public Collection<HStoreFile> getCompactedfiles() {
    return compactedFiles;
  }

  /**
   * Level-0 files that no running compaction reads. HBase blocks flushes when this count exceeds
   * {@code hbase.hstore.blockingStoreFiles} ({@code HStore.hasTooManyStoreFiles}: the flusher
   * requeues the flush until a compaction lowers it, so the memstore fills and writes are
   * refused as too busy), and reports it as the store's file count. Level-1 segments grow with
   * the data by design and are bounded per partition by the planner, so only Level-0 depth says
   * that compaction is behind. A running range-append already takes every Level-0 file it found
   * and removes them when it commits; RLSM runs one compaction per store at a time, so the files
   * flushed meanwhile wait for it, and counting its inputs too would block flushes for the rest
   * of every range-append that starts near the limit (docs/architecture.md, "Flush path"). The
   * backlog counted here is what no compaction has started on; while one runs, Level-0 holds at
   * most its inputs and the limit plus one more. The Level-1 partition and segment counts are in
   * {@link RlsmStoreStats}.
   */
  @Override
  public int getStorefileCount() {
    State s = state;
    Set<HStoreFile> compacting = compactingLevel0;
    if (compacting.isEmpty()) {
      return s.level0.size();
    }
    int n = 0;
    for (HStoreFile f : s.level0) {
      if (!compacting.contains(f)) {
        n++;
      }
    }
    return n;
  }

  /**
   * Called when the store's compaction starts writing: its Level-0 inputs among {@code files}
   * stop counting toward blocking flushes until {@link #compactionEnded}.
   */
  void compactionStarted(Collection<HStoreFile> files) {
    Set<HStoreFile> level0 = Collections.newSetFromMap(new IdentityHashMap<>());
    level0.addAll(state.level0);
    Set<HStoreFile> inputs = Collections.newSetFromMap(new IdentityHashMap<>());
    for (HStoreFile f : files) {
      if (level0.contains(f)) {
        inputs.add(f);
      }
    }
    compactingLevel0 = inputs;
  }

  /** The store's compaction committed or failed, or none runs: every Level-0 file counts. */
  void compactionEnded() {
    compactingLevel0 = Collections.emptySet();
  }

  @Override
  public int getCompactedFilesCount() {
    return compactedFiles.size();
  }

  /**
   * Level-0 plus the partitions overlapping the rows, as one {@link RlsmPartitionChain} whose
   * scanner opens a partition only when the scan reaches it, and then creates scanners only on
   * its segments that HBase's per-file checks accept (for a Get, those whose Bloom filter may
   * hold the row). HBase passes a reversed scan's bounds high-to-low and does not say which it
   * is, so one empty bound means all rows.
   */
  @Override
  public Collection<HStoreFile> getFilesForScan(byte[] startRow, boolean includeStartRow,
    byte[] stopRow, boolean includeStopRow, boolean onlyLatestVersion) {
    State s = state;
    List<HStoreFile> level0 = s.references ? withRows(s.level0) : s.level0;
    if (s.partitions.isEmpty()) {
      return level0;
    }
    RlsmPartitionChain chain;
    if (startRow.length == 0 || stopRow.length == 0) {
      chain = s.chain(null, null);
    } else if (Bytes.compareTo(startRow, stopRow) <= 0) {
      chain = s.chain(startRow, stopRow);
    } else {
      chain = s.chain(stopRow, startRow);
    }
    if (chain == null) {
      return level0;
    }
    List<HStoreFile> out = new ArrayList<>(level0.size() + 1);
    out.addAll(level0);
    out.add(chain);
    return out;
  }

  /**
   * Whether a read must scan {@code f}: false only for a reference whose half holds no cell.
   * A daughter references every parent file, also one wholly on the other side of the split
   * ({@link RlsmRegionSplitPolicy}); HBase's {@code HalfStoreFileReader} answers a reversed
   * scan's {@code seekBefore} on such an empty upper half with the file's rows below the split
   * (it bounds the seek by the half's first key, which an empty half lacks), so a reversed scan of
   * the upper daughter would return the lower daughter's rows. The first key is the one HBase
   * read when it opened the file.
   */
  private static boolean hasRows(HStoreFile f) {
    return !f.isReference() || f.getFirstKey().isPresent();
  }

  private static List<HStoreFile> withRows(List<HStoreFile> files) {
    List<HStoreFile> out = new ArrayList<>(files.size());
    for (HStoreFile f : files) {
      if (hasRows(f)) {
        out.add(f);
      }
    }
    return out;
  }

  @Override
  public Iterator<HStoreFile> getCandidateFilesForRowKeyBefore(KeyValue targetKey) {
    return state.all.reverse().iterator();
  }

  @Override
  public Iterator<HStoreFile> updateCandidateFilesForRowKeyBefore(
    Iterator<HStoreFile> candidateFiles, KeyValue targetKey, Cell candidate) {
    return candidateFiles;
  }

  /**
   * The Level-1 partition boundary nearest the byte midpoint ({@link RegionSplitPoint}); with
   * fewer than two partitions, HBase's choice: the middle key of the largest data file. None
   * while a v1 file is in the store: HBase reads a daughter's references through its HFile
   * reader, which cannot read v1 ({@link RlsmRegionSplitPolicy} refuses such a split). None
   * when the descriptor does not name RLSM's split policy, so that HBase's own policy requests
   * no split the master would carry out on HFile terms.
   */
  @Override
  public Optional<byte[]> getSplitPoint() throws IOException {
    if (!masterSplitsAsRlsm) {
      // HBase's own policy on a descriptor without RLSM's (no RlsmMasterObserver): the master
      // would split the files as HFiles, and the daughters could not open
      if (!splitRefusalLogged) {
        splitRefusalLogged = true;
        LOG.warn("Region {} proposes no split point: its table's descriptor does not name {} as "
          + "SPLIT_POLICY, so the master would split its RLSM files as HFiles; enable {} on the "
          + "master and alter the table once (docs/install.md)", scope.region,
          RlsmConfig.RLSM_SPLIT_POLICY_CLASS_NAME,
          "org.apache.hadoop.hbase.rlsm.RlsmMasterObserver");
      }
      return Optional.empty();
    }
    State s = state;
    if (s.v1) {
      LOG.info("Store holds format v1 files; no split point until a compaction rewrites them");
      return Optional.empty();
    }
    byte[][] lows = new byte[s.partitions.size()][];
    for (int i = 0; i < lows.length; i++) {
      lows[i] = s.partitions.get(i).low;
    }
    byte[] row = RegionSplitPoint.nearestMidpoint(lows, s.partitionBytes(), scope.start,
      scope.end);
    if (row != null) {
      return Optional.of(row);
    }
    List<HStoreFile> data = new ArrayList<>(s.all);
    data.removeAll(s.manifests);
    return StoreUtils.getSplitPoint(data, comparator);
  }

  /**
   * See {@link CompactionUrgency}: at most 0 exactly while the planner has work, and first of all
   * while the store holds references.
   */
  @Override
  public int getStoreCompactionPriority() {
    State s = state;
    return s.references ? CompactionUrgency.REFERENCES
      : urgency.priority(s.level0.size(), s.deepest, hasWork(s));
  }

  /** Whole Level-0 files whose newest cell expired by TTL; never the newest file. */
  @Override
  public Collection<HStoreFile> getUnneededFiles(long maxTs, List<HStoreFile> filesCompacting) {
    List<HStoreFile> out = new ArrayList<>();
    if (!filesCompacting.isEmpty()) {
      return out; // a running compaction may be linking these files into Level-1
    }
    ImmutableList<HStoreFile> files = state.level0;
    for (int i = 0; i < files.size() - 1; i++) {
      HStoreFile sf = files.get(i);
      if (sf.getReader().getMaxTimestamp() < maxTs) {
        LOG.info("Found an expired store file {} whose maxTimestamp is {}, which is below {}",
          sf.getPath(), sf.getReader().getMaxTimestamp(), maxTs);
        out.add(sf);
      }
    }
    return out;
  }

  /** See {@link CompactionUrgency}. */
  @Override
  public double getCompactionPressure() {
    State s = state;
    return urgency.pressure(s.level0.size(), s.deepest);
  }

  @Override
  public Comparator<HStoreFile> getStoreFileComparator() {
    return ORDER;
  }
}
