/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.apache.hadoop.hbase.rlsm.quickstart;

import static org.apache.hadoop.hbase.rlsm.quickstart.Formats.count;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.file.V2Files;
import org.apache.hadoop.hbase.rlsm.format.FileMeta;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.RlsmFileFormat;
import org.apache.hadoop.hbase.rlsm.format.V2FileInfo;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo family's store files under {@code hbase.rootdir}, read directly from the file system:
 * their names (to see a compaction finish) and a printed listing with sizes and, for RLSM files,
 * role and counts from the validated file (format v2: its file-info, every block checked;
 * format v1: its trailer). Only a local root is read: the client must not open
 * another file system itself, since ulfs ({@code RLSM_FS=ulfs}) allows one mount of its image
 * and the server holds it.
 */
@InterfaceAudience.Private
final class StoreFileReport {
  private static final Logger LOG = LoggerFactory.getLogger(StoreFileReport.class);

  /** A store file as listed; for RLSM files also what its validated metadata says. */
  static final class StoreFile {
    final FileStatus status;
    final boolean rlsm;
    /** Null unless {@link #rlsm} and the file validated. */
    final FileRole role;
    final long rows;
    final long cells;
    /** Store files this one replaces (written by compactions; HBase archives them later). */
    final List<String> replaces;
    /** Set when a compaction output in the same directory replaces this file. */
    boolean replaced;

    StoreFile(FileStatus status, boolean rlsm, FileRole role, long rows, long cells,
      List<String> replaces) {
      this.status = status;
      this.rlsm = rlsm;
      this.role = role;
      this.rows = rows;
      this.cells = cells;
      this.replaces = replaces;
    }
  }

  private final Configuration conf;
  private final TableName tableName;
  private final byte[] family;
  private final Failures failures;

  StoreFileReport(Configuration conf, TableName tableName, byte[] family, Failures failures) {
    this.conf = conf;
    this.tableName = tableName;
    this.family = family;
    this.failures = failures;
  }

  /** Whether {@code hbase.rootdir} is on the local file system, the only one listed. */
  boolean localRoot() {
    return "file".equals(new Path(conf.get(HConstants.HBASE_DIR)).toUri().getScheme());
  }

  String rootDir() {
    return conf.get(HConstants.HBASE_DIR);
  }

  /** The names of the family's store files in every region, sorted. */
  List<String> names(Admin admin) throws IOException {
    List<String> names = new ArrayList<>();
    for (RegionInfo region : admin.getRegions(tableName)) {
      FileSystem fs = fileSystem();
      Path familyDir = familyDir(region);
      if (fs.exists(familyDir)) {
        for (FileStatus st : fs.listStatus(familyDir)) {
          if (st.isFile()) {
            names.add(st.getPath().getName());
          }
        }
      }
    }
    Collections.sort(names);
    return names;
  }

  /**
   * The family's store files, printed with sizes and whether each is an RLSM file. Every RLSM
   * file is opened and all its checksums verified, and its role (Level-0 flush, Level-1 segment
   * or manifest) and counts are shown; a file that fails is a check failure.
   */
  List<StoreFile> list(Admin admin, PrintStream out) throws IOException {
    FileSystem fs = fileSystem();
    List<StoreFile> files = new ArrayList<>();
    for (RegionInfo region : admin.getRegions(tableName)) {
      Path familyDir = familyDir(region);
      out.println();
      out.println("Store files of family " + Bytes.toString(family) + " (region "
        + region.getEncodedName() + "):");
      out.println("  " + fs.makeQualified(familyDir));
      if (!fs.exists(familyDir)) {
        out.println("  (directory missing)");
        continue;
      }
      List<FileStatus> listed = new ArrayList<>();
      for (FileStatus st : fs.listStatus(familyDir)) {
        // Skips .tmp and other directories; store files are plain files.
        if (st.isFile() && !st.getPath().getName().startsWith(".")) {
          listed.add(st);
        }
      }
      listed.sort(Comparator.comparingLong(FileStatus::getModificationTime));
      List<StoreFile> here = new ArrayList<>();
      Set<String> replacedNames = new HashSet<>();
      for (FileStatus st : listed) {
        try {
          StoreFile f = inspect(fs, st);
          here.add(f);
          replacedNames.addAll(f.replaces);
        } catch (FileNotFoundException e) {
          // A compaction finished in between and archived its inputs: not a store file any more.
          LOG.info("{} went away while listing (compacted)", st.getPath());
        }
      }
      for (StoreFile f : here) {
        f.replaced = replacedNames.contains(f.status.getPath().getName());
        out.println(String.format(Locale.ROOT, "  %-32s %11s bytes  %s%s",
          f.status.getPath().getName(), count(f.status.getLen()), describe(f),
          f.replaced ? "  (replaced; archived later)" : ""));
      }
      if (here.isEmpty()) {
        out.println("  (no store files)");
      }
      files.addAll(here);
    }
    return files;
  }

  private static String describe(StoreFile f) {
    if (f.role != null) {
      return String.format(Locale.ROOT, "RLSM %-8s L%d %8s rows %9s cells  checksums OK",
        f.role, f.role.level(), count(f.rows), count(f.cells));
    }
    return f.rlsm ? "RLSM, damaged (see above)" : "not RLSM (HFile or other)";
  }

  private FileSystem fileSystem() throws IOException {
    return CommonFSUtils.getRootDir(conf).getFileSystem(conf);
  }

  private Path familyDir(RegionInfo region) throws IOException {
    Path tableDir = CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(conf), tableName);
    return new Path(new Path(tableDir, region.getEncodedName()), Bytes.toString(family));
  }

  private StoreFile inspect(FileSystem fs, FileStatus st) throws IOException {
    Path p = st.getPath();
    try {
      if (RlsmFileFormat.isRlsmFileElseHFile(fs, p)) {
        try (RlsmFileReader reader = RlsmFileReader.open(fs, p)) {
          // format v1: open() checks trailer, index, Bloom and meta; this checks the rows too
          reader.verifyData();
          return new StoreFile(st, true, reader.trailer().role(), reader.trailer().rowCount(),
            reader.trailer().cellCount(),
            reader.meta().getStringList(p.toString(), FileMeta.COMPACTED_FILES));
        }
      }
      Map<byte[], byte[]> info = V2Files.fileInfo(fs, p, conf);
      FileRole role = V2FileInfo.role(p.toString(), -1, info.get(V2FileInfo.ROLE));
      if (role == null) {
        return new StoreFile(st, false, null, 0, 0, Collections.emptyList());
      }
      // format v2: every block's checksum
      long cells = V2Files.verify(fs, p, conf);
      byte[] compacted = info.get(HStoreFile.COMPACTION_EVENT_KEY);
      return new StoreFile(st, true, role,
        V2FileInfo.getLong(info.get(V2FileInfo.ROW_COUNT), 0), cells,
        compacted == null ? Collections.emptyList()
          : new ArrayList<>(ProtobufUtil.toCompactedStoreFiles(compacted)));
    } catch (FileNotFoundException e) {
      throw e;
    } catch (IOException e) {
      failures.add("RLSM file " + p + " does not validate: " + e.getMessage());
      return new StoreFile(st, true, null, 0, 0, Collections.emptyList());
    }
  }
}
