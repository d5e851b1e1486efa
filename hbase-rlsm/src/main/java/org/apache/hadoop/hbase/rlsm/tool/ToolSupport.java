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
package org.apache.hadoop.hbase.rlsm.tool;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Shared plumbing of the command-line tools: client configurations and argument handling.
 */
@InterfaceAudience.Private
final class ToolSupport {

  private ToolSupport() {
  }

  /**
   * The client configuration for the standalone server: {@code hbase-site.xml} from the classpath
   * with the {@code -Drlsm.*} system properties the launchers pass.
   */
  static Configuration clientConf() {
    return HBaseConfiguration.create();
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
  static String zkAddress(Configuration conf) {
    return conf.get(HConstants.ZOOKEEPER_QUORUM) + ":"
      + conf.get(HConstants.ZOOKEEPER_CLIENT_PORT);
  }

  /** Thrown for a command line the tool cannot use; the message is printed with the usage. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /** A tiny parser for "--name value" options and positional arguments. */
  static final class Args {
    private final List<String> positional = new ArrayList<>();
    private final List<String[]> options = new ArrayList<>();

    Args(String[] argv, List<String> flags, List<String> valued) throws UsageException {
      for (int i = 0; i < argv.length; i++) {
        String a = argv[i];
        if (flags.contains(a)) {
          options.add(new String[] { a, null });
        } else if (valued.contains(a)) {
          if (i + 1 >= argv.length) {
            throw new UsageException(a + " needs a value");
          }
          options.add(new String[] { a, argv[++i] });
        } else if (a.startsWith("--")) {
          throw new UsageException("unknown option " + a);
        } else {
          positional.add(a);
        }
      }
    }

    List<String> positional() {
      return positional;
    }

    boolean has(String name) {
      return options.stream().anyMatch(o -> o[0].equals(name));
    }

    /** The last value given for {@code name}, or {@code dflt}. */
    String get(String name, String dflt) {
      String v = dflt;
      for (String[] o : options) {
        if (o[0].equals(name)) {
          v = o[1];
        }
      }
      return v;
    }

    /** Every value given for a repeatable option, in order. */
    List<String> all(String name) {
      List<String> values = new ArrayList<>();
      for (String[] o : options) {
        if (o[0].equals(name)) {
          values.add(o[1]);
        }
      }
      return values;
    }

    long getLong(String name, long dflt) throws UsageException {
      String v = get(name, null);
      if (v == null) {
        return dflt;
      }
      try {
        return Long.parseLong(v);
      } catch (NumberFormatException e) {
        throw new UsageException(name + " needs a number, got '" + v + "'");
      }
    }
  }
}
