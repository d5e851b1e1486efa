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
package org.apache.hadoop.hbase.rlsm.killloop;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * The short kill -9 loop of the default suite: a standalone server child is killed twice under
 * load (RLSM and default-engine tables, forced flushes and compactions); after each restart every
 * key must match the oracle. Each cycle costs a server restart (JVM start, master initialisation,
 * WAL split), so the suite keeps to two; the long run is {@code bench/scripts/kill-loop.sh}
 * (docs/kill-loop.md).
 */
public class TestKillLoop {
  /** surefire's working directory is the module; conf/ is in the repository root. */
  private static final File CONF = new File(System.getProperty("user.dir")).getAbsoluteFile()
    .getParentFile().toPath().resolve("conf").toFile();

  private static final int CYCLES = 2;

  @Rule
  public final TemporaryFolder tmp = new TemporaryFolder();

  @Rule
  public final Timeout timeout = new Timeout(20, TimeUnit.MINUTES); // a hang guard only

  @Test
  public void testKillLoopLocal() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8.name());
    KillLoopOptions o = KillLoopOptions.parse("--dir", tmp.newFolder("data").getPath(),
      "--conf-dir", CONF.getPath(), "--cycles", Integer.toString(CYCLES),
      "--min-run-seconds", "3", "--max-run-seconds", "6", "--min-ops", "1", "--seed",
      Long.toString(System.currentTimeMillis()));
    KillLoop loop = new KillLoop(o, out);
    boolean ok = loop.run();
    String report = buf.toString(StandardCharsets.UTF_8.name());
    System.out.print(report);
    assertTrue(report, ok);
    assertEquals(report, CYCLES, loop.cycles());
    for (LoopStats s : new LoopStats[] { loop.stats(KillLoop.RLSM_TABLE),
      loop.stats(KillLoop.DEFAULT_TABLE) }) {
      assertTrue(report, s.puts.get() > 0 && s.deletes.get() > 0 && s.increments.get() > 0);
      assertTrue(report, s.gets.get() > 0 && s.scans.get() > 0);
      assertEquals(report, (long) CYCLES * (o.keys + o.counters), s.keysVerified.get());
      assertEquals(report, 0, s.failures());
    }
  }
}
