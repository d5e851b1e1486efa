package org.apache.hadoop.hbase.rlsm.ulfs;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * Every configuration key of the ulfs Hadoop file system, with its default. Documented in
 * docs/configuration.md, section "ulfs".
 */
public final class UlfsConfig {
  private UlfsConfig() {
  }

  /** Image file or block device holding the file system. Required (unless backend=memory). */
  public static final String DEVICE_KEY = "fs.ulfs.device";

  /** Size of the image created when the device is absent. */
  public static final String DEVICE_BYTES_KEY = "fs.ulfs.device.bytes";
  public static final long DEFAULT_DEVICE_BYTES = 4L << 30;

  /** Create and format the image when fs.ulfs.device does not exist. */
  public static final String FORMAT_IF_MISSING_KEY = "fs.ulfs.format.if.missing";
  public static final boolean DEFAULT_FORMAT_IF_MISSING = true;

  /** Device backend: io_uring (falls back to posix when unavailable), posix, or memory. */
  public static final String BACKEND_KEY = "fs.ulfs.backend";
  public static final String DEFAULT_BACKEND = "io_uring";

  /** io_uring only: ask for a kernel submission-polling thread per ring. */
  public static final String SQPOLL_KEY = "fs.ulfs.io_uring.sqpoll";
  public static final boolean DEFAULT_SQPOLL = false;

  /**
   * io_uring: polled completions (IORING_SETUP_IOPOLL) where the device allows them (O_DIRECT
   * and a block queue that polls); otherwise interrupt-driven, logged.
   */
  public static final String IOPOLL_KEY = "fs.ulfs.io_uring.iopoll";
  public static final boolean DEFAULT_IOPOLL = false;

  /** Try O_DIRECT on the device (falls back to buffered I/O, logged, when refused). */
  public static final String DIRECT_KEY = "fs.ulfs.direct";
  public static final boolean DEFAULT_DIRECT = true;

  /** Bytes of the ulfs page cache (4 KB pages, at least 64). */
  public static final String CACHE_BYTES_KEY = "fs.ulfs.cache.bytes";
  public static final long DEFAULT_CACHE_BYTES = 128L << 20;

  /**
   * Page cache replacement policy: lru, lru-level (one LRU per LSM level), arc, or lsm-arc (ARC
   * with the LSM rules; docs/ulfs.md "Page cache policies").
   */
  public static final String CACHE_POLICY_KEY = "fs.ulfs.cache.policy";
  public static final String DEFAULT_CACHE_POLICY = "lru";
  static final String[] CACHE_POLICIES = { "lru", "lru-level", "arc", "lsm-arc" };

  /**
   * When set, every page access is recorded to this file (docs/format/ulfs-trace.md) for
   * ulfs-cachesim; empty: no trace. The file is overwritten at mount.
   */
  public static final String CACHE_TRACE_KEY = "fs.ulfs.cache.trace";
  public static final String DEFAULT_CACHE_TRACE = "";

  /** Period of the flusher thread that writes back dirty pages and commits their metadata. */
  public static final String FLUSH_INTERVAL_MS_KEY = "fs.ulfs.flush.interval.ms";
  public static final int DEFAULT_FLUSH_INTERVAL_MS = 1000;

  /** Inodes to create when formatting; 0 means one per 16 blocks. */
  public static final String INODES_KEY = "fs.ulfs.format.inodes";
  public static final long DEFAULT_INODES = 0;

  /** Block size reported to Hadoop (HBase derives WAL roll sizes from it). */
  public static final String BLOCK_SIZE_KEY = "fs.ulfs.block.size";
  public static final long DEFAULT_BLOCK_SIZE = 128L << 20;

  /** Size of each stream's read/write buffer, unless the caller passes one. */
  public static final String BUFFER_BYTES_KEY = "fs.ulfs.stream.buffer.bytes";
  public static final int DEFAULT_BUFFER_BYTES = 64 << 10;

  /**
   * Test only (docs/kill-loop.md): the power-loss model of the fault device. Writes since the
   * last device flush stay in this process's memory instead of reaching the device, so a kill -9
   * of the process loses them as a power cut loses a drive's write cache.
   */
  public static final String FAULT_VOLATILE_KEY = "fs.ulfs.fault.volatile";
  public static final boolean DEFAULT_FAULT_VOLATILE = false;

  /**
   * Test only: error rules of the fault device, ';'-separated
   * {@code <read|write|flush>:<eio|enospc|short>[:at=K][:p=P][:persistent]}, e.g.
   * {@code write:eio:p=0.001}. Empty: no errors injected.
   */
  public static final String FAULT_ERRORS_KEY = "fs.ulfs.fault.errors";
  public static final String DEFAULT_FAULT_ERRORS = "";

  /** Test only: seed of the fault device's random choices (0: a fixed default). */
  public static final String FAULT_SEED_KEY = "fs.ulfs.fault.seed";
  public static final long DEFAULT_FAULT_SEED = 0;

  /**
   * The fault device spec for the native layer (ulfs_dev_fault_configure), or null when no
   * fault key is set and the device is used directly.
   */
  static String faultSpec(Configuration conf) {
    boolean vol = conf.getBoolean(FAULT_VOLATILE_KEY, DEFAULT_FAULT_VOLATILE);
    String errors = conf.getTrimmed(FAULT_ERRORS_KEY, DEFAULT_FAULT_ERRORS);
    if (!vol && errors.isEmpty()) {
      return null;
    }
    return (vol ? "volatile;" : "") + "seed=" + conf.getLong(FAULT_SEED_KEY, DEFAULT_FAULT_SEED)
      + (errors.isEmpty() ? "" : ";" + errors);
  }

  /** Native backend codes (ulfs_backend in ulfs.h). */
  static final int BACKEND_MEMORY = 0;
  static final int BACKEND_POSIX = 1;
  static final int BACKEND_IO_URING = 2;

  static String cachePolicy(Configuration conf) {
    String p = conf.getTrimmed(CACHE_POLICY_KEY, DEFAULT_CACHE_POLICY).toLowerCase(Locale.ROOT);
    for (String known : CACHE_POLICIES) {
      if (known.equals(p)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
      CACHE_POLICY_KEY + " must be one of " + String.join(", ", CACHE_POLICIES) + " but was " + p);
  }

  /**
   * The trace file, or "" for none. A value still holding {@code ${...}} is refused: Hadoop leaves
   * a variable it cannot resolve as literal text (an empty XML value counts as unset), and that
   * text would otherwise become the name of a trace file recording every page access.
   */
  static String cacheTrace(Configuration conf) {
    String t = conf.getTrimmed(CACHE_TRACE_KEY, DEFAULT_CACHE_TRACE);
    if (t.contains("${")) {
      throw new IllegalArgumentException(CACHE_TRACE_KEY + " is '" + t + "', a variable that"
        + " nothing defines: define it, e.g. -Drlsm.ulfs.cache.trace= for no trace");
    }
    return t;
  }

  static int backendCode(Configuration conf) {
    String b = conf.getTrimmed(BACKEND_KEY, DEFAULT_BACKEND).toLowerCase(Locale.ROOT);
    switch (b) {
      case "memory":
        return BACKEND_MEMORY;
      case "posix":
        return BACKEND_POSIX;
      case "io_uring":
        return BACKEND_IO_URING;
      default:
        throw new IllegalArgumentException(
          BACKEND_KEY + " must be io_uring, posix or memory but was " + b);
    }
  }
}
