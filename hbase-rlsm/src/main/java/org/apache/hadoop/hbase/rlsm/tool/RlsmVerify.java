package org.apache.hadoop.hbase.rlsm.tool;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * {@code bin/rlsm-verify PATH...}: checks RLSM files offline ({@link StoreVerifier}) and prints
 * one line per finding ({@code DAMAGE|NOTICE file offset what}) and a summary. A path is a file,
 * a store, region or table directory, on any Hadoop file system the configuration resolves
 * (file://, hdfs://, ulfs://). Exit code 0: no damage (orphans are notices, reported but clean
 * unless {@code --strict}); 1: damage found; 2: bad command line or a path that cannot be read.
 */
@InterfaceAudience.Private
public final class RlsmVerify {
  static final int EXIT_CLEAN = 0;
  static final int EXIT_DAMAGE = 1;
  static final int EXIT_USAGE = 2;
  private static final String USAGE = "usage: rlsm-verify [--strict] PATH...\n"
    + "  PATH      an RLSM file, or a store, region or table directory (any Hadoop URI)\n"
    + "  --strict  notices (orphans of an interrupted compaction) also fail the check";

  private RlsmVerify() {
  }

  static int run(String[] argv, Configuration conf, PrintStream out, PrintStream err) {
    ToolSupport.Args args;
    try {
      args = new ToolSupport.Args(argv, List.of("--strict"), List.of());
      if (args.positional().isEmpty()) {
        throw new ToolSupport.UsageException("need at least one path");
      }
    } catch (ToolSupport.UsageException e) {
      err.println(e.getMessage());
      err.println(USAGE);
      return EXIT_USAGE;
    }
    boolean damaged = false;
    boolean noticed = false;
    for (String a : args.positional()) {
      Path p = new Path(a);
      StoreVerifier v;
      try {
        v = new StoreVerifier(p.getFileSystem(conf)).verify(p);
      } catch (IOException e) {
        err.println("cannot check " + p + ": " + e);
        return EXIT_USAGE;
      }
      v.findings().forEach(out::println);
      out.println((v.clean() ? "CLEAN " : "DAMAGED ") + p + ": " + v.filesChecked() + " files in "
        + v.storesChecked() + " stores, " + v.findings().size() + " findings");
      damaged |= !v.clean();
      noticed |= !v.findings().isEmpty();
    }
    return damaged || (noticed && args.has("--strict")) ? EXIT_DAMAGE : EXIT_CLEAN;
  }

  public static void main(String[] argv) {
    System.exit(run(argv, ToolSupport.clientConf(), System.out, System.err));
  }
}
