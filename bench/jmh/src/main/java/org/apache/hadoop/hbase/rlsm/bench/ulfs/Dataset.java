package org.apache.hadoop.hbase.rlsm.bench.ulfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * Which caches hold the file the preads read. The kernel page cache serves the kernel targets
 * (LocalFileSystem, FileChannel): with 24 GiB of RAM it keeps even the large file once read, so
 * only {@link #COLD} makes them go to the disk. ulfs opens its device with O_DIRECT, so its reads
 * are served by its own page cache ({@code fs.ulfs.cache.bytes}) or by the device.
 */
enum Dataset {
  /** Small file, read once before measuring: every target's cache holds all of it. */
  RESIDENT(false, true),
  /**
   * Large file, larger than the ulfs cache: ulfs reads mostly go to the device, while the kernel
   * targets still read it from the kernel cache (pre-read before measuring).
   */
  EXCEEDS(true, true),
  /**
   * Large file, and before every iteration the kernel cache is dropped and the ulfs cache emptied
   * of the file: every target starts each iteration from the disk.
   */
  COLD(true, false);

  private static final String DROP_CACHES = "/proc/sys/vm/drop_caches";

  /** The large file (parameter largeMiB) rather than the small one (residentMiB). */
  final boolean large;
  /** Read the whole file before measuring, into every cache that can hold it. */
  final boolean warm;

  Dataset(boolean large, boolean warm) {
    this.large = large;
    this.warm = warm;
  }

  static Dataset of(String name) {
    try {
      return valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
        "dataset must be resident, exceeds or cold but was " + name, e);
    }
  }

  /**
   * Empties the kernel's page cache, dentries and inodes (clean ones: the read file is clean).
   * Needs root; fails rather than measuring a warm cache under the name "cold".
   */
  static void dropKernelCaches() throws IOException {
    try {
      Files.writeString(Paths.get(DROP_CACHES), "3");
    } catch (IOException e) {
      throw new IOException("dataset=cold must write 3 to " + DROP_CACHES
        + " (needs root) to empty the kernel page cache: " + e.getMessage(), e);
    }
  }
}
