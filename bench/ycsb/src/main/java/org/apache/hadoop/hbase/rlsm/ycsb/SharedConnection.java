package org.apache.hadoop.hbase.rlsm.ycsb;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * One HBase {@link Connection} per cluster for all YCSB client threads of this JVM, counted by
 * its users: YCSB creates one binding instance per thread, and a connection per thread would
 * multiply ZooKeeper sessions, meta caches and RPC clients. The last {@link #release} closes it.
 *
 * <p>Invariant: a cluster's entry exists exactly while its user count is above zero.
 */
final class SharedConnection {
  private static final Map<String, SharedConnection> BY_CLUSTER = new HashMap<>();

  private final String clusterKey;
  private final Connection connection;
  private int users;

  private SharedConnection(String clusterKey, Connection connection) {
    this.clusterKey = clusterKey;
    this.connection = connection;
  }

  /** The connection to the cluster that {@code conf} names, opened by the first caller. */
  static SharedConnection acquire(Configuration conf) throws IOException {
    String key = clusterKey(conf);
    synchronized (BY_CLUSTER) {
      SharedConnection shared = BY_CLUSTER.get(key);
      if (shared == null) {
        shared = new SharedConnection(key, ConnectionFactory.createConnection(conf));
        BY_CLUSTER.put(key, shared);
      }
      shared.users++;
      return shared;
    }
  }

  Connection connection() {
    return connection;
  }

  /** Gives up one use; the last user closes the connection. Call once per acquire. */
  void release() throws IOException {
    synchronized (BY_CLUSTER) {
      if (users <= 0) {
        throw new IllegalStateException("connection to " + clusterKey + " released too often");
      }
      if (--users > 0) {
        return;
      }
      BY_CLUSTER.remove(clusterKey);
    }
    connection.close();
  }

  /** ZooKeeper hosts, client port and base znode: what tells one HBase cluster from another. */
  private static String clusterKey(Configuration conf) {
    return conf.get(HConstants.ZOOKEEPER_QUORUM, "") + ":"
      + conf.get(HConstants.ZOOKEEPER_CLIENT_PORT, "") + ":"
      + conf.get(HConstants.ZOOKEEPER_ZNODE_PARENT, HConstants.DEFAULT_ZOOKEEPER_ZNODE_PARENT);
  }
}
