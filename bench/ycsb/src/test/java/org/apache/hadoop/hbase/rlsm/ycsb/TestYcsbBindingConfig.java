package org.apache.hadoop.hbase.rlsm.ycsb;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Properties;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.testclassification.ClientTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.rules.TemporaryFolder;
import site.ycsb.DBException;

/** The binding's properties: defaults, parsing, and a clear error for every bad value. */
@Category({ SmallTests.class, ClientTests.class })
public class TestYcsbBindingConfig {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestYcsbBindingConfig.class);

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private static Properties props(String... kv) {
    Properties p = new Properties();
    p.setProperty(YcsbBindingConfig.COLUMN_FAMILY_KEY, "family");
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  private static void assertRejected(Properties p, String message) {
    try {
      YcsbBindingConfig.parse(p);
      fail("expected a DBException containing '" + message + "'");
    } catch (DBException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(message));
    }
  }

  @Test
  public void defaults() throws Exception {
    YcsbBindingConfig c = YcsbBindingConfig.parse(props());
    assertEquals("usertable", c.table());
    assertEquals("family", c.family());
    assertFalse(c.clientBuffering());
    assertEquals(12L * 1024 * 1024, c.writeBufferSize());
    assertEquals(Durability.USE_DEFAULT, c.durability());
    assertTrue(c.usePageFilter());
    assertFalse(c.debug());
  }

  @Test
  public void values() throws Exception {
    YcsbBindingConfig c = YcsbBindingConfig.parse(props("table", "t2", "clientbuffering", "TRUE",
      "writebuffersize", "4096", "durability", "SKIP_WAL", "hbase.usepagefilter", "false",
      "debug", "true", "hbase.zookeeper.quorum", "zk1,zk2",
      "hbase.zookeeper.property.clientPort", "2999"));
    assertEquals("t2", c.table());
    assertTrue(c.clientBuffering());
    assertEquals(4096, c.writeBufferSize());
    assertEquals(Durability.SKIP_WAL, c.durability());
    assertFalse(c.usePageFilter());
    assertTrue(c.debug());
    assertEquals("zk1,zk2", c.hbaseConfiguration().get("hbase.zookeeper.quorum"));
    assertEquals(2999, c.hbaseConfiguration().getInt("hbase.zookeeper.property.clientPort", 0));
  }

  @Test
  public void badValuesNameTheProperty() {
    Properties noFamily = props();
    noFamily.remove(YcsbBindingConfig.COLUMN_FAMILY_KEY);
    assertRejected(noFamily, "-p columnfamily=NAME");
    assertRejected(props("columnfamily", ""), "-p columnfamily=NAME");
    assertRejected(props("clientbuffering", "yes"), "clientbuffering must be true or false");
    assertRejected(props("hbase.usepagefilter", "1"), "hbase.usepagefilter must be true or false");
    assertRejected(props("debug", "on"), "debug must be true or false");
    assertRejected(props("writebuffersize", "0"), "writebuffersize must be a positive");
    assertRejected(props("writebuffersize", "12MB"), "got '12MB'");
    assertRejected(props("durability", "sync"), "durability must be one of [USE_DEFAULT");
    assertRejected(props("hbase.conf.dir", tmp.getRoot().getPath()),
      "has no readable hbase-site.xml");
  }

  @Test
  public void confDirHbaseSiteIsReadAndZooKeeperPropertiesWin() throws Exception {
    File dir = tmp.newFolder("conf");
    Files.write(new File(dir, "hbase-site.xml").toPath(), ("<configuration>"
      + "<property><name>hbase.zookeeper.quorum</name><value>siteHost</value></property>"
      + "<property><name>hbase.zookeeper.property.clientPort</name><value>2888</value></property>"
      + "</configuration>").getBytes(StandardCharsets.UTF_8));
    YcsbBindingConfig c = YcsbBindingConfig.parse(props("hbase.conf.dir", dir.getPath()));
    assertEquals("siteHost", c.hbaseConfiguration().get("hbase.zookeeper.quorum"));
    assertEquals(2888, c.hbaseConfiguration().getInt("hbase.zookeeper.property.clientPort", 0));
    c = YcsbBindingConfig.parse(props("hbase.conf.dir", dir.getPath(),
      "hbase.zookeeper.property.clientPort", "2777"));
    assertEquals("siteHost", c.hbaseConfiguration().get("hbase.zookeeper.quorum"));
    assertEquals(2777, c.hbaseConfiguration().getInt("hbase.zookeeper.property.clientPort", 0));
  }
}
