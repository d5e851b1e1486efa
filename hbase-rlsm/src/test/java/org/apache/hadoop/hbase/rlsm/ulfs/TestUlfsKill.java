package org.apache.hadoop.hbase.rlsm.ulfs;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.rlsm.ChildJvm;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * kill -9 of a process writing through ulfs is a power cut for what it had not synced: a child
 * JVM appends and hsyncs records and creates marker files, is killed without warning, and then
 * every record whose hsync had returned and every marker whose create had returned must be on
 * the image; ulfs-fsck (which replays the journal) must find it clean. Run for the posix and the
 * io_uring backend, each on its own image file under target/, and with hflush instead of hsync:
 * HBase acknowledges SYNC_WAL writes after an hflush, so that too must survive kill -9. And the
 * line between hflush and hsync (docs/ulfs.md "Durability"): records hflushed after an hsync are
 * visible to a second reader at once and survive kill -9, but are lost when the process holding
 * the fault device's unflushed writes dies (a power loss), while the hsynced ones are not.
 */
@Category({ MediumTests.class, IOTests.class })
public class TestUlfsKill {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestUlfsKill.class);

  private static final int SYNCS_BEFORE_KILL = 300;

  private static Process child(String... args) throws IOException {
    return ChildJvm.start(Collections.singletonList("-Xmx256m"), UlfsKillChild.class, args);
  }

  private static int last(List<String> lines, String prefix) {
    int v = -1;
    for (String l : lines) {
      if (l.startsWith(prefix)) {
        v = Integer.parseInt(l.substring(prefix.length()).trim());
      }
    }
    return v;
  }

  private void killAndCheck(String backend, String sync) throws Exception {
    File image = new File("target/ulfs-kill/" + backend + "-" + sync + ".img").getAbsoluteFile();
    image.delete();
    image.getParentFile().mkdirs();
    Process w = child("write", image.getPath(), backend, sync);
    List<String> seen = new ArrayList<>();
    try (BufferedReader r =
      new BufferedReader(new InputStreamReader(w.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        seen.add(line);
        if (line.startsWith("synced ")
          && Integer.parseInt(line.substring(7)) >= SYNCS_BEFORE_KILL) {
          break;
        }
      }
      w.destroyForcibly(); // SIGKILL: no shutdown hook, no unmount
      assertTrue(w.waitFor(RlsmTestCluster.HANG_GUARD_MINUTES, TimeUnit.MINUTES));
    }
    int synced = last(seen, "synced ");
    int marker = last(seen, "marker ");
    assertTrue("writer output: " + seen.subList(0, Math.min(5, seen.size())),
      synced >= SYNCS_BEFORE_KILL);

    ChildJvm.output(new ProcessBuilder(new File("target/native/ulfs-fsck").getAbsolutePath(),
      image.getPath()).redirectErrorStream(true).start()); // exit code 0: clean

    List<String> out =
      Arrays.asList(ChildJvm.output(child("verify", image.getPath(), backend)).split("\n"));
    int records = last(out, "records ");
    int markerFound = last(out, "marker ");
    assertTrue("records intact " + records + " but record " + synced + " was " + sync + "'ed",
      records >= synced + 1);
    assertTrue("marker " + marker + " was created but the newest present is " + markerFound,
      markerFound >= marker);
  }

  /** Runs UlfsKillChild sync-then-wait, kills it once done, returns the intact records. */
  private int syncThenKill(String name, String... faults) throws Exception {
    File image = new File("target/ulfs-kill/" + name + ".img").getAbsoluteFile();
    image.delete();
    image.getParentFile().mkdirs();
    List<String> args = new ArrayList<>(Arrays.asList("sync-then-wait", image.getPath(), "posix"));
    args.addAll(Arrays.asList(faults));
    Process w = child(args.toArray(new String[0]));
    List<String> seen = new ArrayList<>();
    try (BufferedReader r =
      new BufferedReader(new InputStreamReader(w.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null && !line.equals("done")) {
        seen.add(line);
      }
      w.destroyForcibly();
      assertTrue(w.waitFor(RlsmTestCluster.HANG_GUARD_MINUTES, TimeUnit.MINUTES));
    }
    int hflushed = UlfsKillChild.SYNC_THEN_WAIT_RECORDS - UlfsKillChild.SYNC_THEN_WAIT_HSYNCED;
    assertEquals("hflushed records a second reader saw: " + seen, hflushed,
      seen.stream().filter(l -> l.startsWith("visible ")).count());
    ChildJvm.output(new ProcessBuilder(new File("target/native/ulfs-fsck").getAbsolutePath(),
      image.getPath()).redirectErrorStream(true).start()); // exit code 0: clean
    List<String> out =
      Arrays.asList(ChildJvm.output(child("verify", image.getPath(), "posix")).split("\n"));
    return last(out, "records ");
  }

  @Test
  public void testHflushSurvivesKill() throws Exception {
    assertEquals(UlfsKillChild.SYNC_THEN_WAIT_RECORDS, syncThenKill("hflush-kill"));
  }

  @Test
  public void testHflushLostByPowerLossHsyncNot() throws Exception {
    assertEquals(UlfsKillChild.SYNC_THEN_WAIT_HSYNCED, syncThenKill("hflush-power", "volatile"));
  }

  @Test
  public void testKillPosix() throws Exception {
    killAndCheck("posix", "hsync");
  }

  @Test
  public void testKillAfterHflush() throws Exception {
    killAndCheck("posix", "hflush");
  }

  @Test
  public void testKillIoUring() throws Exception {
    killAndCheck("io_uring", "hsync");
  }
}
