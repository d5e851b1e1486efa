package org.apache.hadoop.hbase.rlsm.tool;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.regionserver.HRegionFileSystem;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.file.V2Files;
import org.apache.hadoop.hbase.rlsm.format.FileMeta;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.ManifestChain;
import org.apache.hadoop.hbase.rlsm.format.ManifestRecord;
import org.apache.hadoop.hbase.rlsm.format.PartitionDescriptor;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.rlsm.format.RlsmFileFormat;
import org.apache.hadoop.hbase.rlsm.format.V2FileInfo;
import org.apache.hadoop.hbase.rlsm.index.BloomFilter;
import org.apache.hadoop.hbase.rlsm.index.HashIndex;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Offline check of RLSM store files (the {@code rlsm-verify} tool). A format-v2 file (an HFile)
 * is read whole by HBase's reader, whose block checksums are verified on every block, and its
 * RLSM file-info entries are decoded; a bulk-loaded HFile is read the same way. A v1 file: the
 * trailer, every section CRC, the index (hash order, lengths tiling the data section), every
 * record's CRC and row, and that the Level-0 Bloom filter admits every indexed row. For every
 * store: the live manifest chain (the newest manifest and, when it is an edit, the manifests it
 * builds on back to a checkpoint) is whole and replays (each edit applies to the generation
 * before it), and the layout it records names only files that are present, RLSM, of the store's
 * family (v1 files record it) and not manifests, in disjoint ascending partitions; a tie of
 * newest generations is damage; files of no layout (segments it does not list, manifests
 * outside the chain) are orphans. A file that is neither RLSM v1 nor an HFile is damage.
 * Read-only: it never changes a file.
 */
@InterfaceAudience.Private
public final class StoreVerifier {
  /** What the layout check needs of one sound file. */
  private static final class Facts {
    final Path path;
    final FileRole role;
    final String family; // null: the format does not record it (v2)
    /** What a manifest records (checked when the file was read); null for other roles. */
    final ManifestRecord manifest;
    final long metaOffset;

    Facts(Path path, FileRole role, String family, ManifestRecord manifest, long metaOffset) {
      this.path = path;
      this.role = role;
      this.family = family;
      this.manifest = manifest;
      this.metaOffset = metaOffset;
    }

    long generation() {
      return manifest.generation();
    }
  }

  private final FileSystem fs;
  private final List<Damage> findings = new ArrayList<>();
  private int filesChecked;
  private int storesChecked;

  public StoreVerifier(FileSystem fs) {
    this.fs = fs;
  }

  public List<Damage> findings() {
    return findings;
  }

  public int filesChecked() {
    return filesChecked;
  }

  public int storesChecked() {
    return storesChecked;
  }

  /** True when no finding is {@link Damage.Severity#DAMAGE}. */
  public boolean clean() {
    return findings.stream().noneMatch(d -> d.severity() == Damage.Severity.DAMAGE);
  }

  private void damage(String file, long offset, String what) {
    findings.add(new Damage(Damage.Severity.DAMAGE, file, offset, what));
  }

  /**
   * Checks {@code p}: a file, a store directory (files directly inside), a region directory (has
   * {@code .regioninfo}) or a table directory (region directories inside).
   */
  public StoreVerifier verify(Path p) throws IOException {
    FileStatus st = fs.getFileStatus(p);
    if (st.isFile()) {
      verifyFile(st.getPath(), null);
    } else if (fs.exists(new Path(p, HRegionFileSystem.REGION_INFO_FILE))) {
      verifyRegion(p);
    } else {
      List<Path> regions = new ArrayList<>();
      for (FileStatus s : fs.listStatus(p)) {
        if (s.isDirectory()
          && fs.exists(new Path(s.getPath(), HRegionFileSystem.REGION_INFO_FILE))) {
          regions.add(s.getPath());
        }
      }
      if (regions.isEmpty()) {
        verifyStore(p);
      }
      for (Path region : regions) {
        verifyRegion(region);
      }
    }
    return this;
  }

  private void verifyRegion(Path region) throws IOException {
    for (FileStatus s : fs.listStatus(region)) {
      String name = s.getPath().getName();
      if (s.isDirectory() && !name.startsWith(".")
        && !name.equals(HConstants.RECOVERED_EDITS_DIR)) {
        verifyStore(s.getPath());
      }
    }
  }

  /**
   * Checks every file of one store and the store's Level-1 layout. A split or merge
   * {@code Reference} or an {@code HFileLink} points at another region's file, which is checked
   * with that region; while a store holds one, its Level-1 layout may be another region's
   * (docs/architecture.md, "Split and merge"), so only the files are checked.
   */
  public void verifyStore(Path store) throws IOException {
    storesChecked++;
    Map<String, FileRole> roles = new HashMap<>();
    Map<String, String> families = new HashMap<>();
    List<Facts> manifests = new ArrayList<>();
    boolean foreign = false;
    for (FileStatus s : fs.listStatus(store)) {
      if (!s.isFile()) {
        continue;
      }
      String name = s.getPath().getName();
      if (StoreFileInfo.isReference(name) || HFileLink.isHFileLink(name)) {
        foreign = true;
        continue;
      }
      Facts f = verifyFile(s.getPath(), roles);
      if (f == null) {
        continue;
      }
      families.put(s.getPath().getName(), f.family);
      if (f.role == FileRole.MANIFEST) {
        manifests.add(f);
      }
    }
    if (!foreign) {
      checkLayout(store, roles, families, manifests);
    }
  }

  private void checkLayout(Path store, Map<String, FileRole> roles,
    Map<String, String> families, List<Facts> manifests) throws IOException {
    Facts newest = null;
    Set<String> listed = new HashSet<>();
    for (Facts m : manifests) {
      if (newest != null && m.generation() == newest.generation()) {
        damage(m.path.toString(), m.metaOffset, "manifest generation " + m.generation()
          + " is also the generation of " + newest.path.getName());
      }
      if (newest == null || m.generation() > newest.generation()) {
        newest = m;
      }
    }
    if (newest != null) {
      String name = newest.path.toString();
      long at = newest.metaOffset;
      List<PartitionDescriptor> parts;
      try {
        List<Facts> chain = ManifestChain.live(manifests, Facts::generation,
          m -> m.manifest.base(), m -> m.path.toString());
        List<ManifestRecord> records = new ArrayList<>(chain.size());
        for (Facts m : chain) {
          listed.add(m.path.getName());
          records.add(m.manifest);
        }
        parts = ManifestChain.replay(records).partitions;
      } catch (RlsmCorruptionException e) {
        damage(e.getFile(), e.getOffset(), e.getMessage());
        return;
      }
      String family = newest.family;
      for (PartitionDescriptor p : parts) {
        for (String segment : p.segments()) {
          listed.add(segment);
          FileRole role = roles.get(segment);
          String segFamily = families.get(segment);
          if (!roles.containsKey(segment)) {
            damage(name, at, "partition " + range(p) + " lists segment " + segment
              + " that is not in " + store);
          } else if (role == null) {
            damage(name, at, "partition " + range(p) + " lists segment " + segment
              + " that is not a readable RLSM file");
          } else if (role == FileRole.MANIFEST) {
            damage(name, at, "partition " + range(p) + " lists the manifest " + segment);
          } else if (family != null && segFamily != null && !family.equals(segFamily)) {
            damage(name, at, "segment " + segment + " is of family " + segFamily
              + ", the manifest of family " + family);
          }
        }
      }
    }
    if (roles.containsValue(null)) {
      // An unreadable file may be the newest manifest: which files are orphans is then unknown.
      return;
    }
    for (Map.Entry<String, FileRole> e : roles.entrySet()) {
      if (!listed.contains(e.getKey())
        && (e.getValue() == FileRole.SEGMENT || e.getValue() == FileRole.MANIFEST)) {
        findings.add(new Damage(Damage.Severity.NOTICE, new Path(store, e.getKey()).toString(),
          -1, "orphan " + e.getValue() + " (no live manifest lists it; an interrupted"
            + " compaction's output, archived at the next region open)"));
      }
    }
  }

  private static String range(PartitionDescriptor p) {
    return "[" + Bytes.toStringBinary(p.low()) + ", " + Bytes.toStringBinary(p.high()) + "]";
  }

  /**
   * Checks one file; records its role in {@code roles} (null role: unreadable; an HFile RLSM
   * did not write is left out: Level-0, never a segment) and returns the facts of a sound RLSM
   * file, or null.
   */
  private Facts verifyFile(Path p, Map<String, FileRole> roles) throws IOException {
    filesChecked++;
    String name = p.getName();
    if (roles != null) {
      roles.put(name, null);
    }
    Facts f;
    try {
      f = RlsmFileFormat.isRlsmFileElseHFile(fs, p) ? verifyV1(p) : verifyV2(p);
    } catch (RlsmCorruptionException e) {
      damage(e.getFile(), e.getOffset(), e.getMessage());
      return null;
    }
    if (roles != null) {
      if (f == null) {
        roles.remove(name);
      } else {
        roles.put(name, f.role);
      }
    }
    return f;
  }

  /** An HFile: every block read; null when RLSM did not write it. */
  private Facts verifyV2(Path p) throws IOException {
    V2Files.verify(fs, p, fs.getConf());
    Map<byte[], byte[]> info = V2Files.fileInfo(fs, p, fs.getConf());
    FileRole role = V2FileInfo.role(p.toString(), -1, info.get(V2FileInfo.ROLE));
    if (role == null) {
      return null;
    }
    V2FileInfo.checkVersion(p.toString(), -1, info.get(V2FileInfo.FORMAT_VERSION));
    return new Facts(p, role, null,
      role == FileRole.MANIFEST ? V2FileInfo.manifest(p.toString(), -1, info::get) : null, -1);
  }

  private Facts verifyV1(Path p) throws IOException {
    try (RlsmFileReader r = RlsmFileReader.open(fs, p)) {
      r.verifyData();
      BloomFilter bloom = r.bloom();
      HashIndex index = r.index();
      for (int e = 0; bloom != null && e < index.size(); e++) {
        byte[] row = index.row(e);
        if (!bloom.mightContain(row, 0, row.length)) {
          throw new RlsmCorruptionException(p.toString(), r.trailer().bloom().offset(),
            "Bloom filter denies indexed row " + Bytes.toStringBinary(row));
        }
      }
      long at = r.trailer().meta().offset();
      ManifestRecord manifest = null;
      if (r.trailer().role() == FileRole.MANIFEST) {
        byte[] partitions = r.meta().get(FileMeta.MANIFEST_PARTITIONS);
        if (partitions == null) {
          throw new RlsmCorruptionException(p.toString(), at, "manifest lacks its partitions");
        }
        manifest = ManifestRecord.checkpoint(p.toString(),
          r.meta().getLong(FileMeta.MANIFEST_GENERATION, -1),
          PartitionDescriptor.decodeList(p.toString(), at, partitions), null);
      }
      return new Facts(p, r.trailer().role(), Bytes.toStringBinary(r.family()), manifest, at);
    }
  }
}
