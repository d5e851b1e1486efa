package org.apache.hadoop.hbase.rlsm.index;

/**
 * The hashes of row keys that on-disk formats hold, so none may change within a format version:
 * MurmurHash3 x86 32-bit, the order of a v1 file's records (as an unsigned int) and its Bloom
 * filter; and the first 64 bits of MurmurHash3 x64 128, the row sketch's hash (docs/format/
 * rlsm-file.md, "Row sketch"). Both allocate nothing: every flushed and compacted row is hashed.
 */
public final class RowHash {
  /** Seed of the hash that orders records and addresses the hash index. */
  public static final int ORDER_SEED = 0;
  /** Seed of the second Bloom filter hash. */
  public static final int BLOOM_SEED = 0x9747b28c;

  private RowHash() {
  }

  public static int hash(byte[] b) {
    return murmur3(b, 0, b.length, ORDER_SEED);
  }

  public static int murmur3(byte[] data, int off, int len, int seed) {
    final int c1 = 0xcc9e2d51;
    final int c2 = 0x1b873593;
    int h1 = seed;
    int roundedEnd = off + (len & 0xfffffffc);
    for (int i = off; i < roundedEnd; i += 4) {
      int k1 = (data[i] & 0xff) | ((data[i + 1] & 0xff) << 8) | ((data[i + 2] & 0xff) << 16)
        | (data[i + 3] << 24);
      k1 *= c1;
      k1 = Integer.rotateLeft(k1, 15);
      k1 *= c2;
      h1 ^= k1;
      h1 = Integer.rotateLeft(h1, 13);
      h1 = h1 * 5 + 0xe6546b64;
    }
    int k1 = 0;
    switch (len & 0x03) {
      case 3:
        k1 = (data[roundedEnd + 2] & 0xff) << 16;
        // fall through
      case 2:
        k1 |= (data[roundedEnd + 1] & 0xff) << 8;
        // fall through
      case 1:
        k1 |= data[roundedEnd] & 0xff;
        k1 *= c1;
        k1 = Integer.rotateLeft(k1, 15);
        k1 *= c2;
        h1 ^= k1;
        break;
      default:
        break;
    }
    h1 ^= len;
    h1 ^= h1 >>> 16;
    h1 *= 0x85ebca6b;
    h1 ^= h1 >>> 13;
    h1 *= 0xc2b2ae35;
    h1 ^= h1 >>> 16;
    return h1;
  }

  /**
   * h1 of MurmurHash3 x64 128 with seed 0 (the first 8 bytes of the 128-bit hash as a
   * little-endian long), computed without the hasher objects a general library allocates per
   * call; equal to Guava's {@code Hashing.murmur3_128().hashBytes(data, off, len).asLong()}
   * ({@code TestRowSketch}).
   */
  public static long murmur3x64h1(byte[] data, int off, int len) {
    final long c1 = 0x87c37b91114253d5L;
    final long c2 = 0x4cf5ad432745937fL;
    long h1 = 0;
    long h2 = 0;
    int blocksEnd = off + (len & ~15);
    for (int i = off; i < blocksEnd; i += 16) {
      long k1 = littleEndianLong(data, i);
      long k2 = littleEndianLong(data, i + 8);
      h1 ^= mixK1(k1, c1, c2);
      h1 = Long.rotateLeft(h1, 27) + h2;
      h1 = h1 * 5 + 0x52dce729;
      h2 ^= mixK2(k2, c1, c2);
      h2 = Long.rotateLeft(h2, 31) + h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    int tail = len & 15;
    long k1 = 0;
    long k2 = 0;
    for (int i = tail - 1; i >= 8; i--) {
      k2 ^= (data[blocksEnd + i] & 0xffL) << (8 * (i - 8));
    }
    for (int i = Math.min(tail, 8) - 1; i >= 0; i--) {
      k1 ^= (data[blocksEnd + i] & 0xffL) << (8 * i);
    }
    if (tail > 8) {
      h2 ^= mixK2(k2, c1, c2);
    }
    if (tail > 0) {
      h1 ^= mixK1(k1, c1, c2);
    }
    h1 ^= len;
    h2 ^= len;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    return h1 + h2;
  }

  private static long mixK1(long k1, long c1, long c2) {
    return Long.rotateLeft(k1 * c1, 31) * c2;
  }

  private static long mixK2(long k2, long c1, long c2) {
    return Long.rotateLeft(k2 * c2, 33) * c1;
  }

  /** MurmurHash3's 64-bit finaliser: every bit of {@code k} affects every bit of the result. */
  public static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }

  private static long littleEndianLong(byte[] b, int i) {
    return (b[i] & 0xffL) | (b[i + 1] & 0xffL) << 8 | (b[i + 2] & 0xffL) << 16
      | (b[i + 3] & 0xffL) << 24 | (b[i + 4] & 0xffL) << 32 | (b[i + 5] & 0xffL) << 40
      | (b[i + 6] & 0xffL) << 48 | (b[i + 7] & 0xffL) << 56;
  }
}
