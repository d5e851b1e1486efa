package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.coprocessor.CoprocessorHost;
import org.apache.hadoop.hbase.rlsm.RlsmMasterObserver;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.security.access.AccessControlConstants;
import org.apache.hadoop.hbase.security.access.AccessController;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.PermissionStorage;
import org.apache.hadoop.hbase.security.access.SecureTestUtil;
import org.apache.hadoop.hbase.security.visibility.Authorizations;
import org.apache.hadoop.hbase.security.visibility.CellVisibility;
import org.apache.hadoop.hbase.security.visibility.VisibilityClient;
import org.apache.hadoop.hbase.security.visibility.VisibilityConstants;
import org.apache.hadoop.hbase.security.visibility.VisibilityController;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Cell tags through HBase's security features on RLSM families: cell ACLs (AccessController,
 * {@code Put.setACL}) and visibility labels (VisibilityController, {@code setCellVisibility},
 * {@code Authorizations}). Both keep their data in cell tags, so a store that drops or garbles tags
 * shows cells to the wrong users. Each user's reads of an RLSM table must equal the same user's
 * reads of a default-engine twin, with the cells in the memstore, after a flush and after a major
 * compaction. Security is set up as in HBase's own TestCellACLs and TestVisibilityLabelsWithACL.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmTags {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmTags.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final int ROWS = 300;
  private static final String SECRET = "secret";
  private static final String PUBLIC = "public";
  private static final String[] EXPRESSIONS =
    { SECRET, PUBLIC, SECRET + "|" + PUBLIC, SECRET + "&" + PUBLIC, "!" + SECRET };

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER =
    new RlsmMiniClusterRule(1, TestRlsmTags::enableTagSecurity);
  private static final HBaseTestingUtility util = CLUSTER.util();
  private static User alice;
  private static User bob;

  /**
   * AccessController and VisibilityController everywhere, HFile v3, cell ACL semantics, and
   * RlsmMasterObserver on the master.
   */
  static void enableTagSecurity(Configuration conf) {
    try {
      SecureTestUtil.enableSecurity(conf);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    String both = AccessController.class.getName() + "," + VisibilityController.class.getName();
    // The master also completes RLSM descriptors, as docs/install.md tells operators to.
    conf.set(CoprocessorHost.MASTER_COPROCESSOR_CONF_KEY,
      both + "," + RlsmMasterObserver.class.getName());
    conf.set(CoprocessorHost.REGION_COPROCESSOR_CONF_KEY, both);
    // Cell grants decide even for users without a table or family grant.
    conf.setBoolean(AccessControlConstants.CF_ATTRIBUTE_EARLY_OUT, false);
  }

  @BeforeClass
  public static void setUpUsersAndLabels() throws Throwable {
    util.waitTableEnabled(PermissionStorage.ACL_TABLE_NAME);
    util.waitTableEnabled(VisibilityConstants.LABELS_TABLE_NAME);
    Configuration conf = util.getConfiguration();
    alice = User.createUserForTesting(conf, "alice", new String[0]);
    bob = User.createUserForTesting(conf, "bob", new String[0]);
    Connection c = util.getConnection();
    VisibilityClient.addLabels(c, new String[] { SECRET, PUBLIC });
    VisibilityClient.setAuths(c, new String[] { SECRET, PUBLIC },
      User.getCurrent().getShortName());
    VisibilityClient.setAuths(c, new String[] { SECRET, PUBLIC }, alice.getShortName());
    VisibilityClient.setAuths(c, new String[] { PUBLIC }, bob.getShortName());
  }

  /** Reads {@code scan} from {@code tn} as {@code user}, through a connection of that user. */
  private static List<String> readAs(User user, TableName tn, Scan scan) throws Exception {
    return user.runAs((PrivilegedExceptionAction<List<String>>) () -> {
      try (Connection c = ConnectionFactory.createConnection(util.getConfiguration());
        Table t = c.getTable(tn)) {
        return RlsmTwinTables.cells(t, scan);
      }
    });
  }

  /** The same reads by every user give the same cells from both tables; returns them. */
  private static List<List<String>> assertSameViews(RlsmTwinTables twins, String stage,
    Scan... scans) throws Exception {
    List<List<String>> views = new ArrayList<>();
    for (User u : new User[] { User.getCurrent(), alice, bob }) {
      for (Scan s : scans) {
        List<String> want = readAs(u, twins.dflt, s);
        RlsmTwinTables.assertSameCells(stage + ", " + u.getShortName() + ", " + s,
          want, readAs(u, twins.rlsm, s));
        views.add(want);
      }
    }
    return views;
  }

  /** Runs the three stages: cells in the memstore, flushed, major compacted. */
  private static void checkStages(RlsmTwinTables twins, Scan... scans) throws Exception {
    assertSameViews(twins, "memstore", scans);
    for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
      util.getAdmin().flush(tn);
    }
    assertSameViews(twins, "flushed", scans);
    twins.flushAndMajorCompact();
    List<List<String>> views = assertSameViews(twins, "major compacted", scans);
    // The features were in force: the users do not all see the same.
    assertFalse("every user and scan saw the same cells", views.stream().distinct().count() == 1);
  }

  @Test
  public void cellAclsRoundTrip() throws Exception {
    RlsmTwinTables twins = RlsmTwinTables.create(util, "acl", cf -> cf.setMaxVersions(3), F);
    for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
      try (Table t = util.getConnection().getTable(tn)) {
        for (int i = 0; i < ROWS; i++) {
          Put p = new Put(row(i)).addColumn(F, Bytes.toBytes("open"), 100L, Bytes.toBytes(i));
          t.put(p); // no ACL: only users with a table grant read it (none here but superuser)
          Put granted =
            new Put(row(i)).addColumn(F, Bytes.toBytes("acl"), 100L, Bytes.toBytes("v1-" + i));
          granted.setACL((i % 3 == 0 ? alice : bob).getShortName(),
            new Permission(Permission.Action.READ));
          t.put(granted);
          if (i % 5 == 0) {
            // A newer version readable by both users.
            Put both =
              new Put(row(i)).addColumn(F, Bytes.toBytes("acl"), 200L, Bytes.toBytes("v2-" + i));
            both.setACL(alice.getShortName(), new Permission(Permission.Action.READ));
            both.setACL(bob.getShortName(), new Permission(Permission.Action.READ));
            t.put(both);
          }
        }
      }
    }
    checkStages(twins, new Scan(), new Scan().readAllVersions(),
      new Scan().withStartRow(row(42)).setLimit(7));
    List<String> aliceSees = readAs(alice, twins.rlsm, new Scan().readAllVersions());
    assertTrue("alice reads cells granted to her: " + aliceSees.size(), aliceSees.size() > 0);
  }

  @Test
  public void visibilityLabelsRoundTrip() throws Exception {
    RlsmTwinTables twins = RlsmTwinTables.create(util, "labels", cf -> cf, F);
    for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
      try (Table t = util.getConnection().getTable(tn)) {
        for (int i = 0; i < ROWS; i++) {
          Put p = new Put(row(i));
          for (int e = 0; e < EXPRESSIONS.length; e++) {
            p.addColumn(F, Bytes.toBytes("e" + e), 100L, Bytes.toBytes(EXPRESSIONS[e] + i));
          }
          p.addColumn(F, Bytes.toBytes("plain"), 100L, Bytes.toBytes(i));
          // One expression per row for the whole Put: rows cycle through them.
          p.setCellVisibility(new CellVisibility(EXPRESSIONS[i % EXPRESSIONS.length]));
          t.put(p);
        }
      }
    }
    // Grant the users read on the tables: the labels alone decide what they see.
    for (TableName tn : new TableName[] { twins.rlsm, twins.dflt }) {
      for (User u : new User[] { alice, bob }) {
        SecureTestUtil.grantOnTable(util, u.getShortName(), tn, null, null,
          Permission.Action.READ);
      }
    }
    checkStages(twins, new Scan(), new Scan().setAuthorizations(new Authorizations(PUBLIC)),
      new Scan().setAuthorizations(new Authorizations(SECRET)),
      new Scan().setAuthorizations(new Authorizations(SECRET, PUBLIC)).withStartRow(row(100))
        .setLimit(20));
  }
}
