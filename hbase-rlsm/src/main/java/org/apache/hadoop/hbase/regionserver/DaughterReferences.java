package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.io.Reference;
import org.apache.hadoop.hbase.regionserver.storefiletracker.StoreFileTracker;
import org.apache.hadoop.hbase.regionserver.storefiletracker.StoreFileTrackerFactory;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completes, at a daughter's open, a split that HBase's master carried out on HFile terms: a table
 * whose descriptor does not name RLSM's split policy (no {@code RlsmMasterObserver}) and an
 * explicit split at a row, which no RegionServer check can refuse (HBase asks the RegionServer
 * only whether the region holds references). The master then left out every file whose key range
 * lies wholly on the other side, the Level-1 manifest (it has no cells) above all, and linked
 * instead of referencing a file wholly on this side. Without the manifest the daughter could not
 * open, after the split's point of no return, so HBase would retry its open without end.
 *
 * <p>This writes, before the store opens its files, a {@code Reference} to each file of the parent
 * that the daughter holds neither as a reference nor as a link, on the daughter's side of the
 * split row, and registers it with the store-file tracker: the daughter then holds what RLSM's
 * split policy makes the master write (a reference to every file, docs/architecture.md, "Split and
 * merge"), and the references keep the parent from being archived until the daughter rewrote
 * them. It acts only while every file of the store is a reference or link into one other region
 * of the same table whose directory and region info exist, and whose key range starts or ends
 * where this region's does (a split parent); anything else is left as it is. Idempotent: a crash
 * part way leaves references the next open keeps.
 */
@InterfaceAudience.Private
final class DaughterReferences {
  private static final Logger LOG = LoggerFactory.getLogger(DaughterReferences.class);

  private DaughterReferences() {
  }

  /**
   * Adds the missing references of {@code store}'s daughter region, if it is one whose split left
   * any out; {@code conf} is the store's configuration (it names the store-file tracker).
   */
  static void complete(HStore store, Configuration conf) throws IOException {
    HRegionFileSystem regionFs = store.getRegionFileSystem();
    FileSystem fs = regionFs.getFileSystem();
    String family = store.getColumnFamilyName();
    RegionInfo self = regionFs.getRegionInfo();
    Path storeDir = regionFs.getStoreDir(family);
    if (!fs.exists(storeDir)) {
      return;
    }
    Set<RlsmFiles.Origin> held = new HashSet<>();
    String parent = null;
    for (FileStatus s : fs.listStatus(storeDir)) {
      if (!StoreFileInfo.isValid(s)) {
        continue;
      }
      RlsmFiles.Origin o = RlsmFiles.origin(s.getPath().getName(), self.getEncodedName());
      if (o.region.equals(self.getEncodedName()) || (parent != null && !parent.equals(o.region))) {
        return; // a file of its own, or a second origin (a merged region): not a bare daughter
      }
      parent = o.region;
      held.add(o);
    }
    if (parent == null) {
      return;
    }
    Path parentDir = new Path(regionFs.getTableDir(), parent);
    Path parentStore = new Path(parentDir, family);
    if (!fs.exists(parentStore) || !fs.exists(new Path(parentDir,
      HRegionFileSystem.REGION_INFO_FILE))) {
      return; // another table's region (a cloned snapshot's links), or an archived parent
    }
    RegionInfo parentInfo = HRegionFileSystem.loadRegionInfoFileContent(fs, parentDir);
    boolean bottom = Bytes.equals(parentInfo.getStartKey(), self.getStartKey());
    boolean top = Bytes.equals(parentInfo.getEndKey(), self.getEndKey());
    if (bottom == top) {
      LOG.warn("{} refers to files of {} whose rows {} are not those of a split parent; adding "
        + "no references", self, parentInfo, parentInfo.getShortNameToLog());
      return;
    }
    Reference ref = bottom ? Reference.createBottomReference(self.getEndKey())
      : Reference.createTopReference(self.getStartKey());
    List<StoreFileInfo> added = new ArrayList<>();
    for (FileStatus s : fs.listStatus(parentStore)) {
      String name = s.getPath().getName();
      if (
        !StoreFileInfo.isValid(s) || StoreFileInfo.isReference(name)
          || held.contains(RlsmFiles.origin(name, parent))
      ) {
        continue;
      }
      Path p = ref.write(fs, new Path(storeDir, name + "." + parent));
      added.add(new StoreFileInfo(conf, fs, p, true));
    }
    if (added.isEmpty()) {
      return;
    }
    StoreFileTracker tracker = StoreFileTrackerFactory.create(conf, true, store.getStoreContext());
    tracker.load();
    tracker.add(added);
    LOG.warn("{} was split without RLSM's split policy on its table's descriptor (HBase's split "
      + "left out files on the other side of the split row, the Level-1 manifest among them); "
      + "added references to {} files of parent {}. Enable RlsmMasterObserver on the master "
      + "and alter the table once (docs/install.md)", self.getShortNameToLog(), added.size(),
      parent);
  }
}
