package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreStats;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The RLSM store counters appear in the RegionServer's {@code /jmx} page under HBase's own
 * service, per store and summed per table, with HBase's naming (docs/operations.md "Metrics").
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmMetrics {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmMetrics.class);

  private static final byte[] F = Bytes.toBytes("f");
  /**
   * Any service: a RegionServer names it HBase, but in a JVM that ran a mini cluster before
   * (surefire reuses its fork for every class) the metrics system was restarted by the
   * MiniDFSCluster with the prefix DataNode, and every HBase bean, this one too, is named so.
   */
  private static final String BEAN = "Hadoop:service=*,name=RegionServer,sub=Rlsm";
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1,
    conf -> conf.setInt(HConstants.REGIONSERVER_INFO_PORT, 0)); // any free port
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static String jmx(HRegionServer rs) throws IOException {
    URL url = new URL("http://localhost:" + rs.getInfoServer().getPort() + "/jmx?qry=" + BEAN);
    try (InputStream in = url.openStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The value of one attribute in the JSON of /jmx, or -1 when absent. */
  private static long attribute(String json, String name) {
    Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*(\\d+)").matcher(json);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  @Test
  public void countersOfTheTableAreInJmx() throws Exception {
    TableName tn = TableName.valueOf("metrics_t");
    util.getAdmin().createTable(RlsmTables.table(tn, F).build());
    try (Table t = util.getConnection().getTable(tn)) {
      for (int flush = 0; flush < 3; flush++) {
        for (int i = 0; i < 100; i++) {
          t.put(new Put(Bytes.toBytes("r" + flush + "-" + i)).addColumn(F, F, Bytes.toBytes(i)));
        }
        util.flush(tn);
      }
    }
    util.compact(tn, false);
    HRegion region = util.getHBaseCluster().getRegions(tn).get(0);
    RlsmStoreStats stats = ((RlsmStoreEngine) region.getStore(F).getStoreEngine()).getStats();
    assertTrue("no compaction ran", stats.getCompactions() > 0);
    String table = "Namespace_default_table_metrics_t_metric_";
    String store = "Namespace_default_table_metrics_t_region_"
      + region.getRegionInfo().getEncodedName() + "_store_f_metric_";
    HRegionServer rs = util.getHBaseCluster().getRegionServer(0);
    // The metrics system refreshes its JMX view on its own period; wait until it shows the
    // compaction (a hang guard, not a timing assumption).
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS,
      () -> attribute(jmx(rs), table + "rlsmCompactions") == stats.getCompactions());
    String json = jmx(rs);
    assertEquals(stats.getFlushBytes(), attribute(json, table + "rlsmFlushBytes"));
    assertEquals(stats.getFlushBytes(), attribute(json, store + "rlsmFlushBytes"));
    assertEquals(stats.getAppendBytes() + stats.getMajorBytes(),
      attribute(json, store + "rlsmAppendBytes") + attribute(json, store + "rlsmMajorBytes"));
    assertEquals(stats.getPartitions(), attribute(json, store + "rlsmPartitions"));
    assertTrue(json, stats.getFlushBytes() > 0);
  }
}
