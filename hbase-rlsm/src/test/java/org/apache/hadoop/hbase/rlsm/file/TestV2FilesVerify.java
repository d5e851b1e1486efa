package org.apache.hadoop.hbase.rlsm.file;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseCommonTestingUtility;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.rlsm.RlsmTestRows;
import org.apache.hadoop.hbase.rlsm.format.RlsmCorruptionException;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * {@code V2Files.verify} (bin/rlsm-verify, and region open with
 * {@code hbase.rlsm.open.verify.data}) finds a file whose recorded keys are not its cells' keys:
 * the damage a writer leaves when the cells it still refers to at close were overwritten (their
 * buffer reused) after they were appended. The data blocks of such a file are intact.
 */
@Category({ SmallTests.class, RegionServerTests.class })
public class TestV2FilesVerify {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestV2FilesVerify.class);

  private static final HBaseCommonTestingUtility UTIL = new HBaseCommonTestingUtility();
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int CELLS = 2000;

  /**
   * Writes {@link #CELLS} cells in small blocks; with {@code reuse}, every cell is built in one
   * buffer, whose row is overwritten before the writer closes.
   */
  private static Path write(Configuration conf, String name, boolean reuse) throws IOException {
    FileSystem fs = FileSystem.getLocal(conf);
    Path p = new Path(UTIL.getDataTestDir(), name);
    byte[] buffer = null;
    HFile.Writer w = HFile.getWriterFactory(conf, CacheConfig.DISABLED).withPath(fs, p)
      .withFileContext(new HFileContextBuilder().withBlockSize(4096).build()).create();
    for (int i = 0; i < CELLS; i++) {
      KeyValue kv = new KeyValue(RlsmTestRows.row(i), F, Q, 1L, new byte[64]);
      if (reuse) {
        if (buffer == null) {
          buffer = new byte[kv.getLength()];
        }
        System.arraycopy(kv.getBuffer(), kv.getOffset(), buffer, 0, kv.getLength());
        kv = new KeyValue(buffer, 0, kv.getLength());
      }
      w.append(kv);
    }
    if (reuse) {
      // the row bytes only: a key of the right shape, as a reused buffer may happen to hold
      KeyValue last = new KeyValue(buffer, 0, buffer.length);
      Arrays.fill(buffer, last.getRowOffset(), last.getRowOffset() + last.getRowLength(),
        (byte) 0x5a);
    }
    w.close();
    return p;
  }

  @Test
  public void aWholeFileVerifies() throws IOException {
    Configuration conf = UTIL.getConfiguration();
    Path p = write(conf, "whole", false);
    assertEquals(CELLS, V2Files.verify(FileSystem.getLocal(conf), p, conf));
  }

  /**
   * A flush of one family delete: its one cell, with a sequence id, is the first key of the
   * block index, whose keys have none (and the index compares sequence ids: a newer cell sorts
   * first).
   */
  @Test
  public void aFileOfOneDeleteMarkerWithASequenceIdVerifies() throws IOException {
    Configuration conf = UTIL.getConfiguration();
    FileSystem fs = FileSystem.getLocal(conf);
    Path p = new Path(UTIL.getDataTestDir(), "flushed");
    try (HFile.Writer w = HFile.getWriterFactory(conf, CacheConfig.DISABLED).withPath(fs, p)
      .withFileContext(new HFileContextBuilder().withIncludesMvcc(true).build()).create()) {
      KeyValue marker =
        new KeyValue(RlsmTestRows.row(5), F, null, 5L, KeyValue.Type.DeleteFamily);
      marker.setSequenceId(1111);
      w.append(marker);
    }
    assertEquals(1, V2Files.verify(fs, p, conf));
  }

  @Test
  public void keysFromAnOverwrittenBufferAreFound() throws IOException {
    Configuration conf = UTIL.getConfiguration();
    Path p = write(conf, "overwritten", true);
    RlsmCorruptionException e = assertThrows(RlsmCorruptionException.class,
      () -> V2Files.verify(FileSystem.getLocal(conf), p, conf));
    assertTrue(e.getMessage(), e.getMessage().contains(p.getName()));
    assertTrue(e.getMessage(), e.getMessage().contains("key"));
  }
}
