package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.monitoring.MonitoredTask;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileWriter;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.util.StringUtils;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a memstore snapshot into one Level-0 RLSM file: rows in hash order with a hash index and
 * a row Bloom filter. A snapshot of the hash memstore ({@link RlsmHashMemStore}) is written row by
 * row as the hash table holds it, through {@link RlsmHashFlushScanner}, which applies the flush
 * scanner's version/TTL/delete semantics per row without sorting rows. Any other snapshot, and
 * every snapshot of a store whose coprocessors implement {@code preFlushScannerOpen} or
 * {@code preFlush}, goes through HBase's sorted flush {@code StoreScanner} so those hooks run.
 * Cells keep their sequence ids. The file's max sequence id is the flush sequence number, so
 * after a restart WAL replay skips exactly the edits this file holds.
 */
@InterfaceAudience.Private
public class RlsmStoreFlusher extends StoreFlusher {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmStoreFlusher.class);
  private final RlsmConfig config;

  public RlsmStoreFlusher(Configuration conf, HStore store, RlsmConfig config) {
    super(conf, store);
    this.config = config;
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
    Path tmp = store.getRegionFileSystem().createTempName();
    if (writerCreationTracker != null) {
      writerCreationTracker.accept(tmp);
    }
    long length;
    status.setStatus("Flushing " + store + ": writing RLSM Level-0 file");
    try (RlsmFileWriter writer = new RlsmFileWriter(store.getFileSystem(), tmp,
      store.getColumnFamilyDescriptor().getName(), FileRole.FLUSH, config.getL0BloomFpp())) {
      if (hashSnapshot != null) {
        // One whole row per scanner call, rows unsorted: the writer takes them as rows.
        RowSink sink = new RowSink(writer);
        performFlush(scanner, sink, throughputController);
        sink.endRow();
      } else {
        performFlush(scanner, writer::append, throughputController);
      }
      length = writer.finish(cacheFlushSeqNum);
    } finally {
      scanner.close();
    }
    LOG.info("Flushed memstore data size={} at sequenceid={} to RLSM L0 file {} ({})",
      StringUtils.byteDesc(snapshot.getDataSize()), cacheFlushSeqNum, tmp,
      StringUtils.byteDesc(length));
    result.add(tmp);
    return result;
  }

  /**
   * The hash memstore's snapshot scanner when the rows can be written straight in hash order;
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

  /** Collects each row's cells and hands the whole row to the writer. */
  private static final class RowSink implements CellSink {
    private final RlsmFileWriter writer;
    private final List<Cell> row = new ArrayList<>();

    RowSink(RlsmFileWriter writer) {
      this.writer = writer;
    }

    @Override
    public void append(Cell cell) {
      if (!row.isEmpty() && !CellUtil.matchingRows(row.get(0), cell)) {
        endRow();
      }
      row.add(cell);
    }

    void endRow() {
      if (!row.isEmpty()) {
        Cell[] cells = row.toArray(new Cell[0]);
        writer.appendRow(cells, 0, cells.length);
        row.clear();
      }
    }
  }
}
