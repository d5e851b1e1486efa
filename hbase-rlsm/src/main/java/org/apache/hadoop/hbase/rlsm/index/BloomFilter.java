package org.apache.hadoop.hbase.rlsm.index;

import org.apache.hadoop.hbase.rlsm.format.ByteReader;
import org.apache.hadoop.hbase.rlsm.format.ByteWriter;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;

/**
 * Key-level Bloom filter on row keys, kept for Level-0 files whose key ranges overlap
 * (docs/design.md "Level-0 key Bloom filters"). Double hashing: probe i sets bit (h1 + i * h2) mod
 * m, with h1 the record order hash and h2 a second Murmur3 seed. Sized for n keys at false-positive
 * rate p with m = -n ln p / ln²2 bits and k = round(m/n · ln 2) probes.
 *
 * <p>Encoding: i64 bit count m, u8 probe count k, then ceil(m/64) i64 words.
 */
public final class BloomFilter {
  private static final int MAX_PROBES = 30;

  private final long numBits;
  private final int numProbes;
  private final long[] words;

  private BloomFilter(long numBits, int numProbes, long[] words) {
    this.numBits = numBits;
    this.numProbes = numProbes;
    this.words = words;
  }

  /** An empty filter sized for {@code expectedKeys} at false-positive rate {@code fpp}. */
  public static BloomFilter create(long expectedKeys, double fpp) {
    if (!(fpp > 0 && fpp < 1)) {
      throw new IllegalArgumentException("Expected false-positive rate in (0,1) but was " + fpp);
    }
    long n = Math.max(1, expectedKeys);
    long m = (long) Math.ceil(-n * Math.log(fpp) / (Math.log(2) * Math.log(2)));
    m = Math.max(64, m);
    int k = (int) Math.max(1, Math.min(MAX_PROBES, Math.round((double) m / n * Math.log(2))));
    return new BloomFilter(m, k, new long[(int) ((m + 63) / 64)]);
  }

  public void add(byte[] row) {
    int h1 = RowHash.hash(row);
    int h2 = RowHash.murmur3(row, 0, row.length, RowHash.BLOOM_SEED);
    for (int i = 0; i < numProbes; i++) {
      long bit = Long.remainderUnsigned((h1 & 0xffffffffL) + (long) i * (h2 & 0xffffffffL),
        numBits);
      words[(int) (bit >>> 6)] |= 1L << bit;
    }
  }

  /** False means the row is certainly absent; true means it may be present. */
  public boolean mightContain(byte[] row, int off, int len) {
    int h1 = RowHash.murmur3(row, off, len, RowHash.ORDER_SEED);
    int h2 = RowHash.murmur3(row, off, len, RowHash.BLOOM_SEED);
    for (int i = 0; i < numProbes; i++) {
      long bit = Long.remainderUnsigned((h1 & 0xffffffffL) + (long) i * (h2 & 0xffffffffL),
        numBits);
      if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  public long numBits() {
    return numBits;
  }

  public int numProbes() {
    return numProbes;
  }

  public long byteSize() {
    return (long) words.length * 8;
  }

  public void encode(ByteWriter w) {
    w.i64(numBits).u8(numProbes);
    for (long word : words) {
      w.i64(word);
    }
  }

  public static BloomFilter decode(ByteReader r) throws RlsmCorruptionException {
    long m = r.i64();
    int k = r.u8();
    if (m < 64 || k < 1 || k > MAX_PROBES || (m + 63) / 64 * 8 != r.remaining()) {
      throw r.corrupt("bad Bloom filter header m=" + m + " k=" + k);
    }
    long[] words = new long[(int) ((m + 63) / 64)];
    for (int i = 0; i < words.length; i++) {
      words[i] = r.i64();
    }
    return new BloomFilter(m, k, words);
  }
}
