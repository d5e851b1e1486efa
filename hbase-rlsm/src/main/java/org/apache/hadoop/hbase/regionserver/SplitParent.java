package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.regionserver.storefiletracker.StoreFileTrackerFactory;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.HFileArchiveUtil;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The split parent of a daughter store, as the daughter finds it at its first open: the parent's
 * store directory in the table, or, once HBase's CatalogJanitor archived the parent (it does so as
 * soon as neither daughter holds a reference, which a daughter whose files HBase all linked does
 * not), the same directory in the archive; the files its store-file tracker lists there; and which
 * side of the split row the daughter holds.
 *
 * <p>The side comes from the parent's region info while its directory exists. The archive keeps
 * the store directories but not {@code .regioninfo}, so an archived parent's side is read from its
 * rows instead: HBase archives a parent only when no file straddles the split row (a straddling
 * file gives both daughters a reference), so every file with cells lies wholly on one side, and
 * the files the daughter does not hold lie wholly on the other. Rows below the daughter's first
 * row make it the upper daughter, rows at or above its end the lower; without such rows every
 * cell of the parent is inside the daughter's rows, where either side shows the same cells.
 */
@InterfaceAudience.Private
final class SplitParent {
  private static final Logger LOG = LoggerFactory.getLogger(SplitParent.class);
  /** HBase's key of a migrating store's source tracker (MigrationStoreFileTracker.SRC_IMPL). */
  private static final String MIGRATION_SOURCE = "hbase.store.file-tracker.migration.src.impl";

  /** The parent's encoded region name. */
  final String region;
  /** The parent's store directory, in the table or in the archive. */
  final Path storeDir;
  /** Whether HBase archived the parent. */
  final boolean archived;
  /** The parent's store files, as its store-file tracker lists them. */
  final List<StoreFileInfo> files;
  /** The parent's region info, or null when it was archived. */
  private final RegionInfo info;

  private SplitParent(String region, Path storeDir, boolean archived, List<StoreFileInfo> files,
    RegionInfo info) {
    this.region = region;
    this.storeDir = storeDir;
    this.archived = archived;
    this.files = files;
    this.info = info;
  }

  /**
   * The parent {@code region} of {@code daughter}'s store ({@code conf} is the store's), or null
   * when no region of that name has a store directory of the family in the daughter's table or
   * its archive (another table's region: a cloned snapshot's links).
   */
  static SplitParent find(HStore daughter, Configuration conf, String region) throws IOException {
    HRegionFileSystem regionFs = daughter.getRegionFileSystem();
    FileSystem fs = regionFs.getFileSystem();
    String family = daughter.getColumnFamilyName();
    Path dir = new Path(regionFs.getTableDir(), region);
    Path live = new Path(dir, family);
    if (fs.exists(live) && fs.exists(new Path(dir, HRegionFileSystem.REGION_INFO_FILE))) {
      return new SplitParent(region, live, false, tracked(daughter, conf, live),
        HRegionFileSystem.loadRegionInfoFileContent(fs, dir));
    }
    Path archived = HFileArchiveUtil.getStoreArchivePath(conf,
      regionFs.getRegionInfo().getTable(), region, family);
    if (fs.exists(archived)) {
      return new SplitParent(region, archived, true, tracked(daughter, conf, archived), null);
    }
    return null;
  }

  /**
   * Whether {@code self} is the lower daughter (its rows end at the split row), given the files of
   * the parent it lacks ({@code missing}); null when the parent's rows are not those of a split
   * into {@code self} (logged).
   */
  Boolean lower(RegionInfo self, List<StoreFileInfo> missing, Configuration conf, FileSystem fs)
    throws IOException {
    if (info != null) {
      boolean bottom = Bytes.equals(info.getStartKey(), self.getStartKey());
      boolean top = Bytes.equals(info.getEndKey(), self.getEndKey());
      if (bottom != top) {
        return bottom;
      }
      LOG.warn("{} refers to files of {} whose rows {} are not those of a split parent", self,
        region, info.getShortNameToLog());
      return null;
    }
    boolean below = false;
    boolean above = false;
    for (StoreFileInfo f : missing) {
      byte[][] rows = firstAndLastRow(f, conf, fs);
      if (rows == null) {
        continue; // no cells (the Level-1 manifest)
      }
      boolean fileBelow =
        self.getStartKey().length > 0 && Bytes.compareTo(rows[1], self.getStartKey()) < 0;
      boolean fileAbove =
        self.getEndKey().length > 0 && Bytes.compareTo(rows[0], self.getEndKey()) >= 0;
      if (!fileBelow && !fileAbove) {
        LOG.warn("{} lacks {} of archived parent {}, whose rows {} to {} are its own", self,
          f.getPath().getName(), region, Bytes.toStringBinary(rows[0]),
          Bytes.toStringBinary(rows[1]));
        return null;
      }
      below |= fileBelow;
      above |= fileAbove;
    }
    if (below && above) {
      LOG.warn("Archived parent {} of {} holds rows on both sides of it", region, self);
      return null;
    }
    if (below || above) {
      return above;
    }
    // every cell of the parent is inside self's rows: either side shows them all
    if (self.getEndKey().length > 0 || self.getStartKey().length > 0) {
      return self.getEndKey().length > 0;
    }
    LOG.warn("{} spans the whole table, so it is no daughter of {}", self, region);
    return null;
  }

  /** The rows of a file's first and last cells, or null when it holds none. */
  private static byte[][] firstAndLastRow(StoreFileInfo f, Configuration conf, FileSystem fs)
    throws IOException {
    Path data = f.getReferencedFileStatus(fs).getPath();
    try (HFile.Reader r = HFile.createReader(fs, data, CacheConfig.DISABLED, true, conf)) {
      Optional<Cell> first = r.getFirstKey();
      Optional<Cell> last = r.getLastKey();
      if (!first.isPresent() || !last.isPresent()) {
        return null;
      }
      return new byte[][] { CellUtil.cloneRow(first.get()), CellUtil.cloneRow(last.get()) };
    }
  }

  /**
   * The files of the store directory {@code dir} as the table's store-file tracker lists them,
   * read only: HBase's FILE tracker keeps the list in the directory's {@code .filelist} (archived
   * with the store), and a file in the directory that the list does not name is not the store's
   * (HBase's split did not see it either); DEFAULT lists the directory. A migration lists what its
   * source lists. A tracker of another class is taken to list the directory.
   */
  private static List<StoreFileInfo> tracked(HStore daughter, Configuration conf, Path dir)
    throws IOException {
    String name = trackerName(conf.get(StoreFileTrackerFactory.TRACKER_IMPL,
      StoreFileTrackerFactory.Trackers.DEFAULT.name()));
    if (name.equals(StoreFileTrackerFactory.Trackers.MIGRATION.name())) {
      name = trackerName(conf.get(MIGRATION_SOURCE, name));
    }
    if (name.equals(StoreFileTrackerFactory.Trackers.FILE.name())) {
      StoreContext ctx = StoreContext.getBuilder()
        .withColumnFamilyDescriptor(daughter.getColumnFamilyDescriptor())
        .withRegionFileSystem(daughter.getRegionFileSystem()).withFamilyStoreDirectoryPath(dir)
        .build();
      Configuration file = new Configuration(conf);
      file.set(StoreFileTrackerFactory.TRACKER_IMPL, name);
      // not the primary replica: the tracker reads its list and writes nothing
      return StoreFileTrackerFactory.create(file, false, ctx).load();
    }
    FileSystem fs = daughter.getRegionFileSystem().getFileSystem();
    List<StoreFileInfo> out = new ArrayList<>();
    for (FileStatus s : fs.listStatus(dir)) {
      if (StoreFileInfo.isValid(s)) {
        out.add(new StoreFileInfo(conf, fs, s.getPath(), true));
      }
    }
    return out;
  }

  /** HBase's name of a tracker given by name or class (DEFAULT, FILE, MIGRATION, or a class). */
  private static String trackerName(String nameOrClass) {
    return StoreFileTrackerFactory
      .getStoreFileTrackerName(StoreFileTrackerFactory.getTrackerClass(nameOrClass));
  }
}
