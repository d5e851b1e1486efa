package org.apache.hadoop.hbase.rlsm;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.rlsm.format.RlsmFileFormat;
import org.apache.hadoop.hbase.snapshot.SnapshotDescriptionUtils;
import org.apache.hadoop.hbase.snapshot.SnapshotReferenceUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.FSUtils;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * What a snapshot of an RLSM table needs beyond HBase's own snapshot code: that no store file of
 * an RLSM family is in format v1, checked when the snapshot is taken and when it is cloned or
 * restored. A snapshot's clone or restore reads every file through an
 * HFileLink, whose stream follows the file into the archive; v2 files are HFiles and are read so
 * by HBase, but the v1 reader opens one path. A v1 file is rewritten to v2 by the first compaction
 * that reads it, so a major compaction makes the table snapshot-ready (docs/operations.md).
 * Stateless.
 */
@InterfaceAudience.Private
public final class RlsmSnapshots {
  private RlsmSnapshots() {
  }

  /**
   * Refuses a snapshot of {@code td} while an RLSM family holds a v1 file. Reads the last bytes of
   * each plain store file of the RLSM families (links and references are skipped: a link's
   * target passed this check when its own snapshot was taken).
   * @throws DoNotRetryIOException naming the first v1 file found
   */
  public static void checkSnapshotReady(Configuration conf, TableDescriptor td)
    throws IOException {
    Path tableDir = CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(conf), td.getTableName());
    FileSystem fs = tableDir.getFileSystem(conf);
    if (!fs.exists(tableDir)) {
      return;
    }
    for (Path regionDir : FSUtils.getRegionDirs(fs, tableDir)) {
      for (ColumnFamilyDescriptor f : td.getColumnFamilies()) {
        Path familyDir = new Path(regionDir, f.getNameAsString());
        if (!RlsmTables.usesRlsm(conf, td, f) || !fs.exists(familyDir)) {
          continue;
        }
        for (FileStatus st : fs.listStatus(familyDir)) {
          String name = st.getPath().getName();
          if (
            st.isFile() && !HFileLink.isHFileLink(name) && !StoreFileInfo.isReference(name)
              && isRlsmFileIfPresent(fs, st.getPath())
          ) {
            throw new DoNotRetryIOException("Cannot snapshot " + td.getTableName() + ": store "
              + "file " + st.getPath() + " is in RLSM format v1, which a clone or restore cannot "
              + "read through a link; major-compact the table (it rewrites v1 files to v2) and "
              + "take the snapshot again");
          }
        }
      }
    }
  }

  /**
   * Whether {@code file} is an RLSM v1 file; false when it is gone since the family was listed: a
   * compaction retired (archived) it meanwhile, so the snapshot, which lists the store's files
   * after this check, cannot hold it.
   */
  private static boolean isRlsmFileIfPresent(FileSystem fs, Path file) throws IOException {
    try {
      return RlsmFileFormat.isRlsmFile(fs, file);
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  /**
   * Refuses a clone or restore of a snapshot that holds a v1 file of an RLSM family (taken
   * without {@link RlsmMasterObserver}): its cloned region could not open, and HBase would retry
   * the open without end. Reads the last bytes of each file the snapshot names, where it is now
   * (table, archive); links and references in the snapshot are skipped as above.
   * @throws DoNotRetryIOException naming the first v1 file found
   */
  public static void checkSnapshotFiles(Configuration conf, String snapshotName,
    TableDescriptor td) throws IOException {
    Path root = CommonFSUtils.getRootDir(conf);
    FileSystem fs = root.getFileSystem(conf);
    Path snapshotDir = SnapshotDescriptionUtils.getCompletedSnapshotDir(snapshotName, root);
    SnapshotReferenceUtil.visitReferencedFiles(conf, fs, snapshotDir, (region, family, file) -> {
      ColumnFamilyDescriptor f = td.getColumnFamily(Bytes.toBytes(family));
      String name = file.getName();
      if (
        f == null || !RlsmTables.usesRlsm(conf, td, f) || file.hasReference()
          || HFileLink.isHFileLink(name) || StoreFileInfo.isReference(name)
      ) {
        return;
      }
      Path data = HFileLink.build(conf, region.getTable(), region.getEncodedName(), family, name)
        .getAvailablePath(fs);
      if (RlsmFileFormat.isRlsmFile(fs, data)) {
        throw new DoNotRetryIOException("Snapshot " + snapshotName + " holds " + data + ", an "
          + "RLSM format v1 file, which a clone or restore cannot read through a link; take the "
          + "snapshot again after a major compaction of " + region.getTable());
      }
    });
  }
}
