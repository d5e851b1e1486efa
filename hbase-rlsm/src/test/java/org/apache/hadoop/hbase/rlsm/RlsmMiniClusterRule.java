package org.apache.hadoop.hbase.rlsm;

import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.junit.rules.ExternalResource;

/**
 * One mini cluster shared by all tests of a class, as a JUnit class rule: started before the first
 * test with {@link RlsmTestCluster#create()}'s settings, shut down after the last.
 */
public final class RlsmMiniClusterRule extends ExternalResource {
  private final HBaseTestingUtility util = RlsmTestCluster.create();
  private final int regionServers;

  public RlsmMiniClusterRule(int regionServers) {
    this(regionServers, conf -> {
    });
  }

  /** {@code settings} adjusts the configuration before the cluster starts. */
  public RlsmMiniClusterRule(int regionServers, Consumer<Configuration> settings) {
    this.regionServers = regionServers;
    settings.accept(util.getConfiguration());
  }

  public HBaseTestingUtility util() {
    return util;
  }

  @Override
  protected void before() throws Throwable {
    util.startMiniCluster(regionServers);
  }

  @Override
  protected void after() {
    try {
      util.shutdownMiniCluster();
    } catch (Exception e) {
      throw new IllegalStateException("mini cluster shutdown failed", e);
    }
  }
}
