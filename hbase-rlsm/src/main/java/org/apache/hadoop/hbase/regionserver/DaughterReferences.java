package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.io.Reference;
import org.apache.hadoop.hbase.regionserver.storefiletracker.StoreFileTracker;
import org.apache.hadoop.hbase.regionserver.storefiletracker.StoreFileTrackerFactory;
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
 * ({@link SplitParent}) that the daughter holds neither as a reference nor as a link, on the
 * daughter's side of the split row, and registers it with the store-file tracker: the daughter
 * then holds what RLSM's split policy makes the master write (a reference to every file,
 * docs/architecture.md, "Split and merge"). Each reference refers to the parent's file by its
 * {@code HFileLink} name ({@code <table>=<parent>-<file>.<parent>}, as HBase's
 * {@code RestoreSnapshotHelper} refers to files that may be archived), so it reads the file in the
 * parent's directory or, once HBase's CatalogJanitor archived the parent, in the archive: the
 * janitor archives a parent as soon as neither daughter holds a reference, which a daughter whose
 * files HBase all linked does not until it was completed here. It acts only while every file of
 * the store is a reference or link into one other region of the same table whose store directory
 * exists there or in the archive; anything else is left as it is. Idempotent: a crash part way
 * leaves references the next open keeps.
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
    RegionInfo self = regionFs.getRegionInfo();
    Path storeDir = regionFs.getStoreDir(store.getColumnFamilyName());
    if (!fs.exists(storeDir)) {
      return;
    }
    StoreFileTracker tracker = StoreFileTrackerFactory.create(conf, true, store.getStoreContext());
    Set<RlsmFiles.Origin> held = new HashSet<>();
    String region = null;
    for (StoreFileInfo f : tracker.load()) {
      RlsmFiles.Origin o = RlsmFiles.origin(f.getPath().getName(), self.getEncodedName());
      if (o.region.equals(self.getEncodedName()) || (region != null && !region.equals(o.region))) {
        return; // a file of its own, or a second origin (a merged region): not a bare daughter
      }
      region = o.region;
      held.add(o);
    }
    if (region == null) {
      return;
    }
    SplitParent parent = SplitParent.find(store, conf, region);
    if (parent == null) {
      return; // another table's region (a cloned snapshot's links)
    }
    List<StoreFileInfo> missing = new ArrayList<>();
    for (StoreFileInfo f : parent.files) {
      String name = f.getPath().getName();
      // a parent holding references cannot split
      if (!StoreFileInfo.isReference(name) && !held.contains(RlsmFiles.origin(name, region))) {
        missing.add(f);
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    Boolean lower = parent.lower(self, missing, conf, fs);
    if (lower == null) {
      return; // logged; the open fails on the missing manifest, naming the parent
    }
    Reference ref = lower ? Reference.createBottomReference(self.getEndKey())
      : Reference.createTopReference(self.getStartKey());
    List<StoreFileInfo> added = new ArrayList<>();
    for (StoreFileInfo f : missing) {
      String name = f.getPath().getName();
      String link = HFileLink.isHFileLink(name) ? name
        : HFileLink.createHFileLinkName(self.getTable(), region, name);
      Path p = new Path(storeDir, link + "." + region);
      // a reference written before a crash that the tracker does not list (FILE) is written again
      fs.delete(p, false);
      added.add(new StoreFileInfo(conf, fs, ref.write(fs, p), true));
    }
    tracker.add(added);
    LOG.warn("{} was split without RLSM's split policy on its table's descriptor (HBase's split "
      + "left out files on the other side of the split row, the Level-1 manifest among them); "
      + "added references to {} files of parent {}{}. Enable RlsmMasterObserver on the master "
      + "and alter the table once (docs/install.md)", self.getShortNameToLog(), added.size(),
      region, parent.archived ? ", which HBase had archived" : "");
  }
}
