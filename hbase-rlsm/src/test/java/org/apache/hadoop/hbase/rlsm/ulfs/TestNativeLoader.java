package org.apache.hadoop.hbase.rlsm.ulfs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.Collections;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.ChildJvm;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The loader is idempotent, and a missing library fails with a message that says where it looked
 * and how to build it (checked in a child JVM, since a loaded library cannot be unloaded).
 */
@Category({ SmallTests.class, IOTests.class })
public class TestNativeLoader {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestNativeLoader.class);

  /** Child entry point: loads twice and prints the outcome. */
  public static void main(String[] args) {
    for (int i = 0; i < 2; i++) {
      try {
        NativeLoader.load(false);
        System.out.println("loaded " + NativeLoader.isLoaded());
      } catch (IOException e) {
        System.out.println("failed " + e.getMessage());
      }
    }
  }

  private static String runChild(String libProperty) throws Exception {
    return ChildJvm.output(ChildJvm.start(
      Collections.singletonList("-D" + NativeLoader.LIB_PROPERTY + "=" + libProperty),
      TestNativeLoader.class));
  }

  @Test
  public void testLoadIsIdempotent() throws IOException {
    NativeLoader.load(false);
    NativeLoader.load(false);
    assertTrue(NativeLoader.isLoaded());
  }

  @Test
  public void testMissingLibraryMessage() throws Exception {
    String out = runChild("/nonexistent/libulfsjni.so");
    String[] lines = out.trim().split("\n");
    assertEquals(out, 2, lines.length);
    assertTrue(out, lines[0].startsWith("failed "));
    assertTrue(out, lines[0].contains("/nonexistent/libulfsjni.so (absent)"));
    assertTrue(out, lines[0].contains("mvn -pl hbase-rlsm process-classes"));
    assertTrue(out, lines[0].contains("bin/install-deps"));
    assertEquals("the failure is remembered", lines[0], lines[1]);
  }
}
