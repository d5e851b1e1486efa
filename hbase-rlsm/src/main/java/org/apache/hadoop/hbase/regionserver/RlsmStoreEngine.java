package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CompoundConfiguration;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlockIndex;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionContext;
import org.apache.hadoop.hbase.regionserver.compactions.DefaultCompactor;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.RlsmMasterObserver;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionUrgency;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.rlsm.cachehint.CacheHints;
import org.apache.hadoop.hbase.rlsm.cachehint.FileKind;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionPlanner;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.file.V2Files;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.rlsm.format.RlsmFileFormat;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RLSM store engine (users type this name). A column family uses it when its configuration sets
 * {@code hbase.hstore.engine.class} to this class; {@link org.apache.hadoop.hbase.rlsm.RlsmTables}
 * builds such descriptors. Flushes write key-ordered Level-0 files; compactions move them into
 * Level-1 partitions ({@link RlsmCompactionPlanner} decides, {@link RlsmCompactionRunner} writes,
 * HBase commits). Both write format v2, an HFile v3 made by HBase's writer with RLSM's entries in
 * its file-info ({@link RlsmV2Writer}), opened by HBase as an {@link HStoreFile}. Format v1 files
 * (RLSM's own container, told apart by its trailer magic) stay readable through
 * {@link RlsmStoreFile} until a compaction rewrites them; bulk-loaded HFiles are Level-0 files.
 *
 * <p>Compactions of one store run one at a time: a selection is refused while another is in
 * flight, because every plan is computed against, and replaces, the whole Level-1 layout (one
 * manifest is the commit point of every compaction, docs/architecture.md). A backlog is still
 * worked off compaction after compaction: while the planner has work the store reports a
 * compaction priority of at most 0 ({@code CompactionUrgency}), and HBase's {@code CompactSplit}
 * then re-enqueues the store as soon as each compaction finishes, after it released its files.
 */
@InterfaceAudience.LimitedPrivate("Configuration")
public class RlsmStoreEngine extends StoreEngine<RlsmStoreFlusher, RlsmCompactionThrottlePolicy,
  DefaultCompactor, RlsmStoreFileManager> {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmStoreEngine.class);

  private HStore store;
  private Configuration conf;
  private CellComparator comparator;
  private RlsmCompactionPlanner planner;
  private boolean openVerifyData;
  private final RlsmStoreStats stats = new RlsmStoreStats();

  @Override
  protected void createComponents(Configuration conf, HStore store, CellComparator comparator)
    throws IOException {
    this.store = store;
    this.conf = conf;
    this.comparator = comparator;
    applyStoreSettings(conf, store);
    RlsmConfig config;
    RlsmCompactionConfig compactionConfig;
    try {
      config = new RlsmConfig(conf);
      compactionConfig = new RlsmCompactionConfig(conf);
    } catch (IllegalArgumentException e) {
      throw new IOException("Bad RLSM configuration for " + store + ": " + e.getMessage(), e);
    }
    this.openVerifyData = config.isOpenVerifyData();
    // the store's own configuration, which HBase's store file tracker (created after this, from
    // the same object) gives every writer of the store
    String chunk = HFileBlockIndex.MAX_CHUNK_SIZE_KEY;
    if (
      store.getColumnFamilyDescriptor().getConfigurationValue(chunk) == null
        && store.getHRegion().getTableDescriptor().getValue(chunk) == null
    ) {
      conf.setInt(chunk, config.getIndexBlockMaxSize());
    }
    this.planner = new RlsmCompactionPlanner(compactionConfig);
    CompactionUrgency urgency = new CompactionUrgency(compactionConfig,
      conf.getInt(HStore.BLOCKING_STOREFILES_KEY, HStore.DEFAULT_BLOCKING_STOREFILE_COUNT));
    this.storeFlusher = new RlsmStoreFlusher(conf, store);
    this.compactionPolicy = new RlsmCompactionThrottlePolicy(conf, store);
    // HStore.getCompactionProgress() asks the compactor; RlsmCompactionRunner runs RLSM plans.
    this.compactor = new DefaultCompactor(conf, store);
    this.storeFileManager = new RlsmStoreFileManager(planner, urgency, stats,
      RlsmStoreFileManager.Scope.of(store),
      RlsmRegionSplitPolicy.namedBy(store.getHRegion().getTableDescriptor()), comparator);
  }

  /**
   * HBase's {@code HStore} reads the memstore class, the blocking file count and the scan settings
   * before it creates the engine; {@link RlsmMasterObserver} puts RLSM's values into the
   * descriptor at create and alter (docs/install.md). Without it this is the last line: the pread
   * limit the engine can still apply (the store's scan info is replaced before any scan), a
   * compacting memstore fails the open (the RLSM engine has no in-memory compaction), and a
   * missing hash memstore or blocking count, which cost speed but not correctness, is logged.
   */
  private static void applyStoreSettings(Configuration conf, HStore store) throws IOException {
    if (store.memstore instanceof CompactingMemStore) {
      throw new DoNotRetryIOException("Store " + store + " uses " + RlsmConfig.ENGINE_CLASS_NAME
        + " with in-memory compaction, which RLSM does not support: set IN_MEMORY_COMPACTION => "
        + "'NONE' on the family");
    }
    ScanInfo scanInfo = store.getScanInfo();
    if (scanInfo.getPreadMaxBytes() != Long.MAX_VALUE) {
      Configuration noStreamSwitch = new CompoundConfiguration().add(conf).addStringMap(
        Collections.singletonMap(StoreScanner.STORESCANNER_PREAD_MAX_BYTES,
          Long.toString(Long.MAX_VALUE)));
      store.setScanInfo(new ScanInfo(noStreamSwitch, store.getColumnFamilyDescriptor(),
        scanInfo.getTtl(), scanInfo.getTimeToPurgeDeletes(), scanInfo.getComparator()));
    }
    List<String> missing = new ArrayList<>();
    if (conf.get(HStore.MEMSTORE_CLASS_NAME) == null) {
      missing.add(HStore.MEMSTORE_CLASS_NAME);
    }
    if (conf.get(HStore.BLOCKING_STOREFILES_KEY) == null) {
      missing.add(HStore.BLOCKING_STOREFILES_KEY);
    }
    if (!missing.isEmpty()) {
      LOG.warn("Store {} uses RLSM without {} (HBase's defaults apply: skip-list memstore, 16 "
        + "blocking files); enable {} on the master so that create and alter set them",
        store, missing, RlsmMasterObserver.class.getName());
    }
  }

  /** Counters of this store (also in HBase's metrics, see {@link RlsmMetricsSource}). */
  public RlsmStoreStats getStats() {
    return stats;
  }

  /**
   * Opens a store file: format v1 by its trailer magic, anything else (v2, a bulk load) by
   * HBase. A file that is neither (an RLSM file whose magic is damaged or cut off) fails HBase's
   * trailer read, which {@link #openHFile} turns into a typed corruption error. HBase's reader is
   * not asked beforehand whether the file is an HFile: that would be one more open and trailer
   * read for every file of the store at region open.
   */
  @Override
  public HStoreFile createStoreFileAndReader(StoreFileInfo info) throws IOException {
    if (info.isReference()) {
      return super.createStoreFileAndReader(info);
    }
    Path data = dataPath(info);
    if (!RlsmFileFormat.isRlsmFile(info.getFileSystem(), data)) {
      return openHFile(info, data);
    }
    if (info.isLink()) {
      // the v1 reader opens one path and cannot follow the file into the archive as an
      // HFileLink's stream does; RlsmMasterObserver refuses snapshots of v1 files
      throw new DoNotRetryIOException("Store file " + info.getPath() + " of " + store
        + " links to " + data + ", an RLSM format v1 file, which cannot be read through a "
        + "link; major-compact the source table (rewriting it to v2) and snapshot it again");
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

  /**
   * A v2 file (or a bulk-loaded HFile) opened by HBase as an {@link HStoreFile}: its blocks go
   * through the BlockCache, its Bloom filter is the family's. HBase's corruption errors become
   * {@link org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException}s naming file and offset;
   * the RLSM file-info entries and the checksums of the load-on-open blocks HBase just read are
   * checked (HBase serves such a block unverified on a file system without checksums; one more
   * read of a few KB a file), or with {@code hbase.rlsm.open.verify.data} the whole file.
   */
  private HStoreFile openHFile(StoreFileInfo info, Path data) throws IOException {
    HStoreFile sf;
    try {
      sf = super.createStoreFileAndReader(info);
    } catch (IOException e) {
      throw typed(info.getFileSystem(), data, e);
    }
    try {
      RlsmFiles.check(sf);
      if (RlsmFiles.isRlsm(sf)) {
        FileRole r = RlsmFiles.role(sf);
        // hints are not persisted: a file opened after a restart is told its kind again
        CacheHints.hintFile(info.getFileSystem(), data, FileKind.of(r), r.level());
      }
      if (openVerifyData) {
        V2Files.verify(info.getFileSystem(), data, conf);
      } else {
        HFile.Reader hr = sf.getReader().getHFileReader();
        V2Files.verifyLoadOnOpen(info.getFileSystem(), data,
          hr.getTrailer().getLoadOnOpenDataOffset(), hr.length());
      }
    } catch (IOException e) {
      sf.closeStoreFile(true);
      throw typed(info.getFileSystem(), data, e);
    }
    return sf;
  }

  /**
   * Where the file's bytes are: its own path, or for an HFileLink the linked file's current
   * location (table, archive or temporary directory; HBase's reader follows it if it moves).
   */
  private static Path dataPath(StoreFileInfo info) throws IOException {
    return info.isLink() ? info.getReferencedFileStatus(info.getFileSystem()).getPath()
      : info.getPath();
  }

  private static IOException typed(FileSystem fs, Path data, IOException e) throws IOException {
    long length = fs.getFileStatus(data).getLen();
    RlsmCorruptionException t = V2Files.typed(data.toString(), length, e);
    return t != null ? t : e;
  }

  /**
   * Before HBase opens the files: complete a daughter of a split the master made on HFile terms
   * ({@link DaughterReferences}). After: archive orphans of an interrupted compaction.
   */
  @Override
  public void initialize(boolean warmup) throws IOException {
    if (!warmup && store.isPrimaryReplicaStore()) {
      DaughterReferences.complete(store, conf);
    }
    super.initialize(warmup);
    List<HStoreFile> orphans = storeFileManager.orphans();
    if (!orphans.isEmpty() && !warmup && store.isPrimaryReplicaStore()) {
      // A store-file tracker that keeps a list (FILE, or MIGRATION from DEFAULT) may list them:
      // it must forget them first, or the next open looks for files that are gone. HBase's
      // replace is the only way to the engine's tracker; the layout does not hold the orphans,
      // so the file manager leaves them out of its compacted files (archived here, at once).
      super.replaceStoreFiles(orphans, List.of(), () -> {
      }, () -> {
      });
      for (HStoreFile f : orphans) {
        f.closeStoreFile(true);
      }
      LOG.warn("Archiving {} RLSM files of {} that no Level-1 manifest lists: {}", orphans.size(),
        store, orphans);
      store.getRegionFileSystem().removeStoreFiles(store.getColumnFamilyName(), orphans);
    }
    updateLayoutStats();
    if (!warmup) {
      stats.register(store);
    }
  }

  private void updateLayoutStats() {
    RlsmStoreFileManager.State s = storeFileManager.state();
    stats.layout(s.partitions.size(), s.segmentCount(), s.deepest);
  }

  @Override
  public void addStoreFiles(Collection<HStoreFile> storeFiles,
    IOExceptionRunnable actionAfterAdding) throws IOException {
    super.addStoreFiles(storeFiles, actionAfterAdding);
    for (HStoreFile f : storeFiles) {
      if (RlsmFiles.isRlsm(f) && RlsmFiles.role(f) == FileRole.FLUSH) {
        stats.flushed(f.getReader().length());
      }
    }
  }

  /**
   * HBase's replacement, without the manifests that stay in the live chain (an edit's base,
   * named by its compaction only so that HBase runs it: see
   * {@link RlsmStoreFileManager#keptManifests}): neither the store-file tracker nor the file
   * manager retires them. HBase's WAL marker still names them as inputs; its replay comes here
   * too and keeps them the same way.
   */
  @Override
  public void replaceStoreFiles(Collection<HStoreFile> compactedFiles,
    Collection<HStoreFile> newFiles, IOExceptionRunnable walMarkerWriter,
    Runnable actionUnderLock) throws IOException {
    List<HStoreFile> kept = storeFileManager.keptManifests(compactedFiles, newFiles);
    Collection<HStoreFile> retired = compactedFiles;
    if (!kept.isEmpty()) {
      retired = new ArrayList<>(compactedFiles);
      retired.removeAll(kept);
    }
    super.replaceStoreFiles(retired, newFiles, walMarkerWriter, actionUnderLock);
    updateLayoutStats();
  }

  /** Whether a store file is in format v1, which a split reference cannot read. */
  boolean holdsV1Files() {
    return storeFileManager.state().v1;
  }

  /** False while a compaction runs (see the class comment); HBase re-enqueues after it. */
  @Override
  public boolean needsCompaction(List<HStoreFile> filesCompacting) {
    return filesCompacting.isEmpty() && storeFileManager.hasWork();
  }

  @Override
  public CompactionContext createCompaction() {
    return new RlsmCompactionContext(store, storeFileManager, planner, stats);
  }
}
