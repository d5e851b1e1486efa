package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionContext;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequestImpl;
import org.apache.hadoop.hbase.regionserver.compactions.DefaultCompactor;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionConfig;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan;
import org.apache.hadoop.hbase.rlsm.compaction.PartitionSummary;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionPlanner;
import org.apache.hadoop.hbase.rlsm.compaction.RowSource;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.RlsmFileFormat;
import org.apache.hadoop.hbase.rlsm.index.SortedRowView;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RLSM store engine (users type this name). A column family uses it when its configuration sets
 * {@code hbase.hstore.engine.class} to this class; {@link org.apache.hadoop.hbase.rlsm.RlsmTables}
 * builds such descriptors. Flushes write hash-ordered Level-0 RLSM files; compactions move them
 * into Level-1 partitions ({@link RlsmCompactionPlanner} decides, {@link RlsmCompactor} writes,
 * HBase commits). Store files are opened by sniffing the trailer magic, so HFiles (bulk loads)
 * keep working in the same store.
 *
 * <p>Compactions of one store run one at a time: a selection is refused while another is in
 * flight, because every plan is computed against, and replaces, the whole Level-1 layout.
 */
@InterfaceAudience.LimitedPrivate("Configuration")
public class RlsmStoreEngine extends
  StoreEngine<RlsmStoreFlusher, RlsmCompactionPolicy, DefaultCompactor, RlsmStoreFileManager> {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmStoreEngine.class);

  private HStore store;
  private CellComparator comparator;
  private RlsmCompactionPlanner planner;
  private boolean openVerifyData;
  private final RlsmStoreStats stats = new RlsmStoreStats();

  @Override
  protected void createComponents(Configuration conf, HStore store, CellComparator comparator)
    throws IOException {
    this.store = store;
    this.comparator = comparator;
    RlsmConfig config = new RlsmConfig(conf);
    this.openVerifyData = config.isOpenVerifyData();
    CompactionConfig compactionConfig;
    try {
      compactionConfig = new CompactionConfig(conf);
    } catch (IllegalArgumentException e) {
      throw new IOException("Bad RLSM compaction configuration for " + store + ": "
        + e.getMessage(), e);
    }
    this.planner = new RlsmCompactionPlanner(compactionConfig);
    this.storeFlusher = new RlsmStoreFlusher(conf, store, config);
    this.compactionPolicy = new RlsmCompactionPolicy(conf, store);
    // HStore.getCompactionProgress() asks the compactor; RLSM plans are run by RlsmCompactor.
    this.compactor = new DefaultCompactor(conf, store);
    this.storeFileManager = new RlsmStoreFileManager(
      conf.getInt(HStore.BLOCKING_STOREFILES_KEY, HStore.DEFAULT_BLOCKING_STOREFILE_COUNT), stats);
  }

  /** Counters of this store (also on JMX). */
  public RlsmStoreStats getStats() {
    return stats;
  }

  /**
   * Opens a store file: RLSM by trailer magic, an HFile (bulk load) by HBase. A file that is
   * neither (an RLSM file whose magic is damaged or cut off) is a typed corruption error, not
   * HBase's HFile-trailer error.
   */
  @Override
  public HStoreFile createStoreFileAndReader(StoreFileInfo info) throws IOException {
    if (info.isReference() || info.isLink()) {
      return super.createStoreFileAndReader(info);
    }
    if (!RlsmFileFormat.isRlsmFileElseHFile(info.getFileSystem(), info.getPath())) {
      return super.createStoreFileAndReader(info);
    }
    info.setRegionCoprocessorHost(store.getCoprocessorHost());
    RlsmStoreFile sf = new RlsmStoreFile(info, store.getCacheConfig(), comparator,
      store.isPrimaryReplicaStore());
    sf.initReader();
    if (openVerifyData) {
      try {
        sf.getReader().getRlsmFile().verifyData();
      } catch (IOException e) {
        sf.closeStoreFile(true);
        throw e;
      }
    }
    return sf;
  }

  /** After HBase opened the files: archive orphans of an interrupted compaction. */
  @Override
  public void initialize(boolean warmup) throws IOException {
    super.initialize(warmup);
    List<HStoreFile> orphans = storeFileManager.takeOrphans();
    if (!orphans.isEmpty() && !warmup && store.isPrimaryReplicaStore()) {
      for (HStoreFile f : orphans) {
        f.closeStoreFile(true);
      }
      LOG.warn("Archiving {} RLSM files of {} that no Level-1 manifest lists: {}", orphans.size(),
        store, orphans);
      store.getRegionFileSystem().removeStoreFiles(store.getColumnFamilyName(), orphans);
    }
    updateLayoutStats();
    if (!warmup) {
      stats.register("Store-" + store.getRegionInfo().getEncodedName() + "-"
        + store.getColumnFamilyName());
    }
  }

  private void updateLayoutStats() {
    RlsmStoreFileManager.State s = storeFileManager.state();
    stats.layout(s.partitions.size(), s.segmentCount());
  }

  @Override
  public void addStoreFiles(Collection<HStoreFile> storeFiles,
    IOExceptionRunnable actionAfterAdding) throws IOException {
    super.addStoreFiles(storeFiles, actionAfterAdding);
    for (HStoreFile f : storeFiles) {
      if (f instanceof RlsmStoreFile && ((RlsmStoreFile) f).getRole() == FileRole.FLUSH) {
        stats.flushed(f.getReader().length());
      }
    }
  }

  @Override
  public void replaceStoreFiles(Collection<HStoreFile> compactedFiles,
    Collection<HStoreFile> newFiles, IOExceptionRunnable walMarkerWriter,
    Runnable actionUnderLock) throws IOException {
    super.replaceStoreFiles(compactedFiles, newFiles, walMarkerWriter, actionUnderLock);
    updateLayoutStats();
  }

  @Override
  public boolean needsCompaction(List<HStoreFile> filesCompacting) {
    if (!filesCompacting.isEmpty()) {
      return false;
    }
    RlsmStoreFileManager.State s = storeFileManager.state();
    return planner.needsCompaction(s.level0Summaries(), s.partitionSummaries());
  }

  @Override
  public CompactionContext createCompaction() {
    return new RlsmCompactionContext();
  }

  /** Row keys from the files' in-memory indexes (HFiles are read with a scanner). */
  private static RowSource rowSource(RlsmStoreFileManager.State s) {
    return (name, low, high) -> {
      for (HStoreFile f : s.all) {
        if (!f.getPath().getName().equals(name)) {
          continue;
        }
        try {
          return f instanceof RlsmStoreFile ? rlsmRows((RlsmStoreFile) f, low, high)
            : hfileRows(f);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }
      throw new IllegalStateException("no file " + name + " in the store");
    };
  }

  private static byte[][] rlsmRows(RlsmStoreFile f, byte[] low, byte[] high) {
    RlsmFileReader r = f.getReader().getRlsmFile();
    SortedRowView v = r.sortedView();
    int from = low == null ? 0 : v.lowerBound(low, 0, low.length);
    int to = high == null ? v.size() : v.upperBound(high, 0, high.length);
    byte[][] out = new byte[Math.max(0, to - from)][];
    for (int i = from; i < to; i++) {
      out[i - from] = r.index().row(v.entry(i));
    }
    return out;
  }

  private static byte[][] hfileRows(HStoreFile f) throws IOException {
    List<byte[]> rows = new ArrayList<>();
    try (StoreFileScanner s = f.getStreamScanner(false, false, true, Long.MAX_VALUE, 0, false)) {
      s.seek(org.apache.hadoop.hbase.KeyValue.LOWESTKEY);
      byte[] last = null;
      for (Cell c = s.next(); c != null; c = s.next()) {
        if (last == null || !CellUtil.matchingRows(c, last)) {
          last = CellUtil.cloneRow(c);
          rows.add(last);
        }
      }
    }
    return rows.toArray(new byte[0][]);
  }

  private final class RlsmCompactionContext extends CompactionContext {
    private CompactionPlan plan;
    private RlsmStoreFileManager.State state;
    private Set<String> retired;

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
      state = storeFileManager.state();
      List<PartitionSummary> before = state.partitionSummaries();
      try {
        plan = planner.plan(state.level0Summaries(), before, forceMajor, rowSource(state));
      } catch (java.io.UncheckedIOException e) {
        throw e.getCause();
      }
      if (plan == null) {
        return false;
      }
      retired = new HashSet<>(RlsmCompactionPlanner.retired(before, plan));
      if (state.manifest != null) {
        retired.add(state.manifest.getPath().getName());
      }
      List<HStoreFile> files = new ArrayList<>();
      for (HStoreFile f : state.all) {
        if (retired.contains(f.getPath().getName())) {
          files.add(f);
        }
      }
      request = new CompactionRequestImpl(files);
      request.setIsMajor(plan.kind() == CompactionPlan.Kind.MAJOR, true);
      LOG.info("RLSM compaction selected for {}: {}", store, plan);
      return !files.isEmpty();
    }

    @Override
    public List<Path> compact(ThroughputController throughputController, User user)
      throws IOException {
      if (plan == null) {
        throw new org.apache.hadoop.hbase.DoNotRetryIOException("RLSM store " + store
          + " cannot run the compaction of " + request.getFiles().size()
          + " files a coprocessor forced; nothing was changed");
      }
      long start = EnvironmentEdgeManager.currentTime();
      RlsmCompactor.Result r =
        new RlsmCompactor(store, state, plan, retired).run(request, throughputController, user);
      long millis = EnvironmentEdgeManager.currentTime() - start;
      stats.compacted(plan.kind(), r.dataBytes, r.manifestBytes, r.readBytes,
        plan.linkedVictims().size(), millis);
      LOG.info("RLSM {} of {} wrote {} data bytes in {} segments and a {}-byte manifest, read {}"
        + " bytes, linked {} files, retired {} files, in {} ms; store counters: {}", plan.kind(),
        store, r.dataBytes, r.paths.size() - 1, r.manifestBytes, r.readBytes,
        plan.linkedVictims().size(), retired.size(), millis, stats);
      return r.paths;
    }
  }
}
