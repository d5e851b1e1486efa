package org.apache.hadoop.hbase.rlsm.ycsb;

import java.io.File;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Durability;
import site.ycsb.DBException;
import site.ycsb.workloads.CoreWorkload;

/**
 * The binding's properties (YCSB {@code -p name=value} or a {@code -P} file), named as in
 * upstream YCSB's hbase2 binding so existing command lines keep working; docs/ycsb.md lists them.
 * Parsed once per client thread; a bad value fails {@code init()} with a {@link DBException}
 * naming the property and the value, rather than being silently replaced by a default.
 */
public final class YcsbBindingConfig {
  /** The table every operation goes to (YCSB core's own property). */
  public static final String TABLE_KEY = CoreWorkload.TABLENAME_PROPERTY;
  public static final String DEFAULT_TABLE = CoreWorkload.TABLENAME_PROPERTY_DEFAULT;
  /** The column family that holds YCSB's fields; required, as upstream. */
  public static final String COLUMN_FAMILY_KEY = "columnfamily";
  /** Buffer puts and deletes in a BufferedMutator (flushed when full and at cleanup). */
  public static final String CLIENT_BUFFERING_KEY = "clientbuffering";
  public static final boolean DEFAULT_CLIENT_BUFFERING = false;
  /** Size in bytes of the BufferedMutator's buffer with clientbuffering=true. */
  public static final String WRITE_BUFFER_SIZE_KEY = "writebuffersize";
  public static final long DEFAULT_WRITE_BUFFER_SIZE = 12L * 1024 * 1024;
  /** Durability of puts and deletes: a name of HBase's Durability enum. */
  public static final String DURABILITY_KEY = "durability";
  public static final Durability DEFAULT_DURABILITY = Durability.USE_DEFAULT;
  /** Bound scans on the server with a PageFilter as well as by the scan's row limit. */
  public static final String USE_PAGE_FILTER_KEY = "hbase.usepagefilter";
  public static final boolean DEFAULT_USE_PAGE_FILTER = true;
  /** Log every operation at INFO. */
  public static final String DEBUG_KEY = "debug";
  public static final boolean DEFAULT_DEBUG = false;
  /** A directory whose hbase-site.xml is added on top of the class path's configuration. */
  public static final String CONF_DIR_KEY = "hbase.conf.dir";
  /** ZooKeeper hosts of the cluster; overrides the configuration files. */
  public static final String ZK_QUORUM_KEY = HConstants.ZOOKEEPER_QUORUM;
  /** ZooKeeper client port of the cluster; overrides the configuration files. */
  public static final String ZK_CLIENT_PORT_KEY = HConstants.ZOOKEEPER_CLIENT_PORT;

  private final String table;
  private final String family;
  private final boolean clientBuffering;
  private final long writeBufferSize;
  private final Durability durability;
  private final boolean usePageFilter;
  private final boolean debug;
  private final Configuration hbaseConf;

  private YcsbBindingConfig(Properties p) throws DBException {
    table = p.getProperty(TABLE_KEY, DEFAULT_TABLE);
    family = p.getProperty(COLUMN_FAMILY_KEY);
    if (family == null || family.isEmpty()) {
      throw new DBException("the HBase binding needs the column family of the table: set -p "
        + COLUMN_FAMILY_KEY + "=NAME");
    }
    clientBuffering = bool(p, CLIENT_BUFFERING_KEY, DEFAULT_CLIENT_BUFFERING);
    writeBufferSize = positiveLong(p, WRITE_BUFFER_SIZE_KEY, DEFAULT_WRITE_BUFFER_SIZE);
    durability = durability(p);
    usePageFilter = bool(p, USE_PAGE_FILTER_KEY, DEFAULT_USE_PAGE_FILTER);
    debug = bool(p, DEBUG_KEY, DEFAULT_DEBUG);
    hbaseConf = hbaseConfiguration(p);
  }

  /** Parses and checks the binding's properties. */
  public static YcsbBindingConfig parse(Properties p) throws DBException {
    return new YcsbBindingConfig(p);
  }

  private static boolean bool(Properties p, String key, boolean dflt) throws DBException {
    String v = p.getProperty(key);
    if (v == null) {
      return dflt;
    }
    switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new DBException(key + " must be true or false, got '" + v + "'");
    }
  }

  private static long positiveLong(Properties p, String key, long dflt) throws DBException {
    String v = p.getProperty(key);
    if (v == null) {
      return dflt;
    }
    try {
      long n = Long.parseLong(v.trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below with the property's name
    }
    throw new DBException(key + " must be a positive number of bytes, got '" + v + "'");
  }

  private static Durability durability(Properties p) throws DBException {
    String v = p.getProperty(DURABILITY_KEY);
    if (v == null) {
      return DEFAULT_DURABILITY;
    }
    try {
      return Durability.valueOf(v.trim());
    } catch (IllegalArgumentException e) {
      throw new DBException(DURABILITY_KEY + " must be one of "
        + Arrays.toString(Durability.values()) + ", got '" + v + "'");
    }
  }

  /**
   * HBase's client configuration: hbase-default.xml and any hbase-site.xml on the class path,
   * then {@link #CONF_DIR_KEY}'s hbase-site.xml, then the ZooKeeper properties if given.
   */
  private static Configuration hbaseConfiguration(Properties p) throws DBException {
    Configuration conf = HBaseConfiguration.create();
    String dir = p.getProperty(CONF_DIR_KEY);
    if (dir != null) {
      File site = new File(dir, "hbase-site.xml");
      if (!site.isFile()) {
        throw new DBException(CONF_DIR_KEY + "=" + dir + " has no readable hbase-site.xml ("
          + site.getAbsolutePath() + ")");
      }
      conf.addResource(new Path(site.getAbsoluteFile().toURI()));
    }
    for (String key : new String[] { ZK_QUORUM_KEY, ZK_CLIENT_PORT_KEY }) {
      String v = p.getProperty(key);
      if (v != null) {
        conf.set(key, v.trim());
      }
    }
    return conf;
  }

  public String table() {
    return table;
  }

  public String family() {
    return family;
  }

  public boolean clientBuffering() {
    return clientBuffering;
  }

  public long writeBufferSize() {
    return writeBufferSize;
  }

  public Durability durability() {
    return durability;
  }

  public boolean usePageFilter() {
    return usePageFilter;
  }

  public boolean debug() {
    return debug;
  }

  /** The HBase client configuration to connect with; shared, so callers must not change it. */
  public Configuration hbaseConfiguration() {
    return hbaseConf;
  }
}
