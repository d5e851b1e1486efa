package org.apache.hadoop.hbase.rlsm.ulfs;

import java.io.PrintStream;
import java.net.URI;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The child process of {@link TestUlfsKill}. {@code write <image> <backend> [hsync|hflush]}
 * appends 4 KB records to /kill/log forever, hsync'ing (or hflush'ing) every other one and
 * creating a marker file every tenth, and prints "synced N" / "marker N" only after the call
 * returned. {@code sync-then-wait <image> <backend> [volatile]} appends 10 records, hsyncs after
 * the fifth and hflushes after each later one, reading each hflushed record back through a second
 * stream ("visible N"), prints "done" and waits to be killed; with {@code volatile} the device
 * is the fault device whose unflushed writes live in this process, so the kill is a power loss
 * (the flusher is kept from flushing by its interval). {@code verify <image> <backend>}
 * mounts the image after the writer was killed and prints how many leading records are intact
 * and the highest marker present.
 */
public final class UlfsKillChild {
  static final int RECORD = 4096;

  private UlfsKillChild() {
  }

  static Configuration conf(String image, String backend) {
    Configuration c = new Configuration();
    c.set(UlfsConfig.DEVICE_KEY, image);
    c.setLong(UlfsConfig.DEVICE_BYTES_KEY, 256L << 20);
    c.set(UlfsConfig.BACKEND_KEY, backend);
    c.setLong(UlfsConfig.CACHE_BYTES_KEY, 8L << 20);
    return c;
  }

  static byte[] record(int i) {
    ByteBuffer b = ByteBuffer.allocate(RECORD);
    while (b.hasRemaining()) {
      b.putInt(i);
    }
    return b.array();
  }

  static final int SYNC_THEN_WAIT_RECORDS = 10;
  static final int SYNC_THEN_WAIT_HSYNCED = 5;

  private static void syncThenWait(FileSystem fs, Path log, PrintStream out) throws Exception {
    fs.mkdirs(log.getParent());
    FSDataOutputStream os = fs.create(log);
    byte[] buf = new byte[RECORD];
    try (FSDataInputStream in = fs.open(log)) {
      for (int i = 0; i < SYNC_THEN_WAIT_RECORDS; i++) {
        os.write(record(i));
        if (i + 1 < SYNC_THEN_WAIT_HSYNCED) {
          continue;
        }
        if (i + 1 == SYNC_THEN_WAIT_HSYNCED) {
          os.hsync();
          continue;
        }
        os.hflush();
        in.readFully((long) i * RECORD, buf);
        if (java.util.Arrays.equals(buf, record(i))) {
          out.println("visible " + i);
        }
      }
    }
    out.println("done");
    out.flush();
    System.in.read(); // killed here
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    Configuration conf = conf(args[1], args[2]);
    if (args.length > 3 && args[3].equals("volatile")) {
      conf.setBoolean(UlfsConfig.FAULT_VOLATILE_KEY, true);
      conf.setInt(UlfsConfig.FLUSH_INTERVAL_MS_KEY, Integer.MAX_VALUE);
    }
    FileSystem fs = FileSystem.get(URI.create("ulfs:///"), conf);
    Path log = new Path("/kill/log");
    if (args[0].equals("sync-then-wait")) {
      syncThenWait(fs, log, out);
    }
    if (args[0].equals("write")) {
      fs.mkdirs(log.getParent());
      FSDataOutputStream os = fs.create(log);
      boolean hflush = args.length > 3 && args[3].equals("hflush");
      for (int i = 0;; i++) {
        os.write(record(i));
        if (i % 2 == 0) {
          if (hflush) {
            os.hflush();
          } else {
            os.hsync();
          }
          out.println("synced " + i);
        }
        if (i % 10 == 0) {
          fs.create(new Path("/kill/marker-" + i)).close();
          out.println("marker " + i);
        }
        out.flush();
      }
    }
    int intact = 0;
    try (FSDataInputStream in = fs.open(log)) {
      byte[] buf = new byte[RECORD];
      long len = fs.getFileStatus(log).getLen();
      for (int i = 0; (long) (i + 1) * RECORD <= len; i++) {
        in.readFully((long) i * RECORD, buf);
        if (!java.util.Arrays.equals(buf, record(i))) {
          break;
        }
        intact++;
      }
    }
    int marker = -1;
    for (FileStatus st : fs.listStatus(log.getParent())) {
      String n = st.getPath().getName();
      if (n.startsWith("marker-")) {
        marker = Math.max(marker, Integer.parseInt(n.substring(7)));
      }
    }
    out.println("records " + intact);
    out.println("marker " + marker);
    out.flush();
    fs.close();
  }
}
