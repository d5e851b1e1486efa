package org.apache.hadoop.hbase.rlsm.format;

import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * The RLSM entries of a format-v2 file's HFile file-info block (docs/format/rlsm-file.md,
 * "Version 2"). A v2 file is an HFile v3 written by HBase's own writer; what RLSM needs beyond
 * HBase's own file-info keys (max sequence id, time range, compacted files) is kept under keys
 * prefixed {@code RLSM_}. A file without {@link #ROLE} is an HFile RLSM did not write (a bulk
 * load): a Level-0 file to the engine. Errors name the file-info block's offset (the HFile
 * trailer's load-on-open offset).
 */
@InterfaceAudience.Private
public final class V2FileInfo {
  /** u16: the RLSM format version of the file; {@link #VERSION}. */
  public static final byte[] FORMAT_VERSION = Bytes.toBytes("RLSM_FORMAT_VERSION");
  /** u8: {@link FileRole#code()}. */
  public static final byte[] ROLE = Bytes.toBytes("RLSM_ROLE");
  /** i64: distinct rows in the file (0 for a manifest). */
  public static final byte[] ROW_COUNT = Bytes.toBytes("RLSM_ROW_COUNT");
  /** i64, manifests only: increases by one with every manifest of a store. */
  public static final byte[] MANIFEST_GENERATION = Bytes.toBytes("RLSM_MANIFEST_GENERATION");
  /** Manifests only: the Level-1 layout, {@link PartitionDescriptor#encodeList}. */
  public static final byte[] MANIFEST_PARTITIONS = Bytes.toBytes("RLSM_MANIFEST_PARTITIONS");
  /**
   * Flush and segment files: the sketch of the file's distinct rows (the encoding of
   * {@code rlsm.index.RowSketch}); absent in files written before it existed.
   */
  public static final byte[] ROW_SKETCH = Bytes.toBytes("RLSM_ROW_SKETCH");
  /**
   * Flush and segment files written before {@link #ROW_QUANTILES_BLOCK}: the file's rows cut
   * into buckets (the encoding of {@code rlsm.index.RowQuantiles}), from which an index split
   * finds its median. Still read; no longer written, because HBase pins every open file's
   * file-info on the heap and the quantiles are up to about 17 KB a file.
   */
  public static final byte[] ROW_QUANTILES = Bytes.toBytes("RLSM_ROW_QUANTILES");
  /**
   * Flush and segment files: the name of the HFile meta block holding the file's row quantiles
   * (the same encoding as {@link #ROW_QUANTILES}), read through the BlockCache when an index
   * split asks; absent in files written before it existed.
   */
  public static final String ROW_QUANTILES_BLOCK = "RLSM_ROW_QUANTILES";
  /**
   * Manifests, optional: per partition, the statistics of its rows, {@link PartitionStats};
   * absent in manifests written before it existed.
   */
  public static final byte[] MANIFEST_STATS = Bytes.toBytes("RLSM_MANIFEST_STATS");
  /**
   * i64, manifest edits only: the generation of the manifest whose layout the edit changes
   * ({@link ManifestRecord}). A manifest without it is a checkpoint (the whole layout).
   */
  public static final byte[] MANIFEST_BASE = Bytes.toBytes("RLSM_MANIFEST_BASE");
  /**
   * Manifest edits only: the ranges of the removed partitions,
   * {@link ManifestRecord#encodeRanges}.
   */
  public static final byte[] MANIFEST_REMOVED = Bytes.toBytes("RLSM_MANIFEST_REMOVED");
  /** Bytes of HBase's fixed trailer at the end of an HFile v3 ({@code FixedFileTrailer}). */
  public static final int TRAILER_BYTES = 4096;
  /**
   * The format version every v2 file carries but a manifest edit: a reader of version 2 would
   * take an edit's partitions for the whole layout, so edits carry {@link #EDIT_VERSION}, and
   * a store stays readable by version-2 code until its first edit.
   */
  public static final int VERSION = 2;
  /** The format version of a manifest edit (version 3 adds edits, nothing else). */
  public static final int EDIT_VERSION = 3;

  private V2FileInfo() {
  }

  public static byte[] versionBytes(int version) {
    return Bytes.toBytes((short) version);
  }

  public static byte[] roleBytes(FileRole role) {
    return new byte[] { (byte) role.code() };
  }

  /**
   * The role recorded in a file-info value; null when the value is absent (not an RLSM file).
   * @throws RlsmCorruptionException when present but not a known role
   */
  public static FileRole role(String file, long offset, byte[] value) throws RlsmCorruptionException {
    if (value == null) {
      return null;
    }
    FileRole r = value.length == 1 ? FileRole.fromCode(value[0]) : null;
    if (r == null) {
      throw new RlsmCorruptionException(file, offset, "file-info RLSM_ROLE is not a known role");
    }
    return r;
  }

  /**
   * Checks the version entry of an RLSM v2 file: present and one this code reads.
   * @return the version
   */
  public static int checkVersion(String file, long offset, byte[] value)
    throws RlsmCorruptionException {
    if (value == null || value.length != 2) {
      throw new RlsmCorruptionException(file, offset, "file-info lacks RLSM_FORMAT_VERSION");
    }
    int v = Bytes.toShort(value);
    if (v != VERSION && v != EDIT_VERSION) {
      throw new RlsmCorruptionException(file, offset, "RLSM format version " + v
        + " is not one this code reads (" + VERSION + ", " + EDIT_VERSION + ")");
    }
    return v;
  }

  public static long getLong(byte[] value, long dflt) {
    return value == null || value.length != Bytes.SIZEOF_LONG ? dflt : Bytes.toLong(value);
  }

  /** The manifest's partitions, checked as v1 checks them. */
  public static List<PartitionDescriptor> partitions(String file, long offset, byte[] value)
    throws RlsmCorruptionException {
    if (value == null) {
      throw new RlsmCorruptionException(file, offset, "manifest lacks RLSM_MANIFEST_PARTITIONS");
    }
    return PartitionDescriptor.decodeList(file, offset, value);
  }

  /**
   * A manifest's record from its file-info entries ({@code info} returns null for an absent
   * key), checked: generation at least 1; a checkpoint's partitions and statistics; an edit's
   * version {@link #EDIT_VERSION}, base below its generation, removed ranges, added partitions
   * and their statistics.
   */
  public static ManifestRecord manifest(String file, long offset, Function<byte[], byte[]> info)
    throws RlsmCorruptionException {
    long generation = getLong(info.apply(MANIFEST_GENERATION), -1);
    if (generation < 1) {
      throw new RlsmCorruptionException(file, offset, "manifest lacks its generation");
    }
    List<PartitionDescriptor> partitions =
      partitions(file, offset, info.apply(MANIFEST_PARTITIONS));
    byte[] statsValue = info.apply(MANIFEST_STATS);
    List<PartitionStats> stats = statsValue == null ? null
      : PartitionStats.decodeList(file, offset, statsValue, partitions.size());
    byte[] baseValue = info.apply(MANIFEST_BASE);
    if (baseValue == null) {
      return ManifestRecord.checkpoint(file, generation, partitions, stats);
    }
    long base = getLong(baseValue, -1);
    if (base < 1 || base >= generation) {
      throw new RlsmCorruptionException(file, offset, "manifest edit of generation " + generation
        + " has base generation " + base);
    }
    byte[] version = info.apply(FORMAT_VERSION);
    if (version == null || version.length != 2 || Bytes.toShort(version) != EDIT_VERSION) {
      throw new RlsmCorruptionException(file, offset, "manifest edit without format version "
        + EDIT_VERSION);
    }
    byte[] removed = info.apply(MANIFEST_REMOVED);
    if (removed == null) {
      throw new RlsmCorruptionException(file, offset, "manifest edit lacks RLSM_MANIFEST_REMOVED");
    }
    return ManifestRecord.edit(file, generation, base,
      ManifestRecord.decodeRanges(file, offset, removed), partitions, stats);
  }
}
