package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionContext;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequestImpl;
import org.apache.hadoop.hbase.regionserver.compactions.DefaultCompactor;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.format.RlsmFileFormat;
import org.apache.hadoop.hbase.security.User;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RLSM store engine (contract name). A column family uses it when its configuration sets
 * {@code hbase.hstore.engine.class} to this class; {@link org.apache.hadoop.hbase.rlsm.RlsmTables}
 * builds such descriptors. Flushes write hash-ordered Level-0 RLSM files; store files are opened
 * by sniffing the trailer magic, so HFiles (bulk loads, files written before the switch) keep
 * working in the same store.
 */
@InterfaceAudience.LimitedPrivate("Configuration")
public class RlsmStoreEngine extends
  StoreEngine<RlsmStoreFlusher, RlsmCompactionPolicy, DefaultCompactor, RlsmStoreFileManager> {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmStoreEngine.class);

  private HStore store;
  private CellComparator comparator;

  @Override
  protected void createComponents(Configuration conf, HStore store, CellComparator comparator)
    throws IOException {
    this.store = store;
    this.comparator = comparator;
    RlsmConfig config = new RlsmConfig(conf);
    this.storeFlusher = new RlsmStoreFlusher(conf, store, config);
    this.compactionPolicy = new RlsmCompactionPolicy(conf, store);
    // HStore.getCompactionProgress() asks the compactor; the RLSM plans never run it.
    this.compactor = new DefaultCompactor(conf, store);
    this.storeFileManager = new RlsmStoreFileManager(
      conf.getInt(HStore.BLOCKING_STOREFILES_KEY, HStore.DEFAULT_BLOCKING_STOREFILE_COUNT));
  }

  @Override
  public HStoreFile createStoreFileAndReader(StoreFileInfo info) throws IOException {
    if (info.isReference() || info.isLink()
      || !RlsmFileFormat.isRlsmFile(info.getFileSystem(), info.getPath())) {
      return super.createStoreFileAndReader(info);
    }
    info.setRegionCoprocessorHost(store.getCoprocessorHost());
    RlsmStoreFile sf = new RlsmStoreFile(info, store.getCacheConfig(), comparator,
      store.isPrimaryReplicaStore());
    sf.initReader();
    return sf;
  }

  @Override
  public boolean needsCompaction(List<HStoreFile> filesCompacting) {
    return false;
  }

  @Override
  public CompactionContext createCompaction() {
    return new RlsmCompactionContext();
  }

  private final class RlsmCompactionContext extends CompactionContext {
    @Override
    public List<HStoreFile> preSelect(List<HStoreFile> filesCompacting) {
      return Collections.emptyList();
    }

    @Override
    public boolean select(List<HStoreFile> filesCompacting, boolean isUserCompaction,
      boolean mayUseOffPeak, boolean forceMajor) {
      // HStore dereferences the request after select; an empty one means "nothing to do".
      request = new CompactionRequestImpl(Collections.emptyList());
      if (isUserCompaction || forceMajor) {
        LOG.info("Compaction requested on RLSM store {}; this engine version selects no work",
          store);
      }
      return false;
    }

    @Override
    public List<Path> compact(ThroughputController throughputController, User user)
      throws IOException {
      throw new DoNotRetryIOException("RLSM store " + store + " cannot run the compaction of "
        + request.getFiles().size() + " files a coprocessor forced; nothing was changed");
    }
  }
}
