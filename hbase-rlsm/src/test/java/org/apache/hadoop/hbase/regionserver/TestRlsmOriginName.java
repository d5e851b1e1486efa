package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertEquals;

import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.io.HFileLink;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The origins by which a Level-1 manifest finds its segments in a store of HFileLinks (snapshot
 * clone or restore) and references (split), for the names HBase itself makes.
 */
@Category({ RegionServerTests.class, SmallTests.class })
public class TestRlsmOriginName {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmOriginName.class);

  private static final String FILE = "0123456789abcdef0123456789abcdef";
  private static final String REGION = "fedcba9876543210fedcba9876543210";
  private static final String PARENT = "00112233445566778899aabbccddeeff";
  private static final String HERE = "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f";

  private static void assertOrigin(String region, String name, String fileName) {
    RlsmFiles.Origin o = RlsmFiles.origin(fileName, HERE);
    assertEquals(fileName, region + "/" + name, o.toString());
  }

  @Test
  public void plainFileIsItsOwnOrigin() {
    assertOrigin(HERE, FILE, FILE);
  }

  @Test
  public void linkResolvesToTheLinkedFile() {
    assertOrigin(REGION, FILE,
      HFileLink.createHFileLinkName(TableName.valueOf("t"), REGION, FILE));
    assertOrigin(REGION, FILE,
      HFileLink.createHFileLinkName(TableName.valueOf("ns:t"), REGION, FILE));
  }

  @Test
  public void referenceResolvesToTheReferredFile() {
    assertOrigin(PARENT, FILE, FILE + "." + PARENT);
  }

  @Test
  public void referenceToLinkResolvesThroughBoth() {
    String link = HFileLink.createHFileLinkName(TableName.valueOf("t"), REGION, FILE);
    assertOrigin(REGION, FILE, link + "." + PARENT);
  }
}
