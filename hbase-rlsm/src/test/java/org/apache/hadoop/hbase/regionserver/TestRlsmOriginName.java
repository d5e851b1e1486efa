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
 * The origin names by which a Level-1 manifest finds its segments in a store of HFileLinks
 * (snapshot clone or restore) and references (split), with the names HBase itself makes.
 */
@Category({ RegionServerTests.class, SmallTests.class })
public class TestRlsmOriginName {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmOriginName.class);

  private static final String FILE = "0123456789abcdef0123456789abcdef";
  private static final String REGION = "fedcba9876543210fedcba9876543210";
  private static final String PARENT = "00112233445566778899aabbccddeeff";

  @Test
  public void plainFileIsItsOwnOrigin() {
    assertEquals(FILE, RlsmFiles.originName(FILE));
  }

  @Test
  public void linkResolvesToTheLinkedFile() {
    assertEquals(FILE, RlsmFiles.originName(
      HFileLink.createHFileLinkName(TableName.valueOf("t"), REGION, FILE)));
    assertEquals(FILE, RlsmFiles.originName(
      HFileLink.createHFileLinkName(TableName.valueOf("ns:t"), REGION, FILE)));
  }

  @Test
  public void referenceResolvesToTheReferredFile() {
    assertEquals(FILE, RlsmFiles.originName(FILE + "." + PARENT));
  }

  @Test
  public void referenceToLinkResolvesThroughBoth() {
    String link = HFileLink.createHFileLinkName(TableName.valueOf("t"), REGION, FILE);
    assertEquals(FILE, RlsmFiles.originName(link + "." + PARENT));
  }
}
