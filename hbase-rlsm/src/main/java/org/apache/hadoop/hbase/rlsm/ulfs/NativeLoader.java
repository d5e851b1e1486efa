package org.apache.hadoop.hbase.rlsm.ulfs;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the ulfs JNI library exactly once per class loader: {@code libulfsjni.so}, or, when the
 * first mount asks for the fault device (fs.ulfs.fault.*: tests and the kill loop),
 * {@code libulfsjni-fault.so}, the same bridge with the fault device built in. Only the first
 * is in the jar; the server never loads the second. Once a library is loaded it stays: a later
 * mount that asks for the fault device from {@code libulfsjni.so} fails (UlfsErrno).
 *
 * <p>Search order: the file named by {@code -Dulfs.native.lib}; {@code target/native/} next to
 * the directory or jar these classes come from (where the Maven build writes both); for
 * {@code libulfsjni.so} the jar resource {@code native/linux-<arch>/libulfsjni.so}, extracted to
 * a temporary file. A failure is remembered and rethrown with the same message on every later
 * call, which says where it looked and how to build the library.
 */
public final class NativeLoader {
  private static final Logger LOG = LoggerFactory.getLogger(NativeLoader.class);

  /** System property: absolute path of libulfsjni.so, overriding the search. */
  public static final String LIB_PROPERTY = "ulfs.native.lib";
  static final String LIB_FILE = "libulfsjni.so";
  /** The bridge with the fault device (CMake option ULFS_FAULT_DEVICE); never in the jar. */
  static final String FAULT_LIB_FILE = "libulfsjni-fault.so";

  private static String loadedFrom; // null until a library is loaded
  private static String failure;

  private NativeLoader() {
  }

  /**
   * Loads libulfsjni.so, or with faultDevice libulfsjni-fault.so, if no library is loaded yet.
   */
  public static synchronized void load(boolean faultDevice) throws IOException {
    if (loadedFrom != null) {
      return;
    }
    if (failure != null) {
      throw new IOException(failure);
    }
    String file = faultDevice ? FAULT_LIB_FILE : LIB_FILE;
    List<String> tried = new ArrayList<>();
    String explicit = System.getProperty(LIB_PROPERTY);
    if (explicit != null && !explicit.isEmpty()) {
      tryLoad(new File(explicit), tried);
    } else {
      for (File candidate : buildOutputCandidates(file)) {
        if (tryLoad(candidate, tried)) {
          break;
        }
      }
      if (loadedFrom == null && !faultDevice) {
        tryResource(tried);
      }
    }
    if (loadedFrom == null) {
      failure = "ulfs native library " + file + (faultDevice ? " (with the fault device, for "
        + "fs.ulfs.fault.*; never in the jar)" : "") + " not found or not loadable (tried: "
        + String.join("; ", tried) + "). Build it with 'mvn -pl hbase-rlsm process-classes' "
        + "(needs cmake, gcc and liburing-dev: run bin/install-deps), or point -D"
        + LIB_PROPERTY + " at the built library.";
      throw new IOException(failure);
    }
  }

  public static synchronized boolean isLoaded() {
    return loadedFrom != null;
  }

  /** The file the library was loaded from, or null. */
  public static synchronized String loadedFrom() {
    return loadedFrom;
  }

  private static boolean tryLoad(File f, List<String> tried) {
    if (!f.isFile()) {
      tried.add(f + " (absent)");
      return false;
    }
    try {
      System.load(f.getAbsolutePath());
      loadedFrom = f.getAbsolutePath();
      LOG.info("Loaded ulfs native library from {}", f);
      return true;
    } catch (UnsatisfiedLinkError e) {
      tried.add(f + " (" + e.getMessage() + ")");
      return false;
    }
  }

  /** target/native of the module whose classes (target/classes or the jar) hold this class. */
  private static List<File> buildOutputCandidates(String file) {
    List<File> out = new ArrayList<>();
    try {
      File src = new File(
        NativeLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      File target = src.getParentFile();
      if (target != null) {
        out.add(new File(new File(target, "native"), file));
      }
    } catch (URISyntaxException | SecurityException | NullPointerException e) {
      LOG.debug("No code source location for {}", NativeLoader.class, e);
    }
    out.add(new File("hbase-rlsm/target/native/" + file));
    out.add(new File("target/native/" + file));
    return out;
  }

  private static void tryResource(List<String> tried) {
    String arch = System.getProperty("os.arch");
    String res = "native/linux-" + arch + "/" + LIB_FILE;
    try (InputStream in = NativeLoader.class.getClassLoader().getResourceAsStream(res)) {
      if (in == null) {
        tried.add("classpath " + res + " (absent)");
        return;
      }
      Path tmp = Files.createTempFile("libulfsjni", ".so");
      tmp.toFile().deleteOnExit();
      Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      tryLoad(tmp.toFile(), tried);
    } catch (IOException e) {
      tried.add("classpath " + res + " (" + e.getMessage() + ")");
    }
  }
}
