package org.apache.hadoop.hbase.regionserver;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.exceptions.UnexpectedStateException;
import org.apache.hadoop.hbase.rlsm.memstore.HashCellTable;
import org.apache.hadoop.hbase.rlsm.memstore.HashMemStoreConfig;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RLSM hash memstore: the RLSM paper's hash buffer in place of HBase's sorted skip list
 * (docs/design.md). A column family uses it when {@code hbase.regionserver.memstore.class} names
 * this class and in-memory compaction is NONE ({@code RlsmTables} sets both). Writes go to the
 * active {@link HashCellTable} (a hash map of small sorted rows); {@link #snapshot()} freezes it
 * into a {@link RlsmHashSegment} for the flusher, which writes the rows in hash order without
 * sorting.
 *
 * <p>Lifecycle and accounting mirror {@code DefaultMemStore}: each new active table reports its
 * fixed overhead to the region, every add reports its delta through the caller's
 * {@code MemStoreSizing}, and the snapshot's size is exactly the sum of both, which HBase
 * subtracts when the flush commits. {@code upsert} is an add: versions beyond the family's maximum
 * are dropped by the flush, as for any other put.
 */
@InterfaceAudience.Private
public class RlsmHashMemStore implements MemStore {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmHashMemStore.class);
  private static final long NO_SNAPSHOT_ID = -1;

  private final Configuration conf;
  private final CellComparator comparator;
  private final RegionServicesForStores regionServices;
  private final HashMemStoreConfig config;
  private volatile HashCellTable active;
  private volatile RlsmHashSegment snapshot;
  private volatile long snapshotId = NO_SNAPSHOT_ID;
  private volatile long timeOfOldestEdit = Long.MAX_VALUE;

  public RlsmHashMemStore(Configuration conf, CellComparator comparator,
    RegionServicesForStores regionServices) {
    this.conf = conf;
    this.comparator = comparator;
    this.regionServices = regionServices;
    this.config = new HashMemStoreConfig(conf);
    this.snapshot = emptySnapshot();
    this.active = newActive();
  }

  private HashCellTable newActive() {
    HashCellTable t =
      new HashCellTable(comparator, config.getRowArrayMaxCells(), MemStoreLAB.newInstance(conf));
    if (regionServices != null) { // null in unit tests, as for DefaultMemStore
      regionServices.addMemStoreSize(0, t.getHeapSize(), 0, 0);
    }
    return t;
  }

  private RlsmHashSegment emptySnapshot() {
    return new RlsmHashSegment(new HashCellTable(comparator, config.getRowArrayMaxCells(), null));
  }

  /** Called by HRegion under its update write lock, so no add runs concurrently. */
  @Override
  public MemStoreSnapshot snapshot() {
    if (!snapshot.isEmpty()) {
      LOG.warn("Snapshot called again without clearing previous. "
        + "Doing nothing. Another ongoing flush or did we fail last attempt?");
    } else {
      snapshotId = EnvironmentEdgeManager.currentTime();
      if (!active.isEmpty()) {
        // Publish the snapshot before the new active table: a concurrent getScanners reads
        // active first, so it sees the frozen table at least once, never zero times.
        snapshot = new RlsmHashSegment(active);
        active = newActive();
        timeOfOldestEdit = Long.MAX_VALUE;
      }
    }
    return new MemStoreSnapshot(snapshotId, snapshot);
  }

  @Override
  public void clearSnapshot(long id) throws UnexpectedStateException {
    if (snapshotId == NO_SNAPSHOT_ID) {
      return;
    }
    if (snapshotId != id) {
      throw new UnexpectedStateException("Current snapshot id is " + snapshotId + ",passed " + id);
    }
    RlsmHashSegment old = snapshot;
    if (!old.isEmpty()) {
      snapshot = emptySnapshot();
    }
    snapshotId = NO_SNAPSHOT_ID;
    old.close();
  }

  @Override
  public MemStoreSize getFlushableSize() {
    MemStoreSize mss = getSnapshotSize();
    return mss.getDataSize() > 0 ? mss : size();
  }

  @Override
  public MemStoreSize getSnapshotSize() {
    return snapshot.getMemStoreSize();
  }

  @Override
  public void add(Cell cell, MemStoreSizing memstoreSizing) {
    active.add(cell, memstoreSizing);
    noteEdit();
  }

  @Override
  public void add(Iterable<Cell> cells, MemStoreSizing memstoreSizing) {
    active.add(cells, memstoreSizing);
    noteEdit();
  }

  /**
   * Adds the cells. HBase's skip-list memstore also removes older versions no scanner can see;
   * here they stay until the flush, which keeps only the family's max versions.
   */
  @Override
  public void upsert(Iterable<Cell> cells, long readpoint, MemStoreSizing memstoreSizing) {
    add(cells, memstoreSizing);
  }

  private void noteEdit() {
    if (timeOfOldestEdit == Long.MAX_VALUE) {
      timeOfOldestEdit = EnvironmentEdgeManager.currentTime();
    }
  }

  @Override
  public long timeOfOldestEdit() {
    return timeOfOldestEdit;
  }

  /** Active first, then the snapshot: see {@link #snapshot()}. */
  @Override
  public List<KeyValueScanner> getScanners(long readPt) {
    List<KeyValueScanner> list = new ArrayList<>(2);
    HashCellTable a = active;
    if (!a.isEmpty()) {
      list.add(new RlsmHashScanner(a, readPt, false));
    }
    RlsmHashSegment s = snapshot;
    if (!s.isEmpty()) {
      list.add(s.getScanner(readPt));
    }
    return list;
  }

  @Override
  public MemStoreSize size() {
    HashCellTable a = active;
    return new MemStoreSize(a.getDataSize(), a.getHeapSize(), a.getOffHeapSize(),
      a.getCellsCount());
  }

  @Override
  public long preFlushSeqIDEstimation() {
    return HConstants.NO_SEQNUM;
  }

  @Override
  public boolean isSloppy() {
    return false;
  }

  @Override
  public void close() {
    active.close();
  }

  @Override
  public String toString() {
    return "RlsmHashMemStore active rows=" + active.rowCount() + ", snapshot=" + snapshot;
  }
}
