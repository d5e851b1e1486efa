package org.apache.hadoop.hbase.rlsm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseInterfaceAudience;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.master.cleaner.BaseHFileCleanerDelegate;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.HFileArchiveUtil;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HFile cleaner delegate ({@code hbase.master.hfilecleaner.plugins}) that keeps an archived
 * store file while a region of its table holds a reference to it by its link name
 * ({@code <table>=<region>-<file>.<parent>}). A daughter of a split made without RLSM's split
 * policy writes such references when the CatalogJanitor archived its parent before the daughter
 * completed its references (docs/architecture.md, "Split and merge"). HBase writes no
 * back-reference for a reference to a link, so its {@code HFileLinkCleaner} does not see these;
 * without this delegate the archive's time to live alone would keep the files.
 *
 * <p>Every other file is left to the other delegates: this one only ever keeps files. A file it
 * cannot check (a listing fails) is kept. Cost: one listing of each region's family directory of
 * the table per archived store directory the cleaner visits.
 */
@InterfaceAudience.LimitedPrivate(HBaseInterfaceAudience.CONFIG)
public class LinkReferenceCleaner extends BaseHFileCleanerDelegate {
  private static final Logger LOG = LoggerFactory.getLogger(LinkReferenceCleaner.class);

  private FileSystem fs;
  private Path rootDir;
  private Path archiveDataDir;

  @Override
  public void setConf(Configuration conf) {
    super.setConf(conf);
    try {
      rootDir = CommonFSUtils.getRootDir(conf);
      fs = rootDir.getFileSystem(conf);
      archiveDataDir = new Path(HFileArchiveUtil.getArchivePath(conf),
        HConstants.BASE_NAMESPACE_DIR);
    } catch (IOException e) {
      LOG.error("No file system for {}; every archived file is kept", getClass().getName(), e);
      fs = null;
    }
  }

  @Override
  public Iterable<FileStatus> getDeletableFiles(Iterable<FileStatus> files) {
    // the cleaner hands over one directory's files at a time: one scan per store directory
    Map<Path, Set<String>> referredByStore = new HashMap<>();
    List<FileStatus> out = new ArrayList<>();
    for (FileStatus f : files) {
      if (deletable(f.getPath(), referredByStore)) {
        out.add(f);
      }
    }
    return out;
  }

  @Override
  protected boolean isFileDeletable(FileStatus fStat) {
    return deletable(fStat.getPath(), new HashMap<>());
  }

  private boolean deletable(Path file, Map<Path, Set<String>> referredByStore) {
    if (fs == null) {
      return false;
    }
    Path family = file.getParent();
    Path region = family == null ? null : family.getParent();
    Path table = region == null ? null : region.getParent();
    Path namespace = table == null ? null : table.getParent();
    if (
      namespace == null || namespace.getParent() == null || !namespace.getParent().toUri()
        .getPath().equals(archiveDataDir.toUri().getPath())
    ) {
      return true; // not an archived store file of a table
    }
    Set<String> referred = referredByStore.get(family);
    if (referred == null) {
      try {
        referred = referredFiles(TableName.valueOf(namespace.getName(), table.getName()),
          family.getName());
      } catch (IOException | IllegalArgumentException e) {
        LOG.warn("Could not list the references to {}; keeping it", file, e);
        return false;
      }
      referredByStore.put(family, referred);
    }
    boolean keep = referred.contains(region.getName() + "/" + file.getName());
    if (keep) {
      LOG.debug("Keeping {}: a region of its table refers to it by its link name", file);
    }
    return !keep;
  }

  /**
   * The files ({@code region/file}) that a region of {@code tn} refers to in {@code family} by a
   * reference to a link of the same table.
   */
  private Set<String> referredFiles(TableName tn, String family) throws IOException {
    Set<String> out = new HashSet<>();
    Path tableDir = CommonFSUtils.getTableDir(rootDir, tn);
    if (!fs.exists(tableDir)) {
      return out;
    }
    for (FileStatus region : fs.listStatus(tableDir)) {
      Path store = new Path(region.getPath(), family);
      if (!region.isDirectory() || !fs.exists(store)) {
        continue;
      }
      for (FileStatus s : fs.listStatus(store)) {
        String name = s.getPath().getName();
        int dot = name.lastIndexOf('.');
        if (!StoreFileInfo.isReference(name) || dot < 0) {
          continue;
        }
        String link = name.substring(0, dot);
        if (HFileLink.isHFileLink(link) && HFileLink.getReferencedTableName(link).equals(tn)) {
          out.add(HFileLink.getReferencedRegionName(link) + "/"
            + HFileLink.getReferencedHFileName(link));
        }
      }
    }
    return out;
  }
}
