package org.apache.hadoop.hbase.rlsm.file;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.RlsmFileFormat;
import org.apache.hadoop.hbase.rlsm.format.V2FileInfo;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Whether a store directory may be opened by HBase's default engine (docs/install.md, "Removing
 * RLSM"). That engine serves every file in the directory whole, except the files another file
 * names as compacted (HBase's compaction-event list, which its region open archives). So the
 * directory is ready when every file it would serve is a whole file:
 * <ul>
 * <li>no format-v1 file (the default engine cannot read one at all, compacted or not);</li>
 * <li>no Level-1 manifest and no segment that no other file names as compacted: a live manifest
 * means Level-1 exists, whose segments, and whose linked flush files, may hold rows outside the
 * partitions listing them that the manifest hides;</li>
 * <li>no reference or link file (they point into files of other regions or snapshots).</li>
 * </ul>
 * Reads only the file-info of each file. A file archived while it is looked at is skipped.
 */
@InterfaceAudience.Private
public final class LeaveReadiness {
  private LeaveReadiness() {
  }

  /**
   * The files of {@code familyDir} that keep it from HBase's default engine, each with the
   * reason; empty when the directory is ready (or does not exist).
   */
  public static List<String> blockers(FileSystem fs, Path familyDir, Configuration conf)
    throws IOException {
    List<String> out = new ArrayList<>();
    FileStatus[] files;
    try {
      files = fs.listStatus(familyDir);
    } catch (FileNotFoundException e) {
      return out;
    }
    Set<String> compacted = new HashSet<>();
    Map<Path, FileRole> level1 = new LinkedHashMap<>();
    for (FileStatus st : files) {
      Path p = st.getPath();
      if (!st.isFile()) {
        continue; // a store file tracker's directory, never a store file
      }
      if (StoreFileInfo.isReference(p) || HFileLink.isHFileLink(p)) {
        out.add(p + ": a reference or link file (compact the region first)");
        continue;
      }
      try {
        if (RlsmFileFormat.isRlsmFile(fs, p)) {
          out.add(p + ": RLSM format v1, which HBase's engine cannot read");
          continue;
        }
        Map<byte[], byte[]> info = V2Files.fileInfo(fs, p, conf);
        byte[] event = info.get(HStoreFile.COMPACTION_EVENT_KEY);
        if (event != null) {
          compacted.addAll(ProtobufUtil.toCompactedStoreFiles(event));
        }
        byte[] role = info.get(V2FileInfo.ROLE);
        FileRole r = role == null ? null : V2FileInfo.role(p.toString(), -1, role);
        if (r == FileRole.MANIFEST || r == FileRole.SEGMENT) {
          level1.put(p, r);
        }
      } catch (FileNotFoundException e) {
        // archived by a compaction or region open meanwhile: not served any more
      }
    }
    level1.forEach((p, r) -> {
      if (!compacted.contains(p.getName())) {
        out.add(p + ": a live Level-1 " + (r == FileRole.MANIFEST ? "manifest" : "segment"));
      }
    });
    return out;
  }
}
