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
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Shared plumbing of the command-line tools (these and the client tools of the
 * {@code hbase-rlsm-tools} module): the configuration and argument handling.
 */
@InterfaceAudience.Private
public final class ToolSupport {

  private ToolSupport() {
  }

  /**
   * The client configuration for the standalone server: {@code hbase-site.xml} from the classpath
   * with the {@code -Drlsm.*} system properties the launchers pass.
   */
  public static Configuration clientConf() {
    return HBaseConfiguration.create();
  }

  /** Thrown for a command line the tool cannot use; the message is printed with the usage. */
  public static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
      super(message);
    }
  }

  /** A tiny parser for "--name value" options and positional arguments. */
  public static final class Args {
    private final List<String> positional = new ArrayList<>();
    private final List<String[]> options = new ArrayList<>();

    public Args(String[] argv, List<String> flags, List<String> valued) throws UsageException {
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

    public List<String> positional() {
      return positional;
    }

    public boolean has(String name) {
      return options.stream().anyMatch(o -> o[0].equals(name));
    }

    /** The last value given for {@code name}, or {@code dflt}. */
    public String get(String name, String dflt) {
      String v = dflt;
      for (String[] o : options) {
        if (o[0].equals(name)) {
          v = o[1];
        }
      }
      return v;
    }

    /** Every value given for a repeatable option, in order. */
    public List<String> all(String name) {
      List<String> values = new ArrayList<>();
      for (String[] o : options) {
        if (o[0].equals(name)) {
          values.add(o[1]);
        }
      }
      return values;
    }

    public long getLong(String name, long dflt) throws UsageException {
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
