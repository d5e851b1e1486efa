package org.apache.hadoop.hbase.rlsm;

import static org.junit.Assert.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.testclassification.MiscTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.junit.rules.TemporaryFolder;

/**
 * {@link RlsmSnapshots#checkSnapshotReady} while a compaction retires store files: a file that
 * is gone between the family's listing and the check (archived) is not the snapshot's and does
 * not fail it. (Seen in {@code TestRlsmSnapshots}: the master's pre-snapshot check failed with a
 * FileNotFoundException on a file a range-append had just retired.) The file system removes the
 * file inside the listing, so the interleaving is fixed, not timed.
 */
@Category({ SmallTests.class, MiscTests.class })
public class TestRlsmSnapshotReady {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmSnapshotReady.class);

  private static final TableName T = TableName.valueOf("ready");
  private static final String REGION = "3813a1d868b761a29a772af9fce41d98";

  @Rule
  public final TemporaryFolder dir = new TemporaryFolder();

  /**
   * The local file system, but a listing of a directory named {@code f} deletes the first file
   * it returns before returning: the compaction that archives a file right after the listing.
   */
  public static final class RetiringFileSystem extends RawLocalFileSystem {
    static int retired;

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
      FileStatus[] listed = super.listStatus(f);
      if (f.getName().equals("f")) {
        for (FileStatus st : listed) {
          if (st.isFile() && delete(st.getPath(), false)) {
            retired++;
            break;
          }
        }
      }
      return listed;
    }
  }

  @Test
  public void fileRetiredAfterTheListingDoesNotFailTheCheck() throws IOException {
    File root = dir.newFolder("hbase");
    File family = new File(root, "data/default/" + T.getNameAsString() + "/" + REGION + "/f");
    Files.createDirectories(family.toPath());
    // two HFile-sized files that are not RLSM v1: one is retired inside the listing
    Files.write(new File(family, "a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0").toPath(), new byte[100]);
    Files.write(new File(family, "b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1").toPath(), new byte[100]);
    Configuration conf = new Configuration(false);
    conf.set("fs.file.impl", RetiringFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    conf.set(HConstants.HBASE_DIR, new Path(root.toURI()).toString());
    TableDescriptor td = TableDescriptorBuilder.newBuilder(T).setColumnFamily(
      RlsmTables.configure(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("f"))).build())
      .build();
    RetiringFileSystem.retired = 0;
    RlsmSnapshots.checkSnapshotReady(conf, td);
    assertEquals("files retired during the check", 1, RetiringFileSystem.retired);
    assertEquals("files left", 1, family.listFiles().length);
  }
}
