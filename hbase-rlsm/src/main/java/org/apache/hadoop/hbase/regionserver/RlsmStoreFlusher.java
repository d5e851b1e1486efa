package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.monitoring.MonitoredTask;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.util.StringUtils;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a memstore snapshot into one Level-0 file in format v2 ({@link RlsmV2Writer}: an HFile
 * in key order with the family's block size, Bloom filter, compression and encryption). A
 * snapshot of the hash memstore ({@link RlsmHashMemStore}) is written row by row in the order of
 * the table's row skip list, through {@link RlsmHashFlushScanner}, which applies the flush
 * scanner's version/TTL/delete semantics per row. Any other snapshot, and
 * every snapshot of a store whose coprocessors implement {@code preFlushScannerOpen} or
 * {@code preFlush}, goes through HBase's sorted flush {@code StoreScanner} so those hooks run.
 * Cells keep their sequence ids. The file's max sequence id is the flush sequence number, so
 * after a restart WAL replay skips exactly the edits this file holds.
 */
@InterfaceAudience.Private
public class RlsmStoreFlusher extends StoreFlusher {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmStoreFlusher.class);
  public RlsmStoreFlusher(Configuration conf, HStore store) {
    super(conf, store);
  }

  @Override
  public List<Path> flushSnapshot(MemStoreSnapshot snapshot, long cacheFlushSeqNum,
    MonitoredTask status, ThroughputController throughputController, FlushLifeCycleTracker tracker,
    Consumer<Path> writerCreationTracker) throws IOException {
    List<Path> result = new ArrayList<>(1);
    if (snapshot.getCellsCount() == 0) {
      return result;
    }
    List<KeyValueScanner> snapshotScanners = snapshot.getScanners();
    RlsmHashScanner hashSnapshot = hashSnapshot(snapshotScanners);
    InternalScanner scanner = hashSnapshot != null
      ? new RlsmHashFlushScanner(hashSnapshot, store)
      : createScanner(snapshotScanners, tracker);
    status.setStatus("Flushing " + store + ": writing RLSM Level-0 file");
    RlsmV2Writer writer;
    long length;
    try {
      writer = RlsmV2Writer.create(store, FileRole.FLUSH, snapshot.getCellsCount(),
        snapshot.isTagsPresent(), writerCreationTracker);
    } catch (IOException e) {
      scanner.close();
      throw e;
    }
    boolean ok = false;
    try {
      performFlush(scanner, writer, throughputController);
      length = writer.finish(cacheFlushSeqNum, false, List.of());
      ok = true;
    } finally {
      scanner.close();
      if (!ok) {
        writer.abort();
      }
    }
    Path tmp = writer.getPath();
    LOG.info("Flushed memstore data size={} at sequenceid={} to RLSM L0 file {} ({})",
      StringUtils.byteDesc(snapshot.getDataSize()), cacheFlushSeqNum, tmp,
      StringUtils.byteDesc(length));
    result.add(tmp);
    return result;
  }

  /**
   * The hash memstore's snapshot scanner when its rows can be written straight from its table;
   * {@code null} for a skip-list snapshot, or when a coprocessor hooks the flush scanner (its
   * {@code preFlushScannerOpen}/{@code preFlush} must see HBase's sorted {@code StoreScanner}).
   */
  private RlsmHashScanner hashSnapshot(List<KeyValueScanner> scanners) {
    if (
      scanners.size() != 1 || !(scanners.get(0) instanceof RlsmHashScanner)
        || hasFlushScannerHooks(store.getCoprocessorHost())
    ) {
      return null;
    }
    RlsmHashScanner s = (RlsmHashScanner) scanners.get(0);
    return s.isForFlush() ? s : null;
  }

  public static boolean hasFlushScannerHooks(RegionCoprocessorHost host) {
    if (host == null) {
      return false;
    }
    for (RegionCoprocessor cp : host.findCoprocessors(RegionCoprocessor.class)) {
      Optional<RegionObserver> observer = cp.getRegionObserver();
      if (
        observer.isPresent() && (overrides(observer.get().getClass(), "preFlushScannerOpen",
          ObserverContext.class, Store.class, ScanOptions.class, FlushLifeCycleTracker.class)
          || overrides(observer.get().getClass(), "preFlush", ObserverContext.class, Store.class,
            InternalScanner.class, FlushLifeCycleTracker.class))
      ) {
        return true;
      }
    }
    return false;
  }

  private static boolean overrides(Class<?> c, String method, Class<?>... params) {
    try {
      return c.getMethod(method, params).getDeclaringClass() != RegionObserver.class;
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("RegionObserver." + method + " not found", e);
    }
  }
}
