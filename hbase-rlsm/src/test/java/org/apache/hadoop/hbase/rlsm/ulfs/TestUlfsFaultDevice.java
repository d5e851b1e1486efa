package org.apache.hadoop.hbase.rlsm.ulfs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.ChildJvm;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The fault device is test-only: the library the jar carries (the one the server loads) does
 * not contain it, a mount that asks for it (fs.ulfs.fault.*) loads libulfsjni-fault.so from the
 * build directory instead, and with the server's library it fails with a message naming the
 * build option. Mounts run in child JVMs: a process loads one library for good.
 */
@Category({ SmallTests.class, IOTests.class })
public class TestUlfsFaultDevice {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestUlfsFaultDevice.class);

  private static final File BUILD = new File("target/native").getAbsoluteFile();

  /**
   * Child entry point: {@code <fault errors>} mounts a memory device behind the fault device
   * (volatile writes, plus the error rules given, "-" for none), writes, hsyncs and reads back
   * a file, and prints "ok <library loaded>" or "failed <message>".
   */
  public static void main(String[] args) throws IOException {
    Configuration conf = new Configuration();
    conf.set(UlfsConfig.BACKEND_KEY, "memory");
    conf.setLong(UlfsConfig.DEVICE_BYTES_KEY, 64L << 20);
    conf.setLong(UlfsConfig.CACHE_BYTES_KEY, 1L << 20);
    conf.setBoolean(UlfsConfig.FAULT_VOLATILE_KEY, true);
    conf.setLong(UlfsConfig.FAULT_SEED_KEY, 7);
    if (!args[0].equals("-")) {
      conf.set(UlfsConfig.FAULT_ERRORS_KEY, args[0]);
    }
    FileSystem fs;
    try {
      fs = FileSystem.newInstance(URI.create("ulfs:///"), conf);
    } catch (IOException e) {
      System.out.println("failed " + e.getMessage());
      return;
    }
    byte[] data = new byte[100_000];
    Arrays.fill(data, (byte) 42);
    Path p = new Path("/fault/file");
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(data);
      out.hsync();
    }
    byte[] back = new byte[data.length];
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(0, back);
    }
    fs.close();
    System.out.println((Arrays.equals(data, back) ? "ok " : "wrong data ")
      + NativeLoader.loadedFrom());
  }

  private static String child(String faultErrors, String libProperty) throws Exception {
    List<String> options = libProperty == null ? Collections.emptyList()
      : Collections.singletonList("-D" + NativeLoader.LIB_PROPERTY + "=" + libProperty);
    return ChildJvm.output(ChildJvm.start(options, TestUlfsFaultDevice.class, faultErrors));
  }

  @Test
  public void testFaultSettingsLoadTheFaultLibrary() throws Exception {
    String out = child("-", null);
    assertEquals(out, "ok " + new File(BUILD, NativeLoader.FAULT_LIB_FILE), out);
  }

  @Test
  public void testServerLibraryRefusesFaultSettings() throws Exception {
    String out = child("-", new File(BUILD, NativeLoader.LIB_FILE).getPath());
    assertTrue(out, out.startsWith("failed "));
    assertTrue(out, out.contains("built without the fault device (ULFS_FAULT_DEVICE=OFF)"));
  }

  @Test
  public void testInvalidFaultSettings() throws Exception {
    String out = child("write:bogus", null);
    assertTrue(out, out.startsWith("failed invalid ulfs fault settings"));
  }

  /** The symbol table (nm, not stripped: RelWithDebInfo) of a library. */
  private static String symbols(File lib) throws Exception {
    return ChildJvm.output(
      new ProcessBuilder("nm", lib.getPath()).redirectErrorStream(true).start()) + "\n";
  }

  @Test
  public void testJarLibraryHasNoFaultDevice() throws Exception {
    String dir = "native/linux-" + System.getProperty("os.arch") + "/";
    ClassLoader cl = NativeLoader.class.getClassLoader();
    URL jarLib = cl.getResource(dir + NativeLoader.LIB_FILE);
    assertNotNull("the jar's library " + dir + NativeLoader.LIB_FILE, jarLib);
    assertNull("the fault library is not packaged",
      cl.getResource(dir + NativeLoader.FAULT_LIB_FILE));
    String jar = symbols(new File(jarLib.toURI()));
    assertTrue("symbol table present", jar.contains(" ulfs_mount\n"));
    assertFalse("fault device in the jar's library", jar.contains("ulfs_dev_fault_"));
    // the same check finds the fault device where it is built in
    String fault = symbols(new File(BUILD, NativeLoader.FAULT_LIB_FILE));
    assertTrue("fault device in " + NativeLoader.FAULT_LIB_FILE,
      fault.contains(" ulfs_dev_fault_wrap\n"));
  }
}
