package org.apache.hadoop.hbase.rlsm.index;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.List;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.format.ByteWriter;
import org.apache.hadoop.hbase.rlsm.format.Checksums;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** Row quantiles: bucket bounds while building, counts, sketches, encoding and its checks. */
@Category({ SmallTests.class, IOTests.class })
public class TestRowQuantiles {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRowQuantiles.class);

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("user%010d", i));
  }

  private static RowQuantiles of(int rows) {
    RowQuantiles.Builder b = new RowQuantiles.Builder();
    for (int i = 0; i < rows; i++) {
      byte[] r = row(i);
      b.add(r, RowSketch.hash(r, 0, r.length));
    }
    return b.build();
  }

  @Test
  public void fewRowsGetABucketEach() {
    RowQuantiles q = of(5);
    assertEquals(5, q.buckets().size());
    assertArrayEquals(row(0), q.first());
    for (int i = 0; i < 5; i++) {
      assertArrayEquals(row(i), q.buckets().get(i).last());
      assertEquals(1, q.buckets().get(i).rows());
    }
    assertEquals(0, of(0).buckets().size());
  }

  /**
   * Whatever the rows, half to all of the maximum buckets, every bucket but the last of the
   * same span, row counts adding up, each bucket's sketch counting its own rows.
   */
  @Test
  public void bucketsStayBetweenHalfAndTheMaximum() {
    for (int rows : new int[] { 16, 17, 31, 32, 33, 1000, 65_536, 100_003 }) {
      RowQuantiles q = of(rows);
      List<RowQuantiles.Bucket> b = q.buckets();
      assertTrue(rows + " rows: " + b.size() + " buckets",
        b.size() >= RowQuantiles.MAX_BUCKETS / 2 && b.size() <= RowQuantiles.MAX_BUCKETS);
      long span = b.get(0).rows();
      long sum = 0;
      int end = -1;
      for (int j = 0; j < b.size(); j++) {
        long n = b.get(j).rows();
        if (j < b.size() - 1) {
          assertEquals(rows + " rows, bucket " + j, span, n);
        } else {
          assertTrue(n >= 1 && n <= span);
        }
        sum += n;
        end += n;
        assertArrayEquals(row(end), b.get(j).last());
        double err = Math.abs(b.get(j).sketch().estimate() - n) / (double) n;
        assertTrue(rows + " rows, bucket " + j + ": sketch " + b.get(j).sketch().estimate()
          + " for " + n, err <= 3 * 1.04 / 32);
      }
      assertEquals(rows, sum);
    }
  }

  @Test
  public void encodingRoundTrips() throws Exception {
    for (int rows : new int[] { 0, 1, 7, 200, 50_000 }) {
      RowQuantiles q = of(rows);
      RowQuantiles d = RowQuantiles.decode("f", 0, q.encode());
      assertEquals(q.buckets().size(), d.buckets().size());
      assertArrayEquals(q.first(), d.first());
      for (int j = 0; j < q.buckets().size(); j++) {
        RowQuantiles.Bucket a = q.buckets().get(j);
        RowQuantiles.Bucket b = d.buckets().get(j);
        assertArrayEquals(a.last(), b.last());
        assertEquals(a.rows(), b.rows());
        assertArrayEquals(a.sketch().encode(), b.sketch().encode());
      }
    }
  }

  /** A bucket of {@code rows} rows ending at {@code last} whose sketch holds {@code sketched}. */
  private static void bucket(ByteWriter w, long rows, byte[] last, int... sketched) {
    RowSketch s = new RowSketch();
    for (int i : sketched) {
      s.add(row(i));
    }
    byte[] e = s.encode();
    w.varLong(rows).varLong(last.length).bytes(last).varLong(e.length).bytes(e);
  }

  /** {@code body} with its checksum, as a writer ends it. */
  private static byte[] sealed(ByteWriter body) {
    return body.i32(Checksums.crc32c(body.array(), 0, body.length())).toByteArray();
  }

  private static void assertCorrupt(String expected, ByteWriter body) {
    assertCorrupt(expected, sealed(body));
  }

  private static void assertCorrupt(String expected, byte[] encoded) {
    try {
      RowQuantiles.decode("/store/f1", 100, encoded);
      fail("decoded: " + expected);
    } catch (RlsmCorruptionException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(expected));
      assertTrue(e.getMessage(), e.getMessage().contains("/store/f1"));
    }
  }

  @Test
  public void corruptEncodingsAreRefusedNamingTheFile() {
    ByteWriter w = new ByteWriter(64);
    w.u8(2).u16(0);
    assertCorrupt("version 2", w);

    w = new ByteWriter(64);
    w.u8(1).u16(RowQuantiles.MAX_BUCKETS + 1);
    assertCorrupt("more than " + RowQuantiles.MAX_BUCKETS, w);

    w = new ByteWriter(64);
    w.u8(1).u16(2).varLong(row(0).length).bytes(row(0));
    bucket(w, 1, row(3), 3);
    bucket(w, 1, row(3), 3);
    assertCorrupt("does not end above", w);

    w = new ByteWriter(64);
    w.u8(1).u16(1).varLong(row(5).length).bytes(row(5));
    bucket(w, 1, row(3), 3);
    assertCorrupt("does not end above", w);

    w = new ByteWriter(64);
    w.u8(1).u16(1).varLong(row(0).length).bytes(row(0));
    bucket(w, 0, row(3));
    assertCorrupt("holds 0 rows", w);

    w = new ByteWriter(64);
    w.u8(1).u16(1).varLong(row(0).length).bytes(row(0));
    bucket(w, 1, row(3), 1, 2, 3);
    assertCorrupt("sketches more rows", w);

    byte[] good = of(40).encode();
    byte[] body = Bytes.head(good, good.length - 4);
    ByteWriter truncated = new ByteWriter(body.length);
    truncated.bytes(body, 0, body.length - 3);
    assertCorrupt("out of range", truncated);
    ByteWriter trailing = new ByteWriter(body.length + 1);
    trailing.bytes(body).u8(0);
    assertCorrupt("trailing", trailing);
    // any damaged byte: a checksum mismatch, whatever it hit
    for (int at = 0; at < good.length; at += 97) {
      byte[] damaged = good.clone();
      damaged[at] ^= (byte) 0x80;
      assertCorrupt("checksum mismatch", damaged);
    }
    assertCorrupt("shorter than their checksum", new byte[] { 1, 0 });
  }
}
