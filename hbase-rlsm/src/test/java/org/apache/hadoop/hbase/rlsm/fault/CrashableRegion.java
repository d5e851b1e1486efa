package org.apache.hadoop.hbase.rlsm.fault;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.ChunkCreator;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionFileSystem;
import org.apache.hadoop.hbase.regionserver.MemStoreLAB;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.wal.AbstractFSWALProvider;
import org.apache.hadoop.hbase.wal.WALFactory;
import org.apache.hadoop.hbase.wal.WALSplitter;

/**
 * One HBase region driven directly (no cluster) on a {@link FaultInjectingFileSystem}, as
 * HBase's own region tests do, with what a RegionServer crash and restart would do to it:
 * {@link #crashAndRecover} materialises the crash in the file system, splits the region's WAL
 * into recovered edits (as the master's crash procedure does) and reopens the region, which
 * replays them. {@link #saveSnapshot}/{@link #restoreSnapshot} copy the closed region's root
 * directory, so each crash point starts from the same files.
 */
public final class CrashableRegion {
  private final Configuration conf;
  private final FaultInjectingFileSystem fs;
  private final File rootFile;
  private final File snapshotFile;
  private final Path rootDir;
  private RegionInfo info;
  private TableDescriptor td;
  private HRegion region;
  private WALFactory wals;
  private String walId;
  private int opens;

  public CrashableRegion(Configuration base, File work, TableDescriptor td) throws IOException {
    org.apache.hadoop.fs.FileUtil.fullyDelete(work);
    this.conf = new Configuration(base);
    this.fs = FaultInjectingFileSystem.get(conf);
    this.rootFile = new File(work, "root");
    this.snapshotFile = new File(work, "snapshot");
    this.rootDir = FaultInjectingFileSystem.path(rootFile);
    conf.set(HConstants.HBASE_DIR, rootDir.toString());
    conf.set("hbase.wal.provider", "filesystem");
    conf.setBoolean(CommonFSUtils.UNSAFE_STREAM_CAPABILITY_ENFORCE, false);
    // A stopped process does not retry: no flush or region-directory retries (HBase's default
    // is 10 retries with growing pauses of 1 s each).
    conf.setInt("hbase.hstore.flush.retries.number", 1);
    conf.setInt("hbase.hstore.compaction.retries", 0);
    conf.setInt("hdfs.client.retries.number", 1);
    conf.setInt("hdfs.client.sleep.before.retries", 1);
    // A RegionServer sets up the memstore chunk pool at start; HBase's region tests do the same.
    ChunkCreator.initialize(MemStoreLAB.CHUNK_SIZE_DEFAULT, false, 0, 0, 0, null,
      MemStoreLAB.INDEX_CHUNK_SIZE_PERCENTAGE_DEFAULT);
    this.td = td;
    this.info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
  }

  public FaultInjectingFileSystem fs() {
    return fs;
  }

  public HRegion region() {
    return region;
  }

  public Path regionDir() {
    return new Path(CommonFSUtils.getTableDir(rootDir, info.getTable()), info.getEncodedName());
  }

  public Path storeDir(String family) {
    return new Path(regionDir(), family);
  }

  public TableName table() {
    return info.getTable();
  }

  public RegionInfo info() {
    return info;
  }

  /**
   * Drives region {@code ri} of the same table (a daughter the test made) from the next open on;
   * the current region must be closed or abandoned.
   */
  public void switchTo(RegionInfo ri) {
    this.info = ri;
  }

  public Path rootDir() {
    return rootDir;
  }

  /** Uses {@code td} (same table, e.g. other family settings) from the next open on. */
  public void setDescriptor(TableDescriptor td) {
    this.td = td;
  }

  private void newWal() throws IOException {
    walId = "crash-" + (++opens);
    wals = new WALFactory(conf, walId);
  }

  /** Creates the region (first use) or opens it. */
  public HRegion open() throws IOException {
    newWal();
    if (!fs.exists(new Path(regionDir(), HRegionFileSystem.REGION_INFO_FILE))) {
      region = HRegion.createHRegion(info, rootDir, conf, td, wals.getWAL(info), true);
    } else {
      region = HRegion.openHRegion(conf, fs, rootDir, info, td, wals.getWAL(info));
    }
    return region;
  }

  /** An orderly close: memstore flushed, WAL closed and archived. */
  public void close() throws IOException {
    region.close();
    wals.close();
    region = null;
  }

  /**
   * The crash: the file system drops what was not durable ({@code randomTail}: keeps a random
   * part of it), the region and its WAL are abandoned, the WAL is split into recovered edits and
   * the region reopened. Returns the reopened region.
   */
  public HRegion crashAndRecover(Random rnd, boolean randomTail) throws IOException {
    fs.crash(rnd, randomTail);
    region = null;
    try {
      wals.shutdown();
    } catch (IOException e) {
      // The crashed WAL's streams are dead; there is nothing left to shut down cleanly.
    }
    Path walDir = new Path(rootDir, AbstractFSWALProvider.getWALDirectoryName(walId));
    WALFactory splitter = new WALFactory(conf, walId + "-split");
    try {
      if (fs.exists(walDir)) {
        WALSplitter.split(rootDir, walDir, new Path(rootDir, HConstants.HREGION_OLDLOGDIR_NAME),
          fs, conf, splitter);
      }
    } finally {
      splitter.close();
    }
    return open();
  }

  /** Abandons the open region without any further I/O from it (after its checks). */
  public void abandon() throws IOException {
    if (region != null) {
      region.close(true);
      region = null;
    }
    wals.close();
  }

  public void saveSnapshot() throws IOException {
    copyTree(rootFile, snapshotFile);
  }

  public void restoreSnapshot() throws IOException {
    fs.crash(new Random(0), false); // nothing is open; clears the durability record
    copyTree(snapshotFile, rootFile);
  }

  private static void copyTree(File from, File to) throws IOException {
    if (to.exists()) {
      try (Stream<java.nio.file.Path> s = Files.walk(to.toPath())) {
        s.sorted(Comparator.reverseOrder()).map(java.nio.file.Path::toFile).forEach(File::delete);
      }
    }
    try (Stream<java.nio.file.Path> s = Files.walk(from.toPath())) {
      s.forEach(p -> {
        try {
          java.nio.file.Path t = to.toPath().resolve(from.toPath().relativize(p));
          if (Files.isDirectory(p)) {
            Files.createDirectories(t);
          } else {
            Files.copy(p, t, StandardCopyOption.COPY_ATTRIBUTES);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
