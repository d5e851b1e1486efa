package org.apache.hadoop.hbase.rlsm;

import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.junit.rules.ExternalResource;

/**
 * One mini cluster shared by all tests of a class, as a JUnit class rule: started before the first
 * test with {@link RlsmTestCluster#create()}'s settings, shut down after the last. Declare it
 * {@code @ClassRule(order = 1)}: a higher order is applied inside, so the class's
 * {@code HBaseClassTestRule} (default order) wraps it and its timeout also guards cluster start
 * and shutdown (docs/testing.md).
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
