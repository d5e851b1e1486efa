package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.PartitionDescriptor;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.rlsm.format.V2FileInfo;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * What RLSM knows of an open store file, whatever its format: a v1 file's facts come from its
 * trailer and meta ({@link RlsmStoreFile}), a v2 file's from its HFile file-info
 * ({@link V2FileInfo}); an HFile without RLSM entries (a bulk load) is a Level-0 file. The v2 entries were checked when the
 * engine opened the file ({@link #check}), so the accessors do not fail.
 */
@InterfaceAudience.Private
public final class RlsmFiles {
  private RlsmFiles() {
  }

  /** Whether RLSM wrote the file (v1, or v2 with an RLSM role). */
  public static boolean isRlsm(HStoreFile f) {
    return f instanceof RlsmStoreFile || f.getMetadataValue(V2FileInfo.ROLE) != null;
  }

  public static FileRole role(HStoreFile f) {
    if (f instanceof RlsmStoreFile) {
      return ((RlsmStoreFile) f).getRole();
    }
    byte[] v = f.getMetadataValue(V2FileInfo.ROLE);
    return v == null ? FileRole.FLUSH : FileRole.fromCode(v[0]);
  }

  /**
   * The name a Level-1 manifest lists for a file: the file's own name, except for an HBase
   * reference ({@code hfile.region}, written by a split) whose origin is the file it refers to,
   * and an HFileLink ({@code [ns=]table=region-hfile}, written by a snapshot clone or restore)
   * whose origin is the linked hfile; a reference to a link resolves through both. A manifest
   * copied by a snapshot names its segments by origin, so a store of links finds them by it.
   */
  public static String originName(HStoreFile f) {
    return originName(f.getPath().getName());
  }

  /** {@link #originName(HStoreFile)} of a store file name. */
  static String originName(String name) {
    if (StoreFileInfo.isReference(name)) {
      name = StoreFileInfo.getReferredToRegionAndFile(name).getSecond();
    }
    return HFileLink.isHFileLink(name) ? HFileLink.getReferencedHFileName(name) : name;
  }

  /** Distinct rows of a file (v2: RLSM_ROW_COUNT; a bulk-loaded HFile: its cell count). */
  public static long rowCount(HStoreFile f) {
    if (f instanceof RlsmStoreFile) {
      return ((RlsmStoreFile) f).getReader().getRlsmFile().trailer().rowCount();
    }
    long cells = f.getReader().getEntries();
    return V2FileInfo.getLong(f.getMetadataValue(V2FileInfo.ROW_COUNT), cells);
  }

  /** A manifest's generation. */
  public static long generation(HStoreFile manifest) {
    if (manifest instanceof RlsmStoreFile) {
      return ((RlsmStoreFile) manifest).getGeneration();
    }
    return V2FileInfo.getLong(manifest.getMetadataValue(V2FileInfo.MANIFEST_GENERATION), -1);
  }

  /** A manifest's partitions (decoded on every call: the file manager keeps the result). */
  public static List<PartitionDescriptor> partitions(HStoreFile manifest) throws IOException {
    if (manifest instanceof RlsmStoreFile) {
      return ((RlsmStoreFile) manifest).getPartitions();
    }
    return V2FileInfo.partitions(manifest.getPath().toString(), fileInfoOffset(manifest),
      manifest.getMetadataValue(V2FileInfo.MANIFEST_PARTITIONS));
  }

  /**
   * Checks the RLSM file-info entries of a v2 file just opened: a known version and role, and a
   * manifest's generation and partitions; a file without them is not RLSM's and passes.
   */
  static void check(HStoreFile f) throws IOException {
    byte[] role = f.getMetadataValue(V2FileInfo.ROLE);
    if (role == null) {
      return;
    }
    String name = f.getPath().toString();
    long offset = fileInfoOffset(f);
    V2FileInfo.checkVersion(name, offset, f.getMetadataValue(V2FileInfo.FORMAT_VERSION));
    FileRole r = V2FileInfo.role(name, offset, role);
    if (r == FileRole.MANIFEST) {
      if (generation(f) < 1) {
        throw new RlsmCorruptionException(name, offset, "manifest lacks its generation");
      }
      partitions(f);
    }
  }

  /** Where the file-info block starts (the HFile's load-on-open section), for error messages. */
  private static long fileInfoOffset(HStoreFile f) {
    StoreFileReader r = f.getReader();
    return r == null ? -1 : r.getHFileReader().getTrailer().getLoadOnOpenDataOffset();
  }
}
