package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
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
 * a row Bloom filter. Cells come through HBase's flush {@code StoreScanner} (so coprocessor
 * {@code preFlushScannerOpen}/{@code preFlush} hooks and flush-time version/TTL handling are
 * kept) and keep their sequence ids. The file's max sequence id is the flush sequence number, so
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
    InternalScanner scanner = createScanner(snapshot.getScanners(), tracker);
    Path tmp = store.getRegionFileSystem().createTempName();
    if (writerCreationTracker != null) {
      writerCreationTracker.accept(tmp);
    }
    long length;
    status.setStatus("Flushing " + store + ": writing RLSM Level-0 file");
    try (RlsmFileWriter writer = new RlsmFileWriter(store.getFileSystem(), tmp,
      store.getColumnFamilyDescriptor().getName(), FileRole.FLUSH, config.getL0BloomFpp())) {
      performFlush(scanner, writer::append, throughputController);
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
}
