package org.apache.hadoop.hbase.rlsm.ycsb;

import java.io.IOException;
import java.util.Properties;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.util.Bytes;
import site.ycsb.DBException;

/**
 * The binding tests' tables on the shared test kit's mini cluster ({@code RlsmMiniClusterRule}):
 * one RLSM table and one default-engine table, and binding instances that reach them.
 */
final class YcsbTables {
  static final String FAMILY = "family";
  static final String RLSM_TABLE = "usertable";
  static final String DEFAULT_TABLE = "usertable_default";

  private YcsbTables() {
  }

  /** Creates both tables on {@code util}'s running cluster. */
  static void create(HBaseTestingUtility util) throws IOException {
    byte[] family = Bytes.toBytes(FAMILY);
    util.getAdmin().createTable(RlsmTables.table(TableName.valueOf(RLSM_TABLE), family).build());
    util.getAdmin().createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf(DEFAULT_TABLE))
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of(family)).build());
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
}
