package org.apache.hadoop.hbase.rlsm.index;

/**
 * MurmurHash3 x86 32-bit of a row key. Part of the on-disk format: records are stored in order of
 * this hash (as an unsigned int), so it must never change within a format version.
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
}
