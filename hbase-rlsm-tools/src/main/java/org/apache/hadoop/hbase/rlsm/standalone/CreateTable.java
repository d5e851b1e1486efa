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

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.DefaultStoreEngine;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.StoreEngine;
import org.apache.hadoop.hbase.regionserver.StripeStoreEngine;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.tool.ToolSupport;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.RegionSplitter;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates a table whose column families use RLSM, HBase's default engine or the stripe engine;
 * {@code bin/create-table}. The three engines are set up the way the benchmark compares them:
 * <ul>
 * <li>{@code rlsm}: {@link RlsmTables}, which sets the engine class and the hash memstore and
 * disables region split and merge (not supported by RLSM files yet);</li>
 * <li>{@code default}: {@link DefaultStoreEngine}, named explicitly so the descriptor shows
 * it;</li>
 * <li>{@code stripe}: {@link StripeStoreEngine} with {@code hbase.hstore.blockingStoreFiles}
 * raised to {@value #STRIPE_BLOCKING_STORE_FILES} as the HBase reference guide advises, because
 * L0 files plus per-stripe files would otherwise hit HBase's default of 16 and block flushes.</li>
 * </ul>
 * Any {@code --conf KEY=VALUE} is set on every family after that, so it overrides the engine's
 * settings (for example {@code hbase.store.stripe.initialStripeCount}).
 * <p>
 * Exit codes: 0 created; 1 failed (for example the table exists and {@code --replace} was not
 * given); 2 bad command line.
 */
@InterfaceAudience.Private
public final class CreateTable {
  private static final Logger LOG = LoggerFactory.getLogger(CreateTable.class);

  static final int STRIPE_BLOCKING_STORE_FILES = 100;
  public static final long DEFAULT_TIMEOUT_SECONDS = 120;

  private static final String USAGE =
    "usage: create-table NAME FAMILY [FAMILY...] [--engine rlsm|default|stripe] [--versions N]\n"
      + "                    [--conf KEY=VALUE]... [--splits KEY,KEY... | --regions N\n"
      + "                    [--split-algo HexStringSplit|DecimalStringSplit|UniformSplit]]\n"
      + "                    [--replace] [--timeout SECONDS]\n"
      + "  --engine    store engine of every family (default: rlsm)\n"
      + "  --versions  maximum versions kept per cell (default: HBase's, 1)\n"
      + "  --conf      extra configuration for every family, e.g. hbase.hstore.compaction.min=4\n"
      + "  --splits    pre-split: the first row of every region but the first\n"
      + "  --regions   pre-split into N regions by --split-algo (HBase's RegionSplitter;\n"
      + "              default HexStringSplit)\n"
      + "  --replace   disable and drop the table first if it exists (its data is lost)\n"
      + "  --timeout   seconds to wait for the regions to open (default: "
      + DEFAULT_TIMEOUT_SECONDS + ")";

  /** The store engines a table can be created with. */
  public enum Engine {
    RLSM, DEFAULT, STRIPE;

    public static Engine parse(String s) throws ToolSupport.UsageException {
      try {
        return valueOf(s.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new ToolSupport.UsageException(
          "--engine must be rlsm, default or stripe, not '" + s + "'");
      }
    }

    public String displayName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private CreateTable() {
  }

  /**
   * The descriptor {@code bin/create-table} creates. {@code versions <= 0} keeps HBase's default;
   * {@code extraConf} is applied to every family last.
   */
  public static TableDescriptor descriptor(TableName name, List<byte[]> families, Engine engine,
    int versions, Map<String, String> extraConf) {
    TableDescriptorBuilder table = configure(engine, TableDescriptorBuilder.newBuilder(name));
    for (byte[] family : families) {
      ColumnFamilyDescriptorBuilder cf =
        configure(engine, ColumnFamilyDescriptorBuilder.newBuilder(family));
      if (versions > 0) {
        cf.setMaxVersions(versions);
      }
      for (Map.Entry<String, String> e : extraConf.entrySet()) {
        cf.setConfiguration(e.getKey(), e.getValue());
      }
      table.setColumnFamily(cf.build());
    }
    return table.build();
  }

  /** The table settings of {@code engine} (RLSM: split and merge off; the others: none). */
  public static TableDescriptorBuilder configure(Engine engine, TableDescriptorBuilder table) {
    return engine == Engine.RLSM ? RlsmTables.configure(table) : table;
  }

  /** The family settings of {@code engine}; the engine class is always named explicitly. */
  public static ColumnFamilyDescriptorBuilder configure(Engine engine,
    ColumnFamilyDescriptorBuilder cf) {
    switch (engine) {
      case RLSM:
        return RlsmTables.configure(cf);
      case STRIPE:
        return cf
          .setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY, StripeStoreEngine.class.getName())
          .setConfiguration(HStore.BLOCKING_STOREFILES_KEY,
            Integer.toString(STRIPE_BLOCKING_STORE_FILES));
      case DEFAULT:
        return cf.setConfiguration(StoreEngine.STORE_ENGINE_CLASS_KEY,
          DefaultStoreEngine.class.getName());
      default:
        throw new AssertionError(engine);
    }
  }

  /**
   * Creates the table and waits until its regions are open; with {@code replace} an existing
   * table of that name is dropped first.
   * @throws IOException also when the table exists and {@code replace} is false, and when the
   *           regions do not open within {@code timeoutSeconds}
   */
  public static void create(Admin admin, TableDescriptor td, boolean replace,
    long timeoutSeconds) throws IOException {
    create(admin, td, null, replace, timeoutSeconds);
  }

  /**
   * {@link #create(Admin, TableDescriptor, boolean, long)} with the table pre-split at
   * {@code splitKeys} (null: one region).
   */
  public static void create(Admin admin, TableDescriptor td, byte[][] splitKeys, boolean replace,
    long timeoutSeconds) throws IOException {
    TableName name = td.getTableName();
    if (admin.tableExists(name)) {
      if (!replace) {
        throw new IOException("table " + name + " already exists (use --replace to drop it)");
      }
      LOG.info("Dropping existing table {}", name);
      if (admin.isTableEnabled(name)) {
        admin.disableTable(name);
      }
      admin.deleteTable(name);
    }
    // Asynchronous with our own bound: when a region cannot open (typically a store engine class
    // missing from the server's classpath) HBase retries the assignment forever, and the
    // synchronous createTable would only give up after hbase.client.sync.wait.timeout.msec.
    Future<Void> done = splitKeys == null ? admin.createTableAsync(td)
      : admin.createTableAsync(td, splitKeys);
    try {
      done.get(timeoutSeconds, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IOException("table " + name + " was created but its regions did not open within "
        + timeoutSeconds + " s; the server log says why (a store engine class the server cannot "
        + "load keeps regions from opening)", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      throw c instanceof IOException ? (IOException) c : new IOException(c);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while creating " + name);
    }
    LOG.info("Created table {}", td);
  }

  /** The split keys of --splits or --regions/--split-algo, or null for one region. */
  static byte[][] splitKeys(ToolSupport.Args args) throws ToolSupport.UsageException {
    String splits = args.get("--splits", null);
    String regions = args.get("--regions", null);
    if (splits != null && regions != null) {
      throw new ToolSupport.UsageException("give --splits or --regions, not both");
    }
    if (splits != null) {
      String[] keys = splits.split(",");
      byte[][] out = new byte[keys.length][];
      for (int i = 0; i < keys.length; i++) {
        out[i] = Bytes.toBytesBinary(keys[i]);
      }
      return out;
    }
    if (regions == null) {
      if (args.get("--split-algo", null) != null) {
        throw new ToolSupport.UsageException("--split-algo needs --regions");
      }
      return null;
    }
    long n = args.getLong("--regions", 1);
    if (n < 2 || n > 100_000) {
      throw new ToolSupport.UsageException("--regions must be between 2 and 100000");
    }
    String algo = args.get("--split-algo", RegionSplitter.HexStringSplit.class.getSimpleName());
    try {
      return RegionSplitter.newSplitAlgoInstance(ToolSupport.clientConf(), algo).split((int) n);
    } catch (IOException | RuntimeException e) {
      throw new ToolSupport.UsageException("bad --split-algo '" + algo + "': " + e.getMessage());
    }
  }

  static int run(String[] argv, Configuration conf, PrintStream out, PrintStream err) {
    TableDescriptor td;
    byte[][] splitKeys;
    boolean replace;
    long timeout;
    try {
      ToolSupport.Args args = new ToolSupport.Args(argv, Arrays.asList("--replace"),
        Arrays.asList("--engine", "--versions", "--conf", "--timeout", "--splits", "--regions",
          "--split-algo"));
      List<String> pos = args.positional();
      if (pos.size() < 2) {
        throw new ToolSupport.UsageException("need a table name and at least one family");
      }
      TableName name;
      try {
        name = TableName.valueOf(pos.get(0));
      } catch (IllegalArgumentException e) {
        throw new ToolSupport.UsageException("bad table name: " + e.getMessage());
      }
      List<byte[]> families = new ArrayList<>();
      for (String f : pos.subList(1, pos.size())) {
        try {
          ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName(Bytes.toBytes(f));
        } catch (IllegalArgumentException e) {
          throw new ToolSupport.UsageException("bad family name: " + e.getMessage());
        }
        families.add(Bytes.toBytes(f));
      }
      Engine engine = Engine.parse(args.get("--engine", "rlsm"));
      long versions = args.getLong("--versions", 0);
      if (versions < 0 || versions > Integer.MAX_VALUE) {
        throw new ToolSupport.UsageException("--versions must be positive");
      }
      Map<String, String> extra = new LinkedHashMap<>();
      for (String kv : args.all("--conf")) {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
          throw new ToolSupport.UsageException("--conf needs KEY=VALUE, got '" + kv + "'");
        }
        extra.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
      td = descriptor(name, families, engine, (int) versions, extra);
      splitKeys = splitKeys(args);
      replace = args.has("--replace");
      timeout = args.getLong("--timeout", DEFAULT_TIMEOUT_SECONDS);
      if (timeout <= 0) {
        throw new ToolSupport.UsageException("--timeout must be positive");
      }
    } catch (ToolSupport.UsageException e) {
      err.println("create-table: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    try (Connection conn = ConnectionFactory.createConnection(conf);
      Admin admin = conn.getAdmin()) {
      create(admin, td, splitKeys, replace, timeout);
      out.println("created table " + td.getTableName().getNameAsString());
      for (ColumnFamilyDescriptor cf : td.getColumnFamilies()) {
        out.println("  family " + cf.getNameAsString() + ": engine "
          + cf.getConfigurationValue(StoreEngine.STORE_ENGINE_CLASS_KEY) + ", max versions "
          + cf.getMaxVersions() + ", configuration " + cf.getConfiguration());
      }
      if (!td.isSplitEnabled() || !td.isMergeEnabled()) {
        out.println("  region split " + (td.isSplitEnabled() ? "enabled" : "disabled")
          + ", merge " + (td.isMergeEnabled() ? "enabled" : "disabled"));
      }
      return 0;
    } catch (IOException e) {
      // The stack trace goes to tools.log only; the message is what the user needs.
      LOG.info("create-table failed", e);
      err.println("create-table: " + e.getMessage());
      return 1;
    }
  }

  public static void main(String[] argv) {
    // System.exit: the HBase client can leave non-daemon threads behind after a failure.
    System.exit(run(argv, ToolSupport.clientConf(), System.out, System.err));
  }
}
