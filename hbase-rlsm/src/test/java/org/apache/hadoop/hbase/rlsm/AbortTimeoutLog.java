package org.apache.hadoop.hbase.rlsm;

import java.util.TimerTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The abort-timeout task of test RegionServers (hbase.regionserver.abort.timeout.task). HBase's
 * default halts the JVM when an aborted RegionServer has not finished 20 minutes later; in a test
 * JVM that runs many classes one after another, the timer of a RegionServer a recovery test
 * aborted fires during a later class and kills the whole test run. Logging keeps the warning.
 */
public final class AbortTimeoutLog extends TimerTask {
  private static final Logger LOG = LoggerFactory.getLogger(AbortTimeoutLog.class);

  @Override
  public void run() {
    LOG.warn("An aborted RegionServer of an earlier test had not finished its abort in time");
  }
}
