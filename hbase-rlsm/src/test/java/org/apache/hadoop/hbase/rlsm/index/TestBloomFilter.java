package org.apache.hadoop.hbase.rlsm.index;

import static org.junit.Assert.assertTrue;

import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.format.ByteReader;
import org.apache.hadoop.hbase.rlsm.format.ByteWriter;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

@Category({ SmallTests.class, IOTests.class })
public class TestBloomFilter {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestBloomFilter.class);

  private static double measuredFpp(double fpp, int n) throws Exception {
    BloomFilter bf = BloomFilter.create(n, fpp);
    for (int i = 0; i < n; i++) {
      bf.add(Bytes.toBytes("user" + i));
    }
    ByteWriter w = new ByteWriter(1024);
    bf.encode(w);
    BloomFilter back = BloomFilter.decode(new ByteReader("t", 0, w.array(), 0, w.length()));
    for (int i = 0; i < n; i++) {
      byte[] k = Bytes.toBytes("user" + i);
      assertTrue("no false negatives", back.mightContain(k, 0, k.length));
    }
    int probes = 200_000;
    int fp = 0;
    for (int i = 0; i < probes; i++) {
      byte[] k = Bytes.toBytes("absent" + i);
      if (back.mightContain(k, 0, k.length)) {
        fp++;
      }
    }
    return (double) fp / probes;
  }

  @Test
  public void falsePositiveRateWithinTwiceTheConfiguredRate() throws Exception {
    for (double fpp : new double[] { 0.01, 0.05, 0.001 }) {
      double got = measuredFpp(fpp, 100_000);
      assertTrue("configured " + fpp + " measured " + got, got <= 2 * fpp);
      assertTrue("filter is not trivially empty: " + got, got > fpp / 10);
    }
  }
}
