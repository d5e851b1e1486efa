package org.apache.hadoop.hbase.rlsm.bench.ulfs;

import java.io.File;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

/**
 * The file-layer benchmark (docs/benchmarks.md): random preads of a pre-written file, and
 * sequential appends each followed by hsync or by hflush, of 4 KB and 64 KB (parameter ioKb), through each
 * {@link IoTarget} on the same disk. SampleTime gives the latency percentiles, Throughput the
 * operations per second of one thread. JMH forks one JVM per parameter combination, which gives
 * each ulfs target its own mount (one device per process). Run all of it with
 * bench/scripts/ulfs-io.sh.
 */
@BenchmarkMode({ Mode.SampleTime, Mode.Throughput })
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class UlfsIoBenchmark {
  private static final int PAGE = 4096;

  /** Common parameters and lifecycle of both states (JMH wants @Param in a @State class). */
  @State(Scope.Thread)
  public abstract static class Target {
    /** Directory of every target's files (the ulfs image too): one disk for all. */
    @Param({ "bench/jmh/target/ulfs-io" })
    public String dir;

    /** fs.ulfs.cache.bytes of the ulfs targets, in MiB (the default is 128). */
    @Param({ "128" })
    public int ulfsCacheMiB;

    /** Bytes of one pread or append, in KB (at most 64). */
    @Param({ "4", "64" })
    public int ioKb;

    IoTarget io;
    UlfsCounterLog counters;

    File dir() {
      File d = new File(dir).getAbsoluteFile();
      if (!d.isDirectory() && !d.mkdirs()) {
        throw new IllegalStateException("cannot create " + d);
      }
      return d;
    }

    IoTarget open(BenchmarkParams p, String target, String dataset) throws IOException {
      if (p.getThreads() != 1) {
        throw new IllegalArgumentException("UlfsIoBenchmark measures one thread (-t 1); "
          + "its targets and files are not shared between threads");
      }
      if (ioKb <= 0 || ioKb << 10 > IoTarget.MAX_IO) {
        throw new IllegalArgumentException("ioKb must be 1 to " + (IoTarget.MAX_IO >> 10));
      }
      io = IoTarget.open(target, dir(), (long) ulfsCacheMiB << 20);
      counters = new UlfsCounterLog(io, p, target, dataset, ioKb);
      System.out.println("# target " + io.describe() + (dataset.equals("-") ? ""
        : ", dataset " + dataset));
      return io;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
      if (io != null) {
        try {
          counters.trialEnds(dir());
        } finally {
          io.close();
        }
      }
    }
  }

  /** Random preads of the read file; offsets are 4 KB aligned and uniformly distributed. */
  @State(Scope.Thread)
  public static class Reads extends Target {
    @Param({ "ulfs-uring", "ulfs-posix", "local", "rawlocal", "filechannel" })
    public String target;

    /** resident, exceeds or cold: see {@link Dataset}. */
    @Param({ "resident", "exceeds", "cold" })
    public String dataset;

    /** Size of the read file of the resident dataset (below the ulfs cache). */
    @Param({ "64" })
    public int residentMiB;

    /** Size of the read file of the exceeds and cold datasets (above the ulfs cache). */
    @Param({ "1024" })
    public int largeMiB;

    private Dataset ds;
    private long fileBytes;
    private final SplittableRandom random = new SplittableRandom(42);

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams p) throws IOException {
      ds = Dataset.of(dataset);
      fileBytes = (long) (ds.large ? largeMiB : residentMiB) << 20;
      open(p, target, dataset).openForReads(fileBytes);
      if (ds.warm && io.cacheHolds(fileBytes)) {
        io.warm(fileBytes);
      }
    }

    @Setup(Level.Iteration)
    public void iteration(IterationParams ip) throws IOException {
      if (ds == Dataset.COLD) {
        io.dropOwnCache();
        Dataset.dropKernelCaches();
      }
      counters.iterationStarts(ip);
    }

    void read() throws IOException {
      int len = ioKb << 10;
      long slots = (fileBytes - len) / PAGE + 1;
      io.pread(random.nextLong(slots) * PAGE, len);
      counters.op();
    }
  }

  /**
   * Appends to a file created empty before every iteration. No local target: LocalFileSystem's
   * streams have no real hsync (rawlocal is the Hadoop local file system measured here).
   */
  @State(Scope.Thread)
  public static class Appends extends Target {
    @Param({ "ulfs-uring", "ulfs-posix", "rawlocal", "filechannel" })
    public String target;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams p) throws IOException {
      open(p, target, "-");
    }

    @Setup(Level.Iteration)
    public void iteration(IterationParams ip) throws IOException {
      io.startAppends();
      counters.iterationStarts(ip);
    }

    void append(boolean hsync) throws IOException {
      io.appendAndSync(ioKb << 10, hsync);
      counters.op();
    }
  }

  @Benchmark
  public void pread(Reads r) throws IOException {
    r.read();
  }

  @Benchmark
  public void appendHsync(Appends a) throws IOException {
    a.append(true);
  }

  @Benchmark
  public void appendHflush(Appends a) throws IOException {
    a.append(false);
  }
}
