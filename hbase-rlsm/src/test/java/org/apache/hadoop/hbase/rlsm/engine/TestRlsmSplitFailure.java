package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.F;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.assertSame;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.flush;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.majorCompact;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.rewriteReferences;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.settle;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.write;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.coprocessor.CoprocessorHost;
import org.apache.hadoop.hbase.coprocessor.MasterCoprocessor;
import org.apache.hadoop.hbase.coprocessor.MasterCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.MasterObserver;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.rlsm.RlsmMasterObserver;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.HFileArchiveUtil;
import org.junit.After;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Splits of an RLSM region (Level-0 and Level-1 present) that HBase's
 * {@code SplitTableRegionProcedure} does not finish in one go, through the HBase client and
 * compared with a default-engine twin holding the same writes:
 * <ul>
 * <li>a split that fails after the daughters' reference files were written and before the split
 * is committed in hbase:meta (a master observer throws in {@code preSplitRegionBeforeMETAAction},
 * as HBase's own {@code TestSplitTransactionOnCluster} does) rolls back: the parent serves every
 * row, its files are all still in place, nothing of the daughters is left, and a later split
 * succeeds;</li>
 * <li>the active master is aborted and a new one started while a split procedure is held at a
 * step (a master observer waits on a latch); the new master resumes the procedure from its
 * store.</li>
 * </ul>
 * The interleavings are driven by latches in the observer's hooks; waits for what the cluster
 * does by itself (the rolled-back parent's reopening, the daughters' opening) are bounded only
 * by the hang guard.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmSplitFailure {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmSplitFailure.class);

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1,
    conf -> conf.set(CoprocessorHost.MASTER_COPROCESSOR_CONF_KEY,
      SplitGates.class.getName() + "," + RlsmMasterObserver.class.getName()));
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static final String INJECTED = "split fault injected by the test";

  /**
   * One stop of a split procedure at a master observer hook: the hook counts down
   * {@link #reached}, waits for {@link #release}, then throws when {@link #fail} was set (which
   * makes the procedure roll back: the hooks used here run before the split's point of no
   * return). A gate stops one call only: the hook disarms it, so a step the procedure executes
   * again (after a master restart) passes.
   */
  static final class Gate {
    final byte[] splitRow;
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean fail;

    Gate(byte[] splitRow) {
      this.splitRow = splitRow;
    }

    void pass() throws IOException {
      reached.countDown();
      try {
        RlsmTestCluster.awaitLatch(release);
      } catch (InterruptedException e) {
        throw (InterruptedIOException) new InterruptedIOException("gate").initCause(e);
      }
      if (fail) {
        throw new IOException(INJECTED);
      }
    }
  }

  /**
   * Master observer holding split procedures at two steps: {@code SPLIT_TABLE_REGION_PRE_OPERATION}
   * (before the parent is closed) and {@code SPLIT_TABLE_REGION_PRE_OPERATION_BEFORE_META} (the
   * daughters' directories and references are written, hbase:meta not yet updated). Loaded on
   * every master the cluster starts, restarted ones included; the gates are static so that the
   * test arms them whichever master runs the procedure.
   */
  public static class SplitGates implements MasterCoprocessor, MasterObserver {
    static final AtomicReference<Gate> PRE_OPERATION = new AtomicReference<>();
    static final AtomicReference<Gate> BEFORE_META = new AtomicReference<>();

    @Override
    public Optional<MasterObserver> getMasterObserver() {
      return Optional.of(this);
    }

    @Override
    public void preSplitRegionAction(ObserverContext<MasterCoprocessorEnvironment> c,
      TableName tableName, byte[] splitRow) throws IOException {
      stop(PRE_OPERATION, splitRow);
    }

    @Override
    public void preSplitRegionBeforeMETAAction(ObserverContext<MasterCoprocessorEnvironment> ctx,
      byte[] splitKey, List<Mutation> metaEntries) throws IOException {
      stop(BEFORE_META, splitKey);
    }

    private static void stop(AtomicReference<Gate> at, byte[] splitRow) throws IOException {
      Gate g = at.get();
      if (g != null && Bytes.equals(g.splitRow, splitRow) && at.compareAndSet(g, null)) {
        g.pass();
      }
    }
  }

  private static Gate arm(AtomicReference<Gate> at, byte[] splitRow) {
    Gate g = new Gate(splitRow);
    assertTrue("a gate is still armed", at.compareAndSet(null, g));
    return g;
  }

  /** A loaded twin pair and what the RLSM side's one region (the parent) held before the split. */
  private static final class Loaded {
    final RlsmTwinTables tw;
    final HRegion parent;
    final String enc;
    final Set<String> parentFiles;
    final Set<Path> archivedBefore;

    Loaded(String name) throws Exception {
      tw = TwinSplits.twins(util, name);
      parent = load(tw);
      enc = parent.getRegionInfo().getEncodedName();
      parentFiles = storeFileNames(tw.rlsm, enc);
      archivedBefore = archived(tw.rlsm, enc);
    }
  }

  /**
   * Level-1 from a major compaction (split into partitions), then newer Level-0 files,
   * everything flushed; then compactions are switched off, so that the files the split sees stay
   * the store's files.
   */
  private static HRegion load(RlsmTwinTables tw) throws Exception {
    write(tw, 0, 800, "a");
    flush(tw);
    write(tw, 400, 800, "b");
    flush(tw);
    majorCompact(tw);
    HRegion r = regions(tw.rlsm).get(0);
    settle(r);
    write(tw, 200, 600, "c");
    flush(tw);
    write(tw, 0, 100, "d");
    flush(tw);
    util.getAdmin().compactionSwitch(false, List.of());
    for (HStore s : r.getStores()) {
      s.closeAndArchiveCompactedFiles();
    }
    HStore store = r.getStore(F);
    assertTrue("Level-0 files: " + RlsmStoreProbe.level0Files(store),
      RlsmStoreProbe.level0Files(store) >= 2);
    assertTrue("Level-1 partitions: " + RlsmStoreProbe.partitions(store),
      RlsmStoreProbe.partitions(store) >= 2);
    return r;
  }

  private static List<HRegion> regions(TableName tn) {
    return TwinSplits.regions(util, tn);
  }

  private static void waitForRegions(TableName tn, int n) throws Exception {
    TwinSplits.waitForRegions(util, tn, n);
  }

  /** Waits until {@code encoded} is the table's only region, open and listed in hbase:meta. */
  private static void waitForOnly(TableName tn, String encoded) throws Exception {
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS,
      () -> regions(tn).size() == 1
        && regions(tn).get(0).getRegionInfo().getEncodedName().equals(encoded)
        && util.getAdmin().getRegions(tn).size() == 1);
    util.waitUntilNoRegionsInTransition(RlsmTestCluster.HANG_GUARD_MS);
  }

  private static Path tableDir(TableName tn) throws IOException {
    return CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(util.getConfiguration()), tn);
  }

  /** Encoded names of the region directories of {@code tn} (dot-directories left out). */
  private static Set<String> regionDirs(TableName tn) throws IOException {
    Set<String> out = new TreeSet<>();
    for (FileStatus st : util.getTestFileSystem().listStatus(tableDir(tn))) {
      if (st.isDirectory() && !st.getPath().getName().startsWith(".")) {
        out.add(st.getPath().getName());
      }
    }
    return out;
  }

  /** Names of the files in region {@code encoded}'s family directory. */
  private static Set<String> storeFileNames(TableName tn, String encoded) throws IOException {
    FileSystem fs = util.getTestFileSystem();
    Path dir = new Path(new Path(tableDir(tn), encoded), Bytes.toString(F));
    Set<String> out = new TreeSet<>();
    if (fs.exists(dir)) {
      for (FileStatus st : fs.listStatus(dir)) {
        if (st.isFile()) {
          out.add(st.getPath().getName());
        }
      }
    }
    return out;
  }

  /**
   * The store files archived from region {@code encoded}'s family directory. (HBase's rollback
   * archives the daughters' directories rather than deleting them, under the daughters' names;
   * an HFile link that a split writes leaves a back-reference in a sub-directory of the linked
   * file's archive directory, which is no store file.)
   */
  private static Set<Path> archived(TableName tn, String encoded) throws IOException {
    Path dir = new Path(new Path(HFileArchiveUtil
      .getTableArchivePath(CommonFSUtils.getRootDir(util.getConfiguration()), tn), encoded),
      Bytes.toString(F));
    Set<Path> out = new TreeSet<>();
    for (Path p : RlsmTwinTables.allFiles(util, tn)) {
      if (p.getParent().toUri().getPath().equals(dir.toUri().getPath())) {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * The daughters of {@code parent} whose family directory does not hold exactly the references
   * RLSM's split policy has the master write (one to each of the parent's files), each with what
   * it holds; every region directory but the parent's is taken for a daughter.
   */
  private static List<String> partialDaughters(TableName tn, String parent,
    Set<String> parentFiles) throws IOException {
    Set<String> references = new TreeSet<>();
    for (String f : parentFiles) {
      references.add(f + "." + parent);
    }
    Set<String> daughters = regionDirs(tn);
    daughters.remove(parent);
    assertEquals("daughter directories " + daughters, 2, daughters.size());
    List<String> partial = new ArrayList<>();
    for (String d : daughters) {
      Set<String> got = storeFileNames(tn, d);
      if (!got.equals(references)) {
        partial.add(d + " holds " + got);
      }
    }
    return partial;
  }

  /** A failed test leaves neither a gate armed nor compactions switched off. */
  @After
  public void reset() throws IOException {
    SplitGates.PRE_OPERATION.set(null);
    SplitGates.BEFORE_META.set(null);
    util.getAdmin().compactionSwitch(true, List.of());
  }

  @Test
  public void splitFailingBeforeMetaRollsBackAndLaterSplitSucceeds() throws Exception {
    Loaded l = new Loaded("fail");
    RlsmTwinTables tw = l.tw;
    String enc = l.enc;
    Admin admin = util.getAdmin();
    assertSame(tw, true);

    Gate gate = arm(SplitGates.BEFORE_META, row(450));
    gate.fail = true;
    Future<Void> split = admin.splitRegionAsync(l.parent.getRegionInfo().getRegionName(), row(450));
    RlsmTestCluster.awaitLatch(gate.reached);
    // the daughters are written: a reference to every file of the parent in each
    assertEquals(List.of(), partialDaughters(tw.rlsm, l.enc, l.parentFiles));
    gate.release.countDown();
    try {
      split.get();
      fail("the split was to fail");
    } catch (ExecutionException e) {
      assertTrue(e.toString(), e.getCause().toString().contains(INJECTED)
        || String.valueOf(e.getCause().getMessage()).contains("master-split-regions"));
    }
    // the rollback reopens the parent (asynchronously)
    waitForOnly(tw.rlsm, enc);
    assertEquals("region directories after the rollback", Set.of(enc), regionDirs(tw.rlsm));
    HRegion reopened = regions(tw.rlsm).get(0);
    assertFalse("the parent holds no reference", reopened.hasReferences());
    assertEquals("the parent's files", l.parentFiles, storeFileNames(tw.rlsm, enc));
    assertEquals("nothing of the parent archived", l.archivedBefore, archived(tw.rlsm, enc));
    assertTrue(RlsmStoreProbe.partitions(reopened.getStore(F)) >= 2);
    assertSame(tw, true);
    write(tw, 440, 460, "e"); // the reopened parent takes writes
    assertSame(tw, true);

    // without the fault, the same split succeeds
    admin.compactionSwitch(true, List.of());
    admin.split(tw.rlsm, row(450));
    admin.split(tw.dflt, row(450));
    waitForRegions(tw.rlsm, 2);
    waitForRegions(tw.dflt, 2);
    assertSame(tw, false);
    rewriteReferences(tw);
    assertSame(tw, true);
  }

  /**
   * Aborts the active master while a split procedure is held at {@code held},
   * starts a new master and releases the hold (the old master's procedure worker must leave the
   * hook before the old master can finish stopping, and may execute further steps before it
   * notices the stop; the new master resumes from the last step the procedure store recorded).
   * The client's future of the split is left alone: the test checks the cluster's state.
   */
  private static void abortMasterWhileHeld(Gate held) throws Exception {
    MiniHBaseCluster cluster = util.getMiniHBaseCluster();
    RlsmTestCluster.awaitLatch(held.reached);
    cluster.abortMaster(0);
    held.release.countDown();
    cluster.waitOnMaster(0);
    cluster.startMaster();
    assertTrue("a new master", cluster.waitForActiveAndReadyMaster(RlsmTestCluster.HANG_GUARD_MS));
    util.invalidateConnection();
  }

  @Test
  public void masterRestartWithDaughtersWrittenCompletesTheSplit() throws Exception {
    Loaded l = new Loaded("restart_meta");
    RlsmTwinTables tw = l.tw;
    Gate gate = arm(SplitGates.BEFORE_META, row(450));
    util.getAdmin().splitRegionAsync(l.parent.getRegionInfo().getRegionName(), row(450));
    abortMasterWhileHeld(gate);
    util.getAdmin().compactionSwitch(false, List.of());
    waitForRegions(tw.rlsm, 2);
    assertEquals(List.of(), partialDaughters(tw.rlsm, l.enc, l.parentFiles));
    util.getAdmin().split(tw.dflt, row(450));
    waitForRegions(tw.dflt, 2);
    assertSame(tw, false);
    util.getAdmin().compactionSwitch(true, List.of());
    rewriteReferences(tw);
    assertSame(tw, true);
  }

  /**
   * The master restarts before the parent region is closed. The new master resumes the split
   * procedure from its store, and the resumed procedure has no split policy (HBase instantiates
   * it only when the procedure is created), so it writes the daughters as HFile splits: no
   * reference to a file without cells (the Level-1 manifest), links instead of references. Such
   * daughters could not open after the split's point of no return; the split must instead be
   * rolled back before hbase:meta is updated, and a later split succeed.
   */
  @Test
  public void masterRestartBeforeParentClosedRollsBackOrSplitsWithAllReferences()
    throws Exception {
    Loaded l = new Loaded("restart_pre");
    RlsmTwinTables tw = l.tw;
    String enc = l.enc;
    Admin admin = util.getAdmin();
    Gate pre = arm(SplitGates.PRE_OPERATION, row(450));
    // the resumed procedure stops again once the daughters are written, to be inspected
    Gate meta = arm(SplitGates.BEFORE_META, row(450));
    admin.splitRegionAsync(l.parent.getRegionInfo().getRegionName(), row(450));
    abortMasterWhileHeld(pre);
    RlsmTestCluster.awaitLatch(meta.reached);
    List<String> partial = partialDaughters(tw.rlsm, l.enc, l.parentFiles);
    meta.release.countDown();
    // the outcome: daughters in hbase:meta (split committed), or the parent open again (the
    // parent was closed before the daughters were written, so only a rollback reopens it)
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> util.getAdmin().getRegions(tw.rlsm).size()
      == 2 || regions(tw.rlsm).stream()
        .anyMatch(r -> r.getRegionInfo().getEncodedName().equals(enc)));
    admin = util.getAdmin();
    if (admin.getRegions(tw.rlsm).size() == 2) {
      assertTrue("the split was committed with daughters that cannot open: parent " + enc
        + " holds " + l.parentFiles + "; " + partial, partial.isEmpty());
      waitForRegions(tw.rlsm, 2);
    } else {
      assertFalse("rolled back although the daughters referenced every file", partial.isEmpty());
      waitForOnly(tw.rlsm, enc);
      assertEquals("the parent's files", l.parentFiles, storeFileNames(tw.rlsm, enc));
      assertEquals("region directories after the rollback", Set.of(enc), regionDirs(tw.rlsm));
      assertEquals("nothing of the parent archived", l.archivedBefore, archived(tw.rlsm, enc));
      assertSame(tw, true);
      admin.split(tw.rlsm, row(450));
      waitForRegions(tw.rlsm, 2);
    }
    admin.split(tw.dflt, row(450));
    waitForRegions(tw.dflt, 2);
    assertSame(tw, false);
    admin.compactionSwitch(true, List.of());
    rewriteReferences(tw);
    assertSame(tw, true);
  }
}
