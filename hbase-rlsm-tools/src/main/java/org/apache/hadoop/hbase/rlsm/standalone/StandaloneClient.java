/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.apache.hadoop.hbase.rlsm.standalone;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Client settings for talking to the standalone server of {@code bin/hbase-start}: a fail-fast
 * copy for probing a server that may not be up yet, and its ZooKeeper address for messages.
 */
@InterfaceAudience.Private
public final class StandaloneClient {

  private StandaloneClient() {
  }

  /**
   * A copy of {@code base} that fails fast. Used to probe a server that may not be up yet: the
   * defaults retry ZooKeeper and RPCs for minutes, which would make a poll loop useless.
   */
  static Configuration probeConf(Configuration base) {
    Configuration conf = new Configuration(base);
    conf.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 1);
    conf.setInt(HConstants.HBASE_CLIENT_PAUSE, 100);
    conf.setInt(HConstants.HBASE_RPC_TIMEOUT_KEY, 5_000);
    conf.setInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, 10_000);
    conf.setInt(HConstants.HBASE_CLIENT_META_OPERATION_TIMEOUT, 10_000);
    conf.setInt("zookeeper.recovery.retry", 1);
    conf.setInt("zookeeper.recovery.retry.intervalmill", 200);
    conf.setInt(HConstants.ZK_SESSION_TIMEOUT, 10_000);
    return conf;
  }

  /** The ZooKeeper address clients use, for messages. */
  public static String zkAddress(Configuration conf) {
    return conf.get(HConstants.ZOOKEEPER_QUORUM) + ":"
      + conf.get(HConstants.ZOOKEEPER_CLIENT_PORT);
  }
}
