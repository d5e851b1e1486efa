package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.rlsm.file.V2Files;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.ManifestChain;
import org.apache.hadoop.hbase.rlsm.format.ManifestRecord;
import org.apache.hadoop.hbase.rlsm.format.PartitionStats;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.rlsm.format.V2FileInfo;
import org.apache.hadoop.hbase.rlsm.index.RowQuantiles;
import org.apache.hadoop.hbase.rlsm.index.RowSketch;
import org.apache.hadoop.hbase.util.Pair;
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

  /**
   * Where a store file's bytes were written: the region whose store directory holds the HFile
   * (by encoded name) and the HFile's name there. A manifest lists segment names of the store
   * it was written in, so a manifest's listing is resolved against its own origin region, and a
   * file of this store matches a listed segment when both have the same origin.
   */
  public static final class Origin {
    public final String region;
    public final String name;

    Origin(String region, String name) {
      this.region = region;
      this.name = name;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Origin && ((Origin) o).region.equals(region)
        && ((Origin) o).name.equals(name);
    }

    @Override
    public int hashCode() {
      return Objects.hash(region, name);
    }

    @Override
    public String toString() {
      return region + "/" + name;
    }
  }

  /**
   * The origin of a store file name found in the store directory of region {@code dirRegion}:
   * a plain name is that region's own file; a split or merge {@code Reference}
   * ({@code <name>.<region>}) points into the named region's directory, where the name may
   * itself be an {@code HFileLink}; an {@code HFileLink} ({@code <table>=<region>-<hfile>},
   * snapshot clones) names the HFile's region and name. The one place RLSM resolves file names.
   */
  public static Origin origin(String fileName, String dirRegion) {
    String name = fileName;
    String region = dirRegion;
    if (StoreFileInfo.isReference(name)) {
      Pair<String, String> rf = StoreFileInfo.getReferredToRegionAndFile(name);
      region = rf.getFirst();
      name = rf.getSecond();
    }
    if (HFileLink.isHFileLink(name)) {
      region = HFileLink.getReferencedRegionName(name);
      name = HFileLink.getReferencedHFileName(name);
    }
    return new Origin(region, name);
  }

  /** The origin of a store file of the store of region {@code dirRegion}. */
  public static Origin origin(HStoreFile f, String dirRegion) {
    return origin(f.getPath().getName(), dirRegion);
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

  /**
   * The generation a manifest edit applies to; 0 for a checkpoint (every v1 manifest, and every
   * v2 manifest without a base).
   */
  public static long base(HStoreFile manifest) {
    if (manifest instanceof RlsmStoreFile) {
      return 0;
    }
    return V2FileInfo.getLong(manifest.getMetadataValue(V2FileInfo.MANIFEST_BASE), 0);
  }

  /**
   * What a manifest records, checkpoint or edit (decoded on every call: the file manager keeps
   * the layout it replays).
   */
  public static ManifestRecord manifest(HStoreFile manifest) throws IOException {
    String name = manifest.getPath().toString();
    if (manifest instanceof RlsmStoreFile) {
      RlsmStoreFile v1 = (RlsmStoreFile) manifest;
      return ManifestRecord.checkpoint(name, v1.getGeneration(), v1.getPartitions(), null);
    }
    return V2FileInfo.manifest(name, fileInfoOffset(manifest), manifest::getMetadataValue);
  }

  /**
   * The live chain among the manifests of one region ({@link ManifestChain#live}), checkpoint
   * first.
   * @throws RlsmCorruptionException naming an edit whose base the store does not hold
   */
  public static List<HStoreFile> chain(Collection<HStoreFile> manifests)
    throws RlsmCorruptionException {
    return ManifestChain.live(manifests, RlsmFiles::generation, RlsmFiles::base,
      m -> m.getPath().toString());
  }

  /** The layout a chain records ({@link ManifestChain#replay}). */
  public static ManifestChain.Layout layout(List<HStoreFile> chain) throws IOException {
    List<ManifestRecord> records = new ArrayList<>(chain.size());
    for (HStoreFile m : chain) {
      records.add(manifest(m));
    }
    return ManifestChain.replay(records);
  }

  /** The sketch of a file's rows, or null when it records none (v1, older v2, bulk loads). */
  public static RowSketch sketch(HStoreFile f) {
    return decoded(f, V2FileInfo.ROW_SKETCH, RowSketch::decode);
  }

  /**
   * The quantiles of a file's rows, or null when it records none (v1, older v2, bulk loads).
   * Read and decoded on every call (only an index split asks, on the compaction thread): from
   * the file's meta block through the BlockCache, or from file-info in files written before it.
   * @throws RlsmCorruptionException naming the file and the meta block's offset when the block
   *           does not decode (file-info quantiles are checked at open)
   */
  public static RowQuantiles quantiles(HStoreFile f) throws IOException {
    if (f instanceof RlsmStoreFile) {
      return null;
    }
    RowQuantiles inFileInfo = decoded(f, V2FileInfo.ROW_QUANTILES, RowQuantiles::decode);
    return inFileInfo != null ? inFileInfo
      : V2Files.quantiles(f.getPath().toString(), f.getReader().getHFileReader(), true);
  }

  /** A decoder of one RLSM file-info entry; errors name the file and offset given. */
  private interface Decoder<T> {
    T decode(String file, long fileOffset, byte[] value) throws RlsmCorruptionException;
  }

  /** A v2 file's entry {@code key} decoded, or null when absent (and for every v1 file). */
  private static <T> T decoded(HStoreFile f, byte[] key, Decoder<T> decoder) {
    byte[] v = f instanceof RlsmStoreFile ? null : f.getMetadataValue(key);
    if (v == null) {
      return null;
    }
    try {
      return decoder.decode(f.getPath().toString(), fileInfoOffset(f), v);
    } catch (RlsmCorruptionException e) {
      throw new UncheckedIOException(e); // checked at open
    }
  }

  /**
   * Checks the RLSM file-info entries of a v2 file just opened: a known version and role, a
   * manifest's generation, partitions and statistics, another file's row sketch and row
   * quantiles; a file without them is not RLSM's and passes.
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
      ManifestRecord m = manifest(f);
      if (m.stats() != null) {
        for (PartitionStats s : m.stats()) {
          if (s != null) {
            RowSketch.decode(name, offset, s.sketch());
          }
        }
      }
    } else {
      byte[] sketch = f.getMetadataValue(V2FileInfo.ROW_SKETCH);
      if (sketch != null) {
        RowSketch.decode(name, offset, sketch);
      }
      byte[] quantiles = f.getMetadataValue(V2FileInfo.ROW_QUANTILES);
      if (quantiles != null) {
        RowQuantiles.decode(name, offset, quantiles);
      }
    }
  }

  /** Where the file-info block starts (the HFile's load-on-open section), for error messages. */
  private static long fileInfoOffset(HStoreFile f) {
    StoreFileReader r = f.getReader();
    return r == null ? -1 : r.getHFileReader().getTrailer().getLoadOnOpenDataOffset();
  }
}
