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
import org.apache.hadoop.hbase.regionserver.HRegionFileSystem;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.format.FileMeta;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.PartitionDescriptor;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.rlsm.format.RlsmFileFormat;
import org.apache.hadoop.hbase.rlsm.index.BloomFilter;
import org.apache.hadoop.hbase.rlsm.index.HashIndex;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Offline check of RLSM store files (the {@code rlsm-verify} tool). For every RLSM file: the
 * trailer, every section CRC, the index (hash order, lengths tiling the data section), every
 * record's CRC and row, and that the Level-0 Bloom filter admits every indexed row. For every
 * store: the newest manifest (highest generation) names only files that are present, RLSM, of
 * the store's family and not manifests; its partitions are disjoint and ascending; a tie of
 * newest generations is damage; files of no layout (segments no manifest lists, older manifests)
 * are orphans. A file that is neither RLSM nor an HFile is damage. Read-only: it never changes a
 * file.
 */
@InterfaceAudience.Private
public final class StoreVerifier {
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
      RlsmFileReader r = verifyFile(st.getPath(), null);
      if (r != null) {
        r.close();
      }
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

  /** Checks every file of one store and the store's Level-1 layout. */
  public void verifyStore(Path store) throws IOException {
    storesChecked++;
    Map<String, FileRole> roles = new HashMap<>();
    Map<String, String> families = new HashMap<>();
    List<RlsmFileReader> manifests = new ArrayList<>();
    try {
      for (FileStatus s : fs.listStatus(store)) {
        if (!s.isFile()) {
          continue;
        }
        RlsmFileReader r = verifyFile(s.getPath(), roles);
        if (r == null) {
          continue;
        }
        families.put(s.getPath().getName(), Bytes.toStringBinary(r.family()));
        if (r.trailer().role() == FileRole.MANIFEST) {
          manifests.add(r);
        } else {
          r.close();
        }
      }
      checkLayout(store, roles, families, manifests);
    } finally {
      for (RlsmFileReader m : manifests) {
        m.close();
      }
    }
  }

  private void checkLayout(Path store, Map<String, FileRole> roles,
    Map<String, String> families, List<RlsmFileReader> manifests) throws IOException {
    RlsmFileReader newest = null;
    long newestGen = -1;
    Set<String> listed = new HashSet<>();
    for (RlsmFileReader m : manifests) {
      long gen = m.meta().getLong(FileMeta.MANIFEST_GENERATION, -1);
      if (newest != null && gen == newestGen) {
        damage(m.getPath().toString(), m.trailer().meta().offset(), "manifest generation " + gen
          + " is also the generation of " + newest.getPath().getName());
      }
      if (newest == null || gen > newestGen) {
        newest = m;
        newestGen = gen;
      }
    }
    if (newest != null) {
      String name = newest.getPath().toString();
      listed.add(newest.getPath().getName());
      byte[] v = newest.meta().get(FileMeta.MANIFEST_PARTITIONS);
      long at = newest.trailer().meta().offset();
      if (v == null) {
        damage(name, at, "manifest lacks " + FileMeta.MANIFEST_PARTITIONS);
        return;
      }
      List<PartitionDescriptor> parts;
      try {
        parts = PartitionDescriptor.decodeList(name, at, v);
      } catch (RlsmCorruptionException e) {
        damage(name, e.getOffset(), e.getMessage());
        return;
      }
      String family = families.get(newest.getPath().getName());
      for (PartitionDescriptor p : parts) {
        for (String segment : p.segments()) {
          listed.add(segment);
          FileRole role = roles.get(segment);
          if (!roles.containsKey(segment)) {
            damage(name, at, "partition " + range(p) + " lists segment " + segment
              + " that is not in " + store);
          } else if (role == null) {
            damage(name, at, "partition " + range(p) + " lists segment " + segment
              + " that is not a readable RLSM file");
          } else if (role == FileRole.MANIFEST) {
            damage(name, at, "partition " + range(p) + " lists the manifest " + segment);
          } else if (!family.equals(families.get(segment))) {
            damage(name, at, "segment " + segment + " is of family " + families.get(segment)
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
          -1, "orphan " + e.getValue() + " (no newest manifest lists it; an interrupted"
            + " compaction's output, archived at the next region open)"));
      }
    }
  }

  private static String range(PartitionDescriptor p) {
    return "[" + Bytes.toStringBinary(p.low()) + ", " + Bytes.toStringBinary(p.high()) + "]";
  }

  /**
   * Checks one file; records its role in {@code roles} (null role: unreadable) and
   * returns the open reader of a sound RLSM file, or null.
   */
  private RlsmFileReader verifyFile(Path p, Map<String, FileRole> roles) throws IOException {
    filesChecked++;
    String name = p.getName();
    if (roles != null) {
      roles.put(name, null);
    }
    RlsmFileReader r;
    try {
      if (!RlsmFileFormat.isRlsmFileElseHFile(fs, p)) {
        if (roles != null) {
          roles.remove(name); // a bulk-loaded HFile: Level-0, never a Level-1 segment
        }
        return null;
      }
      r = RlsmFileReader.open(fs, p);
    } catch (RlsmCorruptionException e) {
      damage(e.getFile(), e.getOffset(), e.getMessage());
      return null;
    }
    try {
      r.verifyData();
      BloomFilter bloom = r.bloom();
      HashIndex index = r.index();
      for (int e = 0; bloom != null && e < index.size(); e++) {
        byte[] row = index.row(e);
        if (!bloom.mightContain(row, 0, row.length)) {
          damage(p.toString(), r.trailer().bloom().offset(), "Bloom filter denies indexed row "
            + Bytes.toStringBinary(row));
          break;
        }
      }
    } catch (RlsmCorruptionException e) {
      damage(e.getFile(), e.getOffset(), e.getMessage());
      r.close();
      return null;
    }
    if (roles != null) {
      roles.put(name, r.trailer().role());
    }
    return r;
  }
}
