package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionContext;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequestImpl;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan;
import org.apache.hadoop.hbase.rlsm.compaction.PartitionSummary;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionPlanner;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One RLSM compaction as HBase drives it: {@link #select} asks the {@link RlsmCompactionPlanner}
 * for a plan against the store's current layout and hands HBase the files the plan retires (so
 * HBase marks them compacting and later archives them); {@link #compact} computes the plan's
 * layout from the rows it places and has the {@link RlsmCompactionRunner} write the outputs,
 * which HBase then commits.
 *
 * <p>Locking: HBase calls {@link #select} holding the store's read lock and its compacting-files
 * monitor, which a flush commit ({@code needsCompaction}, adding the flushed file) waits for; so
 * select reads file-info only, its cost independent of the rows, and every read of row keys is
 * in {@link #compact}, which holds no store lock. The layout read in select is immutable, so the
 * plan and the files it names stay consistent until HBase commits the outputs.
 */
@InterfaceAudience.Private
final class RlsmCompactionContext extends CompactionContext {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmCompactionContext.class);

  private final HStore store;
  private final RlsmStoreFileManager storeFileManager;
  private final RlsmCompactionPlanner planner;
  private final RlsmStoreStats stats;
  private CompactionPlan plan;
  private RlsmStoreFileManager.State state;
  private Set<String> retired;
  /** Whether the plan's manifest is a checkpoint (else an edit of the store's own chain). */
  private boolean checkpoint;

  RlsmCompactionContext(HStore store, RlsmStoreFileManager storeFileManager,
    RlsmCompactionPlanner planner, RlsmStoreStats stats) {
    this.store = store;
    this.storeFileManager = storeFileManager;
    this.planner = planner;
    this.stats = stats;
  }

  /** The selected plan, or null before {@link #select} or when it found nothing to do. */
  CompactionPlan plan() {
    return plan;
  }

  @Override
  public List<HStoreFile> preSelect(List<HStoreFile> filesCompacting) {
    return Collections.emptyList();
  }

  @Override
  public boolean select(List<HStoreFile> filesCompacting, boolean isUserCompaction,
    boolean mayUseOffPeak, boolean forceMajor) throws IOException {
    // HStore dereferences the request after select; an empty one means "nothing to do".
    request = new CompactionRequestImpl(Collections.emptyList());
    if (!filesCompacting.isEmpty()) {
      return false;
    }
    // HBase marks no compaction of this store running: one whose commit failed left its inputs
    storeFileManager.compactionEnded();
    state = storeFileManager.state();
    List<PartitionSummary> before = state.partitionSummaries();
    try {
      // references (a daughter or merged region) are rewritten whole into this region's own
      // Level-1, as HBase compacts a daughter's references: only then can it split again and
      // its parents be archived
      plan = planner.plan(state.level0Summaries(), before, forceMajor || state.references);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    if (plan == null) {
      return false;
    }
    retired = new HashSet<>(RlsmCompactionPlanner.retired(before, plan));
    checkpoint = checkpointDue(plan, state);
    if (checkpoint) {
      // the checkpoint replaces the whole chain; an edit keeps it live
      state.manifests.forEach(m -> retired.add(m.getPath().getName()));
    }
    List<HStoreFile> files = new ArrayList<>();
    for (HStoreFile f : state.all) {
      if (retired.contains(f.getPath().getName())) {
        files.add(f);
      }
    }
    if (!checkpoint) {
      // HBase runs only a compaction that names a file, and a store's running compaction is
      // known by its files (needsCompaction, select): an edit names its base, which the engine
      // keeps live when HBase replaces the files (RlsmStoreEngine.replaceStoreFiles)
      files.add(state.manifests.get(state.manifests.size() - 1));
    }
    request = new CompactionRequestImpl(files);
    // every file of the store is an input of both; HBase then also counts it as a major
    request.setIsMajor(plan.kind() == CompactionPlan.Kind.MAJOR
      || plan.kind() == CompactionPlan.Kind.LEAVE, true);
    LOG.info("RLSM compaction selected for {}: {}", store, plan);
    return !files.isEmpty();
  }

  /**
   * Whether the plan ends with a checkpoint, which retires the live manifests, rather than an
   * edit of them: a plan that writes no manifest (leaving RLSM: every manifest goes), a major
   * compaction or a rewrite of references (every partition changes), a layout that is not this
   * region's own chain (a daughter's, a merged region's or a clone's first manifest), or a
   * chain the configuration says is long enough ({@link RlsmCompactionConfig#checkpointDue}).
   */
  private boolean checkpointDue(CompactionPlan plan, RlsmStoreFileManager.State state) {
    CompactionPlan.Kind kind = plan.kind();
    return kind == CompactionPlan.Kind.LEAVE || kind == CompactionPlan.Kind.MAJOR
      || state.references || !state.ownChain || planner.config().checkpointDue(state.edits(),
        state.editBytes(), state.checkpointBytes());
  }

  @Override
  public List<Path> compact(ThroughputController throughputController, User user)
    throws IOException {
    if (plan == null) {
      throw new DoNotRetryIOException("RLSM store " + store
        + " cannot run the compaction of " + request.getFiles().size()
        + " files a coprocessor forced; nothing was changed");
    }
    long start = EnvironmentEdgeManager.currentTime();
    // the layout's row counts and the scan of the inputs both read on this thread
    long readBefore = FileSystemReads.byThisThread();
    long planRead = 0;
    // the Level-0 inputs leave Level-0 when this commits (RlsmStoreFileManager.getStorefileCount)
    storeFileManager.compactionStarted(request.getFiles());
    RlsmCompactionRunner.Result r;
    List<CompactionPlan.Target> targets;
    boolean written = false;
    try {
      try {
        targets = plan.targets(new RlsmStoreRows(state, plan.inputs().keySet()));
        planRead = FileSystemReads.byThisThread() - readBefore;
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      r = new RlsmCompactionRunner(store, state, plan, targets, retired, checkpoint)
        .run(request, throughputController, user);
      written = true;
    } finally {
      if (!written) {
        storeFileManager.compactionEnded();
      }
    }
    long millis = EnvironmentEdgeManager.currentTime() - start;
    long read = FileSystemReads.byThisThread() - readBefore;
    long retiredBytes = 0;
    long folded = 0;
    for (HStoreFile f : request.getFiles()) {
      if (!state.manifests.contains(f)) {
        retiredBytes += f.getReader().length();
      }
      String name = f.getPath().getName();
      if (plan.kind() == CompactionPlan.Kind.APPEND && plan.inputs().containsKey(name)
        && !plan.appendedVictims().contains(name)) {
        folded += f.getReader().length();
      }
    }
    long freed = Math.max(0, retiredBytes - r.dataBytes);
    stats.compacted(plan.kind(), r.dataBytes, r.manifestBytes, read, freed, folded,
      plan.linkedVictims().size(), millis);
    LOG.info("RLSM {} of {} wrote {} data bytes in {} files and a {}-byte manifest {} ({}"
      + " partitions), read {} bytes ({} of them planning the layout), linked {} files, retired"
      + " {} files, freed {} bytes, in {} ms; store counters: {}",
      plan.kind(), store, r.dataBytes, r.paths.size() - (r.manifestBytes > 0 ? 1 : 0),
      r.manifestBytes, checkpoint ? "checkpoint" : "edit", targets.size(), read, planRead,
      plan.linkedVictims().size(), retired.size(), freed, millis, stats);
    return r.paths;
  }
}
