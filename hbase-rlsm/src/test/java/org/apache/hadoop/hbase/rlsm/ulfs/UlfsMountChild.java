package org.apache.hadoop.hbase.rlsm.ulfs;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import javax.management.MBeanServer;
import javax.management.openmbean.TabularData;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The child process of {@link TestUlfsMountCounters}, which needs a JVM of its own: one that
 * mounts and unmounts a device, or exits with it mounted.
 * <ul>
 * <li>{@code jmx <image>}: mounts, reads a file, prints the JMX bean's CacheHits and
 * ReadaheadIssued and user-role misses ("hits N", "readahead N", "user-misses N"), whether the bean is registered while mounted and
 * after the file system closed ("registered B", "registered-after-close B").</li>
 * <li>{@code exit <image>}: mounts, leaves an output and an input stream open, prints "open" and
 * returns from main: the JVM exits with the device mounted.</li>
 * </ul>
 */
public final class UlfsMountChild {
  private UlfsMountChild() {
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    FileSystem fs = FileSystem.newInstance(URI.create("ulfs:///"),
      UlfsKillChild.conf(args[1], "posix"));
    Path p = new Path("/child/f");
    try (FSDataOutputStream os = fs.create(p, true)) {
      os.write(new byte[1 << 20]);
    }
    if (args[0].equals("jmx")) {
      MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
      UlfsMount mount = ((UlfsFileSystem) fs).getMount();
      mount.dropCache("/child/f");
      try (FSDataInputStream in = fs.open(p)) {
        byte[] b = new byte[4096];
        while (in.read(b) > 0) {
          // a sequential stream: read ahead
        }
      }
      out.println("registered " + jmx.isRegistered(mount.beanName()));
      out.println("hits " + jmx.getAttribute(mount.beanName(), "CacheHits"));
      out.println("readahead " + jmx.getAttribute(mount.beanName(), "ReadaheadIssued"));
      TabularData byRole = (TabularData) jmx.getAttribute(mount.beanName(), "MissesByRole");
      out.println("user-misses " + byRole.get(new Object[] { "user" }).get("value"));
      fs.close();
      out.println("registered-after-close " + jmx.isRegistered(mount.beanName()));
    } else {
      FSDataOutputStream os = fs.create(new Path("/child/open"), true);
      os.write(new byte[10_000]);
      os.hflush();
      FSDataInputStream in = fs.open(p);
      in.read(new byte[100]);
      out.println("open");
      out.flush();
    }
  }
}
