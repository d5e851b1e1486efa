package org.apache.hadoop.hbase.rlsm.index;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

import org.apache.hbase.thirdparty.com.google.common.hash.HashFunction;
import org.apache.hbase.thirdparty.com.google.common.hash.Hashing;

/** The distinct-row sketch: exact while small, HyperLogLog's error bound, merge, encoding. */
@Category({ SmallTests.class, IOTests.class })
public class TestRowSketch {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRowSketch.class);

  /** Three standard errors of HyperLogLog with 2^10 registers (1.04 / 32). */
  private static final double BOUND = 3 * 1.04 / 32;

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("user%010d", i));
  }

  private static RowSketch of(int from, int to) {
    RowSketch s = new RowSketch();
    for (int i = from; i < to; i++) {
      s.add(row(i));
    }
    return s;
  }

  @Test
  public void hashIsMurmur3X64First64BitsLittleEndian() {
    // MurmurHash3_x64_128("hello", seed 0) = 029bbd41b3a7d8cb 191dae486a901e5b (bytes)
    byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
    assertEquals(0xcbd8a7b341bd9b02L, RowSketch.hash(hello, 0, hello.length));
  }

  /**
   * The allocation-free hash equals Guava's MurmurHash3 x64 128 (which the format's first
   * writers used) for every tail length, at any offset, on random bytes.
   */
  @Test
  public void hashEqualsGuavasMurmur3() {
    HashFunction guava = Hashing.murmur3_128();
    Random rnd = new Random(5);
    for (int len = 0; len <= 80; len++) {
      for (int trial = 0; trial < 50; trial++) {
        byte[] b = new byte[len + 7];
        rnd.nextBytes(b);
        int off = rnd.nextInt(8);
        assertEquals("length " + len + " at " + off, guava.hashBytes(b, off, len).asLong(),
          RowSketch.hash(b, off, len));
      }
    }
  }

  @Test
  public void exactWhileSmall() {
    RowSketch s = new RowSketch();
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < RowSketch.MAX_EXACT; i++) {
        s.add(row(i));
        assertEquals(round == 0 ? i + 1 : RowSketch.MAX_EXACT, s.estimate());
      }
    }
    assertTrue(s.isExact());
    s.add(row(RowSketch.MAX_EXACT));
    assertFalse("one more distinct row turns it dense", s.isExact());
    assertEquals(RowSketch.MAX_EXACT + 1, s.estimate(), (RowSketch.MAX_EXACT + 1) * BOUND);
    assertEquals(0, new RowSketch().estimate());
  }

  @Test
  public void estimateWithinThreeStandardErrors() {
    for (int n : new int[] { 200, 1_000, 2_500, 5_000, 20_000, 100_000, 1_000_000 }) {
      long est = of(0, n).estimate();
      assertTrue(n + " rows estimated " + est, Math.abs(est - n) <= n * BOUND);
      RowSketch dup = of(0, n);
      dup.addAll(of(0, n));
      assertEquals("duplicates do not count", est, dup.estimate());
    }
  }

  @Test
  public void mergeEqualsTheSketchOfTheUnion() {
    int[][] cases = { { 0, 50, 30, 120 }, { 0, 100, 50, 150 }, { 0, 60_000, 40_000, 100_000 },
      { 0, 10, 10, 90_000 }, { 0, 90_000, 5, 10 } };
    for (int[] c : cases) {
      RowSketch a = of(c[0], c[1]);
      RowSketch b = of(c[2], c[3]);
      RowSketch union = of(Math.min(c[0], c[2]), Math.max(c[1], c[3]));
      RowSketch ab = a.copy();
      ab.addAll(b);
      RowSketch ba = b.copy();
      ba.addAll(a);
      assertArrayEquals("a+b", union.encode(), ab.encode());
      assertArrayEquals("b+a", union.encode(), ba.encode());
      assertArrayEquals("the operands are unchanged", of(c[0], c[1]).encode(), a.encode());
      long n = Math.max(c[1], c[3]) - Math.min(c[0], c[2]);
      assertTrue(Math.abs(ab.estimate() - n) <= n * BOUND);
    }
  }

  @Test
  public void encodingRoundTrips() throws Exception {
    for (int n : new int[] { 0, 1, 128, 129, 70_000 }) {
      RowSketch s = of(0, n);
      byte[] e = s.encode();
      RowSketch back = RowSketch.decode("t", 0, e);
      assertEquals(s.estimate(), back.estimate());
      assertArrayEquals(e, back.encode());
    }
    assertEquals("exact form: 4 bytes and 8 per hash", 4 + 8 * 3, of(0, 3).encode().length);
    assertEquals("dense form: 2 bytes and a byte per register", 2 + 1024,
      of(0, 500).encode().length);
  }

  @Test
  public void decodeRefusesDamage() {
    byte[] exact = of(0, 3).encode();
    byte[] dense = of(0, 500).encode();
    refuse("unknown form", set(exact, 0, 3));
    refuse("other precision", set(exact, 1, 11));
    refuse("too many hashes", set(exact, 3, (byte) 200));
    byte[] unsorted = exact.clone();
    System.arraycopy(exact, 4, unsorted, 12, 8);
    refuse("hashes not ascending", unsorted);
    refuse("register out of range", set(dense, 100, 56));
    refuse("truncated", java.util.Arrays.copyOf(dense, dense.length - 1));
    refuse("trailing bytes", java.util.Arrays.copyOf(exact, exact.length + 1));
  }

  private static byte[] set(byte[] b, int at, int v) {
    byte[] c = b.clone();
    c[at] = (byte) v;
    return c;
  }

  private static void refuse(String what, byte[] v) {
    try {
      RowSketch.decode("file", 100, v);
      fail(what + " was accepted");
    } catch (RlsmCorruptionException e) {
      assertTrue(what + ": " + e.getMessage(), e.getMessage().contains("file"));
    }
  }
}
