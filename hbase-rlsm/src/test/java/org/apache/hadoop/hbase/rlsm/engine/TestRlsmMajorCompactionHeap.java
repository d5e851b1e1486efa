package org.apache.hadoop.hbase.rlsm.engine;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.ChildJvm;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user major compaction of a store larger than the heap: a child JVM with a
 * {@value #HEAP_MB} MB heap loads {@value #LOAD_MB} MB of incompressible rows into an RLSM region
 * (flushes and the compactions they lead to, as a RegionServer would), then major-compacts it.
 * A writer holding its whole output until it finishes could not: the store alone is larger than
 * the heap. The compaction must complete, every row must scan back, and the child reports the
 * heap's peak during the major compaction (docs/architecture.md, "Memory").
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmMajorCompactionHeap {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmMajorCompactionHeap.class);

  private static final Logger LOG = LoggerFactory.getLogger(TestRlsmMajorCompactionHeap.class);
  private static final int HEAP_MB = 96;
  private static final int LOAD_MB = 160;

  @Test
  public void majorCompactionOfAStoreLargerThanTheHeapCompletes() throws Exception {
    File work = new File("target/major-heap");
    FileUtil.fullyDelete(work);
    // the JDK 17 module flags HBase needs, as this JVM got them
    List<String> options = new ArrayList<>(ChildJvm.moduleFlags());
    options.addAll(List.of("-Xmx" + HEAP_MB + "m", "-XX:+UseSerialGC",
      "-XX:+ExitOnOutOfMemoryError"));
    String out = ChildJvm.output(ChildJvm.start(options, MajorCompactionChild.class,
      work.getAbsolutePath(), Integer.toString(LOAD_MB)));
    Map<String, Long> values = new HashMap<>();
    for (String line : out.split("\n")) {
      String[] kv = line.trim().split(" ");
      if (kv.length == 2 && kv[1].matches("\\d+")) {
        values.put(kv[0], Long.parseLong(kv[1]));
      }
    }
    LOG.info("major compaction in a small heap: {}", values);
    assertTrue("the child reported: " + out, values.containsKey("files-after"));
    long heap = values.get("heap");
    assertTrue("the store (" + values.get("store") + " bytes) is larger than the heap (" + heap
      + ")", values.get("store") > heap * 3 / 2);
    assertEquals("every row scans back", values.get("expected-rows"), values.get("rows"));
    FileUtil.fullyDelete(work);
  }
}
