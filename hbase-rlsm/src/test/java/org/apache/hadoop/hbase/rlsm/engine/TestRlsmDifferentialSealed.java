package org.apache.hadoop.hbase.rlsm.engine;

import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.security.access.PermissionStorage;
import org.apache.hadoop.hbase.security.visibility.VisibilityClient;
import org.apache.hadoop.hbase.security.visibility.VisibilityConstants;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The differential run ({@link DifferentialRun}) with GZ compression, AES encryption and cell tags
 * (visibility expressions and cell ACLs) on both tables: the settings a store must honour rather
 * than ignore, compared by user reads under several {@code Authorizations} and by raw scans.
 * Shorter by default than the plain run (a secured cluster and encrypted files cost more per
 * operation); {@code -Drlsm.diff.ops} lengthens it.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmDifferentialSealed {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmDifferentialSealed.class);

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1, conf -> {
    TestRlsmFamilySettings.enableEncryption(conf);
    TestRlsmTags.enableTagSecurity(conf);
  });

  @Test
  public void compressedEncryptedTaggedLogMatchesDefaultEngine() throws Throwable {
    CLUSTER.util().waitTableEnabled(PermissionStorage.ACL_TABLE_NAME);
    CLUSTER.util().waitTableEnabled(VisibilityConstants.LABELS_TABLE_NAME);
    Connection c = CLUSTER.util().getConnection();
    VisibilityClient.addLabels(c,
      new String[] { DifferentialRun.SECRET, DifferentialRun.PUBLIC });
    VisibilityClient.setAuths(c, new String[] { DifferentialRun.SECRET, DifferentialRun.PUBLIC },
      User.getCurrent().getShortName());
    new DifferentialRun(CLUSTER.util(), "sealed",
      cf -> cf.setCompressionType(Compression.Algorithm.GZ).setEncryptionType("AES"), true)
        .run(20261124L, 6_000);
  }
}
