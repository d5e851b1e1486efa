package org.apache.hadoop.hbase.regionserver;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.metrics.BaseSourceImpl;
import org.apache.hadoop.hbase.metrics.Interns;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Publishes the counters of every open RLSM store of this JVM ({@link RlsmStoreStats}) through
 * HBase's metrics system, beside HBase's own region and table metrics: the RegionServer's JMX
 * bean {@code Hadoop:service=HBase,name=RegionServer,sub=Rlsm} (so its {@code /jmx} page and any
 * metrics2 sink), with HBase's naming, one value per store and counter,
 * {@code Namespace_<ns>_table_<table>_region_<encoded region>_store_<family>_metric_<counter>},
 * and the sum over this server's stores of each table,
 * {@code Namespace_<ns>_table_<table>_metric_<counter>}. Counters are listed in
 * docs/operations.md ("Metrics").
 *
 * <p>One source per JVM, as HBase's table aggregate: stores add themselves when they open and
 * remove themselves when they close (a concurrent set; the metrics system's snapshot reads the
 * counters without locks).
 */
@InterfaceAudience.Private
final class RlsmMetricsSource extends BaseSourceImpl {
  private static final String DESCRIPTION = "RLSM store counters";
  private static final String JMX_CONTEXT = "RegionServer,sub=Rlsm";

  /** Registered with the metrics system on first use (the first RLSM store to open). */
  private static final class Holder {
    static final RlsmMetricsSource INSTANCE = new RlsmMetricsSource();
  }

  private final Set<RlsmStoreStats> stores = ConcurrentHashMap.newKeySet();

  private RlsmMetricsSource() {
    super("Rlsm", DESCRIPTION, "regionserver", JMX_CONTEXT);
  }

  /**
   * The source, registered with the metrics system. A metrics system shut down and started again
   * in the same JVM (a mini cluster after another, in tests) has forgotten every source, so the
   * registration is checked on each use, under the class lock.
   */
  static RlsmMetricsSource get() {
    RlsmMetricsSource source = Holder.INSTANCE;
    synchronized (RlsmMetricsSource.class) {
      MetricsSystem system = DefaultMetricsSystem.instance();
      if (system.getSource(JMX_CONTEXT) == null) {
        system.register(JMX_CONTEXT, DESCRIPTION, source);
      }
    }
    return source;
  }

  static String tablePrefix(TableName table) {
    return "Namespace_" + table.getNamespaceAsString() + "_table_" + table.getQualifierAsString();
  }

  static String storePrefix(HStore store) {
    return tablePrefix(store.getTableName()) + "_region_"
      + store.getRegionInfo().getEncodedName() + "_store_" + store.getColumnFamilyName();
  }

  void add(RlsmStoreStats stats) {
    stores.add(stats);
  }

  void remove(RlsmStoreStats stats) {
    stores.remove(stats);
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord(metricsName);
    Map<String, Long> tableSums = new TreeMap<>();
    // null only while the superclass constructor registers this source: the metrics system then
    // asks for a first snapshot before this class's fields are set
    Set<RlsmStoreStats> registered = stores;
    for (RlsmStoreStats s : registered == null ? Set.<RlsmStoreStats> of() : registered) {
      String store = s.storePrefix() + "_metric_";
      String table = s.tablePrefix() + "_metric_";
      s.snapshot((name, value) -> {
        record.addGauge(Interns.info(store + name, DESCRIPTION), value);
        tableSums.merge(table + name, value, Long::sum);
      });
    }
    tableSums.forEach((name, value) -> record.addGauge(Interns.info(name, DESCRIPTION), value));
    metricsRegistry.snapshot(record, all);
  }
}
