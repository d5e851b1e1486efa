package org.apache.hadoop.hbase.rlsm.bench.cluster;

import java.util.Random;
import org.apache.hadoop.hbase.rlsm.index.RowHash;

/**
 * Record numbers in {@code [0, n)} drawn from YCSB's scrambled Zipfian distribution (constant
 * 0.99, Gray et al.'s method as in YCSB's {@code ZipfianGenerator}): a few records are hot, and
 * the hot ones are spread over the key space by a hash rather than clustered at its start.
 */
final class ZipfianIndex {
  private static final double THETA = 0.99;
  private final long n;
  private final double alpha;
  private final double zetan;
  private final double eta;

  ZipfianIndex(long n) {
    this.n = n;
    double zeta2 = zeta(2);
    this.zetan = zeta(n);
    this.alpha = 1.0 / (1.0 - THETA);
    this.eta = (1 - Math.pow(2.0 / n, 1 - THETA)) / (1 - zeta2 / zetan);
  }

  private static double zeta(long count) {
    double sum = 0;
    for (long i = 0; i < count; i++) {
      sum += 1 / Math.pow(i + 1, THETA);
    }
    return sum;
  }

  /** The next record number: Zipfian rank, scrambled by a 64-bit hash. */
  long next(Random rnd) {
    double u = rnd.nextDouble();
    double uz = u * zetan;
    long rank;
    if (uz < 1.0) {
      rank = 0;
    } else if (uz < 1.0 + Math.pow(0.5, THETA)) {
      rank = 1;
    } else {
      rank = (long) (n * Math.pow(eta * u - eta + 1, alpha));
    }
    return Math.floorMod(mix(rank), n);
  }

  /** A 64-bit finaliser (MurmurHash3's), enough to scatter ranks over the records. */
  static long mix(long x) {
    return RowHash.fmix64(x);
  }
}
