package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequestImpl;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputControlUtil;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.apache.hadoop.hbase.rlsm.cachehint.CacheHints;
import org.apache.hadoop.hbase.rlsm.cachehint.StreamRole;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.rlsm.compaction.RowStats;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.ManifestRecord;
import org.apache.hadoop.hbase.rlsm.format.PartitionDescriptor;
import org.apache.hadoop.hbase.rlsm.format.PartitionStats;
import org.apache.hadoop.hbase.rlsm.format.V2FileInfo;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.security.User;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Carries out one {@link CompactionPlan}: reads the plan's inputs through HBase's compaction
 * {@code StoreScanner} (so versions, TTL and, when the plan allows, delete markers are purged by
 * HBase's own rules; coprocessor compaction hooks run), routes every row to the target partition
 * whose range holds it, writes one new segment per target that received rows, and last a new
 * manifest (a checkpoint of the whole layout, or an edit of the store's newest manifest holding
 * only what changed, as the context decided at selection), all in format v2
 * ({@link RlsmV2Writer}: HBase's streaming HFile writer, so memory
 * stays bounded by a block per open segment whatever the output size). Returns the new files in
 * commit order, manifest last: HBase commits them one by one, and only the manifest makes the new
 * layout (and the retirement of old files) take effect, so a crash at any point leaves either the
 * old or the new layout. A {@link CompactionPlan.Kind#LEAVE} plan instead writes one plain HFile
 * and no manifest (the store then has no Level-1); that file is its commit point.
 *
 * <p>Sequence ids are kept as they are: segments mix data of different ages, and equal keys must
 * still be ordered by sequence id.
 */
@InterfaceAudience.Private
final class RlsmCompactionRunner {
  /** Bytes written by one run, for the store's counters. */
  static final class Result {
    final List<Path> paths = new ArrayList<>();
    long dataBytes;
    long manifestBytes;
  }

  private final HStore store;
  private final RlsmStoreFileManager.State state;
  private final CompactionPlan plan;
  /** The plan's layout, computed from its rows before the run (outside the store's locks). */
  private final List<CompactionPlan.Target> targets;
  private final Collection<String> retired;
  /** First and last row written per target index, for {@link #clip}. */
  private final Map<Integer, byte[][]> written = new HashMap<>();

  /** Whether the manifest is a checkpoint; else an edit of the state's own chain. */
  private final boolean checkpoint;

  RlsmCompactionRunner(HStore store, RlsmStoreFileManager.State state, CompactionPlan plan,
    List<CompactionPlan.Target> targets, Collection<String> retired, boolean checkpoint) {
    this.store = store;
    this.checkpoint = checkpoint;
    this.state = state;
    this.plan = plan;
    this.targets = targets;
    this.retired = retired;
  }

  private HStoreFile file(String name) throws IOException {
    HStoreFile f = state.byName.get(name);
    if (f != null) {
      return f;
    }
    throw new IOException("compaction input " + name + " is no longer in store " + store);
  }

  Result run(CompactionRequestImpl request, ThroughputController tc, User user)
    throws IOException {
    Result result = new Result();
    List<HStoreFile> inputs = inputs();
    long maxSeqId = 0;
    for (HStoreFile f : inputs) {
      maxSeqId = Math.max(maxSeqId, f.getMaxSequenceId());
    }
    boolean major = plan.kind() == CompactionPlan.Kind.MAJOR;
    int threads = plan.kind() == CompactionPlan.Kind.LEAVE ? 0
      : store.conf.getInt(RlsmCompactionConfig.FINISH_THREADS_KEY,
        RlsmCompactionConfig.DEFAULT_FINISH_THREADS);
    SegmentFinisher finisher = new SegmentFinisher(threads, maxSeqId, major,
      store.getRegionInfo().getEncodedName() + "-" + store.getColumnFamilyName());
    // the writers still receiving cells (owned by this thread); the finisher owns the rest
    List<RlsmV2Writer> open = new ArrayList<>();
    boolean ok = false;
    try {
      Map<Integer, RlsmV2Writer> byTarget = new HashMap<>();
      if (!inputs.isEmpty()) {
        scanAndRoute(inputs, request, tc, user, byTarget, open, finisher);
      }
      if (plan.kind() == CompactionPlan.Kind.LEAVE) {
        finishLeave(open, maxSeqId, result);
        ok = true;
        return result;
      }
      for (RlsmV2Writer w : new ArrayList<>(open)) {
        finisher.submit(w);
        open.remove(w);
      }
      Map<Path, Long> lengths = finisher.await();
      Map<Path, RowStats> segmentStats = new HashMap<>();
      for (RlsmV2Writer w : byTarget.values()) {
        long length = lengths.get(w.getPath());
        result.dataBytes += length;
        segmentStats.put(w.getPath(), new RowStats(w.rows(), length, w.sketch()));
      }
      result.paths.addAll(lengths.keySet());
      writeManifest(byTarget, segmentStats, result);
      ok = true;
      return result;
    } finally {
      finisher.shutdown();
      if (!ok) {
        finisher.discard();
        for (RlsmV2Writer w : open) {
          w.abort();
        }
        for (Path p : result.paths) {
          store.getFileSystem().delete(p, false);
        }
      }
    }
  }

  /** The plan's input files, oldest first (by sequence id, as the StoreScanner expects). */
  private List<HStoreFile> inputs() throws IOException {
    List<HStoreFile> inputs = new ArrayList<>();
    for (String name : plan.inputs().keySet()) {
      inputs.add(file(name));
    }
    inputs.sort(StoreFileComparators.SEQ_ID);
    return inputs;
  }

  /**
   * The one plain HFile of a {@link CompactionPlan.Kind#LEAVE} plan, written even when every cell
   * was purged: it names every retired file (the manifest too) as compacted, so that a region
   * opened after a crash between its commit and their archiving, by either engine, drops them
   * (HBase's {@code StoreEngine.openStoreFiles}) instead of serving a segment whole.
   */
  private void finishLeave(List<RlsmV2Writer> writers, long maxSeqId, Result result)
    throws IOException {
    if (writers.isEmpty()) {
      writers.add(RlsmV2Writer.create(store, null, 0, false, null));
    }
    RlsmV2Writer w = writers.get(0);
    List<HStoreFile> compacted = new ArrayList<>(retired.size());
    for (String name : retired) {
      compacted.add(file(name));
    }
    result.paths.add(w.getPath());
    result.dataBytes += w.finish(maxSeqId, true, compacted);
    writers.clear();
  }

  private void scanAndRoute(List<HStoreFile> inputs, CompactionRequestImpl request,
    ThroughputController tc, User user, Map<Integer, RlsmV2Writer> byTarget,
    List<RlsmV2Writer> open, SegmentFinisher finisher) throws IOException {
    long smallestReadPoint = store.getSmallestReadPoint();
    List<StoreFileScanner> scanners = new ArrayList<>(inputs.size());
    long cells = 0;
    boolean tags = false;
    InternalScanner scanner = null;
    String throttleName = ThroughputControlUtil.getNameForThrottling(store, "compaction");
    tc.start(throttleName);
    // RLSM shares one reader per file between user scans and compactions: the inputs are read
    // as compaction inputs through this thread's role (prefetched, kept out of T2 by lsm-arc)
    try (CacheHints.Scope role = CacheHints.enter(StreamRole.COMPACTION_INPUT)) {
      for (int i = 0; i < inputs.size(); i++) {
        HStoreFile f = inputs.get(i);
        List<byte[][]> ranges = plan.inputs().get(f.getPath().getName());
        scanners.add(RlsmSegmentView.scanner(f, ranges.isEmpty() ? null : ranges, false, false,
          true, smallestReadPoint, i));
        cells += f.getReader().getEntries();
        // v1 files do not say; HFiles written without tags hold none
        tags |= f instanceof RlsmStoreFile
          || f.getReader().getHFileReader().getFileContext().isIncludesTags();
      }
      ScanType scanType =
        plan.dropDeletes() ? ScanType.COMPACT_DROP_DELETES : ScanType.COMPACT_RETAIN_DELETES;
      RegionCoprocessorHost cp = store.getCoprocessorHost();
      ScanInfo scanInfo = cp == null ? store.getScanInfo()
        : cp.preCompactScannerOpen(store, scanType, request.getTracker(), request, user);
      long earliestPutTs = plan.dropDeletes()
        ? EarliestPutTimestamp.of(inputs, scanInfo, smallestReadPoint)
        : HConstants.OLDEST_TIMESTAMP;
      scanner = new StoreScanner(store, scanInfo, scanners, scanType, smallestReadPoint,
        earliestPutTs);
      scanners.clear(); // the StoreScanner owns and closes them now
      if (cp != null) {
        scanner = cp.preCompact(store, scanner, scanType, request.getTracker(), request, user);
      }
      route(scanner, tc, throttleName, new WriterFactory(cells, tags), byTarget, open, finisher);
    } catch (InterruptedException e) {
      throw new InterruptedIOException("Interrupted while throttling compaction of " + store);
    } finally {
      tc.finish(throttleName);
      for (StoreFileScanner s : scanners) {
        s.close();
      }
      if (scanner != null) {
        scanner.close();
      }
    }
  }

  /** New segment writers, sized and tagged after the inputs. */
  private final class WriterFactory {
    private final long cells;
    private final boolean tags;

    WriterFactory(long cells, boolean tags) {
      this.cells = cells;
      this.tags = tags;
    }

    RlsmV2Writer create() throws IOException {
      FileRole role = plan.kind() == CompactionPlan.Kind.LEAVE ? null : FileRole.SEGMENT;
      return RlsmV2Writer.create(store, role, cells, tags, null);
    }
  }

  /**
   * Writes every cell into its target's segment. Rows come in key order and targets are in key
   * order, so a segment the scan has passed receives nothing more: it goes to the finisher while
   * the scan goes on (a LEAVE plan's one output stays open: it is finished with its metadata).
   */
  private void route(InternalScanner scanner, ThroughputController tc, String throttleName,
    WriterFactory factory, Map<Integer, RlsmV2Writer> byTarget, List<RlsmV2Writer> open,
    SegmentFinisher finisher) throws IOException, InterruptedException {
    // as HBase's Compactor: let the scanner release the blocks behind written cells now and then
    long shipLimit = 2L * store.getColumnFamilyDescriptor().getBlocksize();
    long sinceShip = 0;
    ScannerContext ctx = ScannerContext.newBuilder().setBatchLimit(
      store.conf.getInt(HConstants.COMPACTION_KV_MAX, HConstants.COMPACTION_KV_MAX_DEFAULT))
      .build();
    List<Cell> cells = new ArrayList<>();
    RlsmV2Writer current = null;
    // a copy: a cell may point into a block the scanner releases at shipped()
    byte[] currentRow = null;
    long sinceCheck = 0;
    boolean more;
    do {
      more = scanner.next(cells, ctx);
      for (Cell c : cells) {
        if (currentRow == null || !CellUtil.matchingRows(c, currentRow)) {
          byte[] row = CellUtil.cloneRow(c);
          currentRow = row;
          // a LEAVE plan has no targets: every row goes to its one output
          int t = plan.kind() == CompactionPlan.Kind.LEAVE ? 0 : targetOf(targets, row);
          written.computeIfAbsent(t, k -> new byte[][] { row, row })[1] = row;
          RlsmV2Writer next = byTarget.get(t);
          if (next == null) {
            if (current != null) {
              finisher.submit(current);
              open.remove(current);
            }
            next = factory.create();
            byTarget.put(t, next);
            open.add(next);
          } else if (next != current) {
            // its segment was handed to the finisher: rows must come in key order
            throw new IOException("compaction of " + store + " met row "
              + Bytes.toStringBinary(row) + " after leaving its partition; nothing was committed");
          }
          current = next;
        }
        current.append(c);
        tc.control(throttleName, c.getSerializedSize());
        sinceShip += c.getSerializedSize();
        if (++sinceCheck >= 10_000) {
          sinceCheck = 0;
          if (!store.areWritesEnabled()) {
            throw new InterruptedIOException("Aborting compaction of store " + store
              + " because it was interrupted (region closing)");
          }
        }
      }
      cells.clear();
      if (sinceShip > shipLimit && scanner instanceof Shipper) {
        sinceShip = 0;
        for (RlsmV2Writer w : open) {
          w.beforeShipped();
        }
        ((Shipper) scanner).shipped();
      }
    } while (more);
    // The writers still point at the last cells they were given (HBase's writer keeps its last
    // cell and the first cell of its open block, and serialises them into the last-key file-info
    // entry and the block index when it closes). The caller closes the scanner, which returns
    // the blocks behind those cells to HBase's buffer pool, before the writers close; copy them
    // now, as HBase's own Compactor does at the end of its loop.
    for (RlsmV2Writer w : open) {
      w.beforeShipped();
    }
  }

  /** Index of the target holding {@code row}; the plan guarantees there is one. */
  static int targetOf(List<CompactionPlan.Target> targets, byte[] row) throws IOException {
    int lo = 0;
    int hi = targets.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      CompactionPlan.Target t = targets.get(mid);
      if (t.holds(row)) {
        return mid;
      }
      if (Bytes.compareTo(row, t.low) < 0) {
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    }
    throw new IOException("compaction plan has no partition for row "
      + Bytes.toStringBinary(row) + "; nothing was committed");
  }

  /**
   * The partition of a target, with a bound outside the region's rows {@code [start, end)} moved
   * to the first or last row written into it. Only a region that still had another region's
   * layout (a daughter's first compaction rewrites its parent's partitions) has such bounds;
   * moving them keeps every partition of the region inside its rows, so that the layouts of two
   * merged regions never overlap ({@link RlsmStoreFileManager#build}). A target that keeps
   * segments is left as it is (its rows were not all read).
   */
  private PartitionDescriptor clip(CompactionPlan.Target t, byte[][] rows, List<String> segments) {
    byte[] low = t.low;
    byte[] high = t.high;
    if (rows != null) {
      byte[] start = store.getRegionInfo().getStartKey();
      byte[] end = store.getRegionInfo().getEndKey();
      if (start.length > 0 && Bytes.compareTo(low, start) < 0) {
        low = rows[0];
      }
      if (end.length > 0 && Bytes.compareTo(high, end) >= 0) {
        high = rows[1];
      }
    }
    return new PartitionDescriptor(low, high, segments);
  }

  /**
   * Writes the manifest of the plan's layout with each partition's statistics: what the planner
   * knew of its kept segments plus its new segment's, so that no one reads rows to learn them (a
   * clipped range holds all of them: only a target that keeps nothing is clipped, to its rows).
   * A checkpoint records every partition; an edit of the store's newest manifest only the
   * partitions that differ from it (docs/format/rlsm-file.md, "Manifest chain"), so its size
   * follows what the compaction changed, not the partition count.
   */
  private void writeManifest(Map<Integer, RlsmV2Writer> byTarget,
    Map<Path, RowStats> segmentStats, Result result) throws IOException {
    List<PartitionDescriptor> parts = new ArrayList<>();
    List<PartitionStats> stats = new ArrayList<>();
    for (int i = 0; i < targets.size(); i++) {
      CompactionPlan.Target t = targets.get(i);
      List<String> segments = new ArrayList<>(t.keep);
      RowStats s = t.kept;
      RlsmV2Writer w = byTarget.get(i);
      if (w != null) {
        segments.add(w.getPath().getName());
        s = s == null ? null : s.plus(segmentStats.get(w.getPath()));
      }
      if (!segments.isEmpty()) {
        parts.add(clip(t, t.keep.isEmpty() ? written.get(i) : null, segments));
        stats.add(s == null ? null
          : new PartitionStats(s.entries(), s.bytes(), s.sketch().encode()));
      }
    }
    long maxSeqId = 0;
    for (HStoreFile f : state.all) {
      maxSeqId = Math.max(maxSeqId, f.getMaxSequenceId());
    }
    List<HStoreFile> replaced = new ArrayList<>(retired.size());
    for (String name : retired) {
      replaced.add(file(name));
    }
    long generation = state.nextGeneration;
    RlsmV2Writer w = RlsmV2Writer.create(store, FileRole.MANIFEST, 0, false, null);
    result.paths.add(w.getPath());
    boolean ok = false;
    try {
      w.appendFileInfo(V2FileInfo.MANIFEST_GENERATION, Bytes.toBytes(generation));
      if (!checkpoint) {
        w.appendFileInfo(V2FileInfo.MANIFEST_BASE, Bytes.toBytes(state.newestGeneration()));
        w.appendFileInfo(V2FileInfo.MANIFEST_REMOVED,
          ManifestRecord.encodeRanges(changes(parts, stats)));
      }
      w.appendFileInfo(V2FileInfo.MANIFEST_PARTITIONS, PartitionDescriptor.encodeList(parts));
      w.appendFileInfo(V2FileInfo.MANIFEST_STATS, PartitionStats.encodeList(stats));
      result.manifestBytes += w.finish(maxSeqId, false, replaced);
      ok = true;
    } finally {
      if (!ok) {
        w.abort();
      }
    }
  }

  /**
   * Turns the new layout ({@code parts}, {@code stats}) into an edit of the current one: leaves
   * in {@code parts} only the partitions the current layout does not hold as they are (range
   * and segments; or held without recorded statistics that the new layout now knows), and
   * returns the ranges of the current partitions that are not kept.
   */
  private List<byte[][]> changes(List<PartitionDescriptor> parts, List<PartitionStats> stats) {
    Map<List<String>, RlsmStoreFileManager.Partition> current = new HashMap<>();
    for (RlsmStoreFileManager.Partition p : state.partitions) {
      List<String> names = new ArrayList<>(p.segments.size());
      p.segments.forEach(seg -> names.add(seg.getPath().getName()));
      current.put(RlsmStoreFileManager.statsKey(new PartitionDescriptor(p.low, p.high, names)), p);
    }
    List<PartitionDescriptor> added = new ArrayList<>();
    List<PartitionStats> addedStats = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      List<String> key = RlsmStoreFileManager.statsKey(parts.get(i));
      RlsmStoreFileManager.Partition kept = current.get(key);
      if (kept != null && (kept.recorded || stats.get(i) == null)) {
        current.remove(key);
      } else {
        added.add(parts.get(i));
        addedStats.add(stats.get(i));
      }
    }
    List<byte[][]> removed = new ArrayList<>(current.size());
    current.values().forEach(p -> removed.add(new byte[][] { p.low, p.high }));
    removed.sort((a, b) -> Bytes.compareTo(a[0], b[0]));
    parts.clear();
    parts.addAll(added);
    stats.clear();
    stats.addAll(addedStats);
    return removed;
  }
}
