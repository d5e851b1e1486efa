package org.apache.hadoop.hbase.rlsm.cachehint;

import org.apache.hadoop.hbase.rlsm.format.FileRole;

/** What a file is to the LSM store; codes as {@code ulfs_file_kind} in ulfs.h. */
public enum FileKind {
  OTHER(0),
  /** Write-ahead log, archived WAL or recovered edits. */
  WAL(1),
  /** Level-0 store file: one hash-ordered memstore flush. */
  L0(2),
  /** Level-1 partition segment. */
  L1_SEGMENT(3),
  /** The per-store Level-1 manifest. */
  MANIFEST(4),
  /** A flush or compaction output still under its temporary name. */
  TMP(5);

  /** Level of files outside the LSM levels (ULFS_LEVEL_NONE). */
  public static final int NO_LEVEL = 255;

  private final int code;

  FileKind(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The kind of an RLSM file of the given role. */
  public static FileKind of(FileRole role) {
    switch (role) {
      case FLUSH:
        return L0;
      case SEGMENT:
        return L1_SEGMENT;
      case MANIFEST:
        return MANIFEST;
      default:
        throw new IllegalArgumentException("no cache kind for RLSM file role " + role);
    }
  }
}
