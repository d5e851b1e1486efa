package org.apache.hadoop.hbase.rlsm.ycsb;

import java.io.IOException;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.util.Bytes;
import site.ycsb.DBException;

/** The binding tests' mini cluster, with one RLSM table and one default-engine table. */
final class YcsbTestCluster {
  static final String FAMILY = "family";
  static final String RLSM_TABLE = "usertable";
  static final String DEFAULT_TABLE = "usertable_default";

  private YcsbTestCluster() {
  }

  /** Starts a one-server mini cluster (the same client settings as hbase-rlsm's tests). */
  static HBaseTestingUtility start() throws Exception {
    HBaseTestingUtility util = new HBaseTestingUtility();
    Configuration conf = util.getConfiguration();
    conf.setBoolean("hbase.table.sanity.checks", false);
    conf.setInt("hbase.regionserver.handler.count", 10);
    conf.setInt("hbase.client.retries.number", 10);
    conf.setLong("hbase.client.pause", 50);
    util.startMiniCluster(1);
    byte[] family = Bytes.toBytes(FAMILY);
    util.getAdmin().createTable(RlsmTables.table(TableName.valueOf(RLSM_TABLE), family).build());
    util.getAdmin().createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf(DEFAULT_TABLE))
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of(family)).build());
    return util;
  }

  /** Binding properties that reach {@code util}'s cluster through the ZooKeeper properties. */
  static Properties properties(HBaseTestingUtility util, String table) {
    Properties p = new Properties();
    p.setProperty(YcsbBindingConfig.TABLE_KEY, table);
    p.setProperty(YcsbBindingConfig.COLUMN_FAMILY_KEY, FAMILY);
    p.setProperty(YcsbBindingConfig.ZK_QUORUM_KEY, "localhost");
    p.setProperty(YcsbBindingConfig.ZK_CLIENT_PORT_KEY,
      Integer.toString(util.getZkCluster().getClientPort()));
    return p;
  }

  /** A started binding instance (one YCSB client thread's worth). */
  static RlsmHBaseClient client(Properties p) throws DBException {
    RlsmHBaseClient c = new RlsmHBaseClient();
    c.setProperties(p);
    c.init();
    return c;
  }

  static void stop(HBaseTestingUtility util) throws IOException {
    if (util != null) {
      util.shutdownMiniCluster();
    }
  }
}
