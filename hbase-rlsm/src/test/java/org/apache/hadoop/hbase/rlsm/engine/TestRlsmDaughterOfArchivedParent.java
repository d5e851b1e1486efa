package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.apache.hadoop.hbase.rlsm.engine.TwinSplits.F;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.backup.HFileArchiver;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.master.cleaner.HFileCleaner;
import org.apache.hadoop.hbase.master.cleaner.TimeToLiveHFileCleaner;
import org.apache.hadoop.hbase.master.janitor.CatalogJanitor;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.regionserver.storefiletracker.StoreFileTrackerFactory;
import org.apache.hadoop.hbase.rlsm.LinkReferenceCleaner;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.CommonFSUtils;
import org.apache.hadoop.hbase.util.HFileArchiveUtil;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * A split made without RLSM's split policy (as in {@link TestRlsmSplitWithoutPolicy}) whose parent
 * is archived around the daughters' first open. Every file of the parent lies wholly on one side
 * of the split row, so HBase links each into one daughter and neither holds a reference when
 * hbase:meta marks the parent split, before the daughters open. A region observer holds both
 * daughters' opens meanwhile.
 *
 * <p>(1) HBase's CatalogJanitor scans then: it finds no reference and queues the parent's
 * archiving ({@code GCRegionProcedure}), which waits for the split procedure's region lock, that
 * is until the daughters opened and wrote their references to the parent's files; it archives
 * the parent under them, and the daughters are reopened. (2) The parent is archived before the
 * daughters first open (what the janitor does when the split procedure ended without opening
 * them: an operator bypassed it, or HBase gave up its assignment), under the FILE store-file
 * tracker. Either way the daughters serve what a default-engine twin serves, rewrite their
 * references and split again.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmDaughterOfArchivedParent {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmDaughterOfArchivedParent.class);

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1, conf -> {
    // archived files live on only while a delegate keeps them: the daughters' references to
    // the archived parent's files must be what keeps those
    conf.setLong(TimeToLiveHFileCleaner.TTL_CONF_KEY, 1);
    conf.setStrings(HFileCleaner.MASTER_HFILE_CLEANER_PLUGINS,
      TimeToLiveHFileCleaner.class.getName(), LinkReferenceCleaner.class.getName());
  });
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static final int SPLIT_ROW = 200;

  /**
   * Holds the open of every region of {@link #table} that starts or ends at {@link #splitRow}
   * (the daughters) until {@link #release}; the region's stores are not initialized yet
   * ({@code HRegion} runs {@code preOpen} first).
   */
  public static final class HoldDaughterOpen implements RegionCoprocessor, RegionObserver {
    static volatile TableName table;
    static volatile byte[] splitRow;
    static volatile CountDownLatch reached;
    static volatile CountDownLatch release;

    @Override
    public Optional<RegionObserver> getRegionObserver() {
      return Optional.of(this);
    }

    @Override
    public void preOpen(ObserverContext<RegionCoprocessorEnvironment> c) throws IOException {
      RegionInfo ri = c.getEnvironment().getRegionInfo();
      byte[] at = splitRow;
      if (
        at == null || !ri.getTable().equals(table)
          || !(Bytes.equals(ri.getStartKey(), at) || Bytes.equals(ri.getEndKey(), at))
      ) {
        return;
      }
      reached.countDown();
      try {
        RlsmTestCluster.awaitLatch(release);
      } catch (InterruptedException e) {
        throw (IOException) new InterruptedIOException("held open interrupted").initCause(e);
      }
    }
  }

  @BeforeClass
  public static void janitorByTheTestOnly() {
    // the test runs the janitor's scan itself; its chore must not run one meanwhile
    util.getHBaseCluster().getMaster().getCatalogJanitor().setEnabled(false);
  }

  @Test
  public void janitorArchivesParentAfterFirstOpen() throws Exception {
    daughtersOfArchivedParent("janitor_after_open", "DEFAULT", true);
  }

  /** The archived parent's files are those its {@code .filelist} names (archived with it). */
  @Test
  public void parentArchivedBeforeFirstOpen() throws Exception {
    daughtersOfArchivedParent("archived_before_open", "FILE", false);
  }

  private static void daughtersOfArchivedParent(String name, String tracker, boolean janitor)
    throws Exception {
    RlsmTwinTables tw = RlsmTwinTables.create(util, name, null,
      tb -> withHold(tb.setRegionSplitPolicyClassName(null)
        .setValue(StoreFileTrackerFactory.TRACKER_IMPL, tracker)),
      b -> b.setMaxVersions(3), F);
    Admin admin = util.getAdmin();
    assertNull(admin.getDescriptor(tw.rlsm).getRegionSplitPolicyClassName());
    // two partitions, each with a segment of its own on one side of the split row
    TwinSplits.write(tw, 0, 100, "a");
    TwinSplits.flush(tw);
    TwinSplits.majorCompact(tw);
    TwinSplits.write(tw, 300, 400, "b");
    TwinSplits.flush(tw);
    TwinSplits.majorCompact(tw);
    assertEquals(2, RlsmStoreProbe.partitionLows(TwinSplits.regions(util, tw.rlsm).get(0)
      .getStore(F)).size());
    TwinSplits.assertSame(tw, true);

    RegionInfo parent = admin.getRegions(tw.rlsm).get(0);
    // the daughters keep their references until the test has seen them (a daughter compacts
    // them at once otherwise, racing the janitor)
    admin.compactionSwitch(false, Collections.emptyList());
    HoldDaughterOpen.table = tw.rlsm;
    HoldDaughterOpen.reached = new CountDownLatch(2);
    HoldDaughterOpen.release = new CountDownLatch(1);
    HoldDaughterOpen.splitRow = row(SPLIT_ROW);
    Future<Void> split;
    try {
      split = admin.splitRegionAsync(parent.getRegionName(), row(SPLIT_ROW));
      // both daughters are opening: hbase:meta marks the parent split, its files are linked
      RlsmTestCluster.awaitLatch(HoldDaughterOpen.reached);
      assertNoReferences(tw.rlsm, parent);
      if (janitor) {
        CatalogJanitor j = util.getHBaseCluster().getMaster().getCatalogJanitor();
        assertTrue("the janitor queues the parent's archiving", j.scan() > 0);
      } else {
        HFileArchiver.archiveRegion(util.getConfiguration(), util.getTestFileSystem(), parent);
        assertArchived(tw.rlsm, parent);
      }
    } finally {
      HoldDaughterOpen.splitRow = null;
      HoldDaughterOpen.release.countDown();
    }
    split.get(RlsmTestCluster.HANG_GUARD_MINUTES, TimeUnit.MINUTES);
    TwinSplits.waitForRegions(util, tw.rlsm, 2);
    assertArchived(tw.rlsm, parent);
    // HBase's cleaner runs past the archive's time to live; the daughters' stores then open
    // again, on the archived parent's files it kept
    util.getHBaseCluster().getMaster().getHFileCleaner().triggerCleanerNow()
      .get(RlsmTestCluster.HANG_GUARD_MINUTES, TimeUnit.MINUTES);
    assertReferredFilesArchived(tw.rlsm, parent);
    admin.disableTable(tw.rlsm);
    admin.enableTable(tw.rlsm);
    TwinSplits.waitForRegions(util, tw.rlsm, 2);
    FileSystem fs = util.getTestFileSystem();
    for (HRegion r : TwinSplits.regions(util, tw.rlsm)) {
      Path store = r.getRegionFileSystem().getStoreDir(Bytes.toString(F));
      assertTrue(r + " refers to the parent's files by their link names",
        Arrays.stream(fs.listStatus(store)).map(st -> st.getPath().getName())
          .anyMatch(n -> StoreFileInfo.isReference(n)
            && HFileLink.isHFileLink(n.substring(0, n.lastIndexOf('.')))));
    }
    admin.compactionSwitch(true, Collections.emptyList());
    TwinSplits.assertSame(tw, true);

    // the references are rewritten, and each daughter splits again
    TwinSplits.rewriteReferences(tw);
    TwinSplits.assertSame(tw, true);
    admin.splitRegionAsync(admin.getRegions(tw.rlsm).stream()
      .filter(r -> r.getEndKey().length > 0).findFirst().get().getRegionName(), row(50))
      .get(RlsmTestCluster.HANG_GUARD_MINUTES, TimeUnit.MINUTES);
    admin.splitRegionAsync(admin.getRegions(tw.rlsm).stream()
      .filter(r -> r.getEndKey().length == 0).findFirst().get().getRegionName(), row(350))
      .get(RlsmTestCluster.HANG_GUARD_MINUTES, TimeUnit.MINUTES);
    TwinSplits.waitForRegions(util, tw.rlsm, 4);
    TwinSplits.assertSame(tw, true);
  }

  private static TableDescriptorBuilder withHold(TableDescriptorBuilder tb) {
    try {
      return tb.setCoprocessor(HoldDaughterOpen.class.getName());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Checks that neither daughter of {@code parent} holds a reference (HBase linked its files). */
  private static void assertNoReferences(TableName tn, RegionInfo parent) throws Exception {
    FileSystem fs = util.getTestFileSystem();
    int daughters = 0;
    for (FileStatus region : fs.listStatus(tableDir(tn))) {
      Path store = new Path(region.getPath(), Bytes.toString(F));
      if (region.getPath().getName().equals(parent.getEncodedName()) || !fs.exists(store)) {
        continue;
      }
      daughters++;
      for (FileStatus f : fs.listStatus(store)) {
        assertFalse(f.getPath() + " is a reference", StoreFileInfo.isReference(f.getPath()));
      }
    }
    assertEquals(2, daughters);
  }

  /** Waits until {@code parent} is archived; its archive keeps the store directory. */
  private static void assertArchived(TableName tn, RegionInfo parent) throws Exception {
    FileSystem fs = util.getTestFileSystem();
    Path parentDir = new Path(tableDir(tn), parent.getEncodedName());
    util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> !fs.exists(parentDir));
    Path archived = HFileArchiveUtil.getStoreArchivePath(util.getConfiguration(), tn,
      parent.getEncodedName(), Bytes.toString(F));
    assertTrue(archived + " holds the parent's files", fs.listStatus(archived).length > 0);
  }

  /** Every file of {@code parent} a daughter refers to by its link name is in the archive. */
  private static void assertReferredFilesArchived(TableName tn, RegionInfo parent)
    throws Exception {
    FileSystem fs = util.getTestFileSystem();
    Path archived = HFileArchiveUtil.getStoreArchivePath(util.getConfiguration(), tn,
      parent.getEncodedName(), Bytes.toString(F));
    int referred = 0;
    for (HRegion r : TwinSplits.regions(util, tn)) {
      Path store = r.getRegionFileSystem().getStoreDir(Bytes.toString(F));
      for (FileStatus st : fs.listStatus(store)) {
        String name = st.getPath().getName();
        String link = name.substring(0, Math.max(0, name.lastIndexOf('.')));
        if (StoreFileInfo.isReference(name) && HFileLink.isHFileLink(link)) {
          referred++;
          Path file = new Path(archived, HFileLink.getReferencedHFileName(link));
          assertTrue(file + " is kept: " + name + " refers to it", fs.exists(file));
        }
      }
    }
    assertTrue("the daughters refer to archived files", referred > 0);
  }

  private static Path tableDir(TableName tn) throws IOException {
    return CommonFSUtils.getTableDir(CommonFSUtils.getRootDir(util.getConfiguration()), tn);
  }
}
