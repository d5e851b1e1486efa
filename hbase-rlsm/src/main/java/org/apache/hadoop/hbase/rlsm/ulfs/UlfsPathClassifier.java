package org.apache.hadoop.hbase.rlsm.ulfs;

import org.apache.hadoop.hbase.rlsm.cachehint.FileKind;

/**
 * The Hadoop adapter's guess of a file's kind from its HBase path, made when the file is created
 * (the RLSM engine refines store files with their level; see docs/ulfs.md "Hints"):
 * <ul>
 * <li>{@code <root>/WALs/<server>/...}, {@code <root>/oldWALs/...},
 * {@code <root>/MasterData/WALs/...} and {@code .../<region>/recovered.edits/...}: WAL;</li>
 * <li>a path with a {@code .tmp} component (region and store temporary outputs): TMP;</li>
 * <li>anything else: null, no hint (store files under
 * {@code data/<ns>/<table>/<region>/<family>/} get theirs from the engine, which knows their
 * level).</li>
 * </ul>
 * A file renamed into HBase's {@code archive/} directory (a compacted store file) is never read
 * by the store again: {@link #isArchive} lets the adapter drop its pages.
 */
final class UlfsPathClassifier {
  private UlfsPathClassifier() {
  }

  static FileKind classify(String path) {
    String[] parts = path.split("/");
    for (int i = 0; i < parts.length - 1; i++) { // directories only, never the file name
      switch (parts[i]) {
        case "WALs":
        case "oldWALs":
        case "recovered.edits":
          return FileKind.WAL;
        case ".tmp":
          return FileKind.TMP;
        default:
          break;
      }
    }
    return null;
  }

  static boolean isArchive(String path) {
    String[] parts = path.split("/");
    for (int i = 0; i < parts.length - 1; i++) {
      if (parts[i].equals("archive")) {
        return true;
      }
    }
    return false;
  }
}
