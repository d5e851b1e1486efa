package org.apache.hadoop.hbase.rlsm.format;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileFixture;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Flips every byte of a small file, one at a time, and demands that the damage is reported as an
 * {@link RlsmCorruptionException} naming the file and an offset, either when the file opens or
 * when the damaged row is read, and that no read ever returns data that differs from what was
 * written.
 */
@Category({ MediumTests.class, IOTests.class })
public class TestCorruptionDetection {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestCorruptionDetection.class);

  private static byte[] readAll(RlsmFileFixture fx, Path p) throws IOException {
    byte[] b = new byte[(int) fx.fs.getFileStatus(p).getLen()];
    try (FSDataInputStream in = fx.fs.open(p)) {
      in.readFully(0, b);
    }
    return b;
  }

  private static void writeAll(RlsmFileFixture fx, Path p, byte[] b) throws IOException {
    try (FSDataOutputStream out = fx.fs.create(p, true)) {
      out.write(b);
    }
  }

  /** Opens and reads every row; returns the corruption error, or null when all reads matched. */
  private static RlsmCorruptionException readEverything(RlsmFileFixture fx, Path p,
    TreeMap<byte[], List<Cell>> rows) throws IOException {
    try (RlsmFileReader r = RlsmFileReader.open(fx.fs, p)) {
      for (byte[] row : rows.keySet()) {
        Cell[] got = r.readRow(row, 0, row.length);
        if (got == null) {
          fail("row vanished without an error: " + Bytes.toStringBinary(row));
        }
        List<Cell> want = rows.get(row);
        assertEquals(want.size(), got.length);
        for (int i = 0; i < got.length; i++) {
          assertTrue("wrong data returned for " + Bytes.toStringBinary(row),
            RlsmFileFixture.sameCell(want.get(i), got[i]));
        }
      }
      r.verifyData();
      return null;
    } catch (RlsmCorruptionException e) {
      return e;
    }
  }

  @Test
  public void everyFlippedByteIsATypedErrorNamingFileAndOffset() throws Exception {
    RlsmFileFixture fx = new RlsmFileFixture("corrupt");
    TreeMap<byte[], List<Cell>> rows = RlsmFileFixture.randomRows(new Random(3), 12);
    Path clean = fx.write("clean", rows, FileRole.FLUSH, 0.01, 42);
    byte[] good = readAll(fx, clean);
    Trailer t;
    try (RlsmFileReader r = RlsmFileReader.open(fx.fs, clean)) {
      t = r.trailer();
    }
    Path bad = new Path(fx.dir, "bad");
    int[] detectedPerSection = new int[5];
    for (int pos = 0; pos < good.length; pos++) {
      byte[] b = good.clone();
      b[pos] ^= (byte) (1 << (pos % 8));
      writeAll(fx, bad, b);
      RlsmCorruptionException e = readEverything(fx, bad, rows);
      if (e == null) {
        fail("flipping byte " + pos + " of " + good.length + " went unnoticed");
      }
      assertTrue(e.getMessage(), e.getMessage().contains(bad.toString()));
      assertTrue(e.getOffset() >= 0 && e.getOffset() < good.length);
      Section[] sections = { t.data(), t.index(), t.bloom(), t.meta() };
      int s = 4;
      for (int i = 0; i < sections.length; i++) {
        if (pos >= sections[i].offset() && pos < sections[i].end()) {
          s = i;
        }
      }
      detectedPerSection[s]++;
    }
    // Every section was exercised (the bloom section exists in Level-0 files).
    for (int i = 0; i < detectedPerSection.length; i++) {
      assertTrue("section " + i + " never damaged", detectedPerSection[i] > 0);
    }
  }

  @Test
  public void truncatedFilesAreTypedErrors() throws Exception {
    RlsmFileFixture fx = new RlsmFileFixture("truncated");
    TreeMap<byte[], List<Cell>> rows = RlsmFileFixture.randomRows(new Random(4), 20);
    byte[] good = readAll(fx, fx.write("clean", rows, FileRole.FLUSH, 0.01, 1));
    Path bad = new Path(fx.dir, "bad");
    for (int len : new int[] { good.length - 1, good.length - Trailer.ENCODED_LENGTH,
      good.length / 2, 10 }) {
      writeAll(fx, bad, java.util.Arrays.copyOf(good, len));
      try (RlsmFileReader r = RlsmFileReader.open(fx.fs, bad)) {
        fail("truncated to " + len + " but opened: " + r.trailer());
      } catch (RlsmCorruptionException e) {
        assertTrue(e.getMessage().contains(bad.toString()));
      }
    }
  }

  @Test
  public void unknownVersionIsRefusedByName() throws Exception {
    RlsmFileFixture fx = new RlsmFileFixture("version");
    TreeMap<byte[], List<Cell>> rows = RlsmFileFixture.randomRows(new Random(5), 3);
    byte[] b = readAll(fx, fx.write("clean", rows, FileRole.FLUSH, 0.01, 1));
    int versionAt = b.length - Trailer.MAGIC.length - 4 - 2;
    b[versionAt + 1] = 9;
    Path bad = new Path(fx.dir, "v9");
    writeAll(fx, bad, b);
    try (RlsmFileReader r = RlsmFileReader.open(fx.fs, bad)) {
      fail("opened a version 9 file");
    } catch (RlsmCorruptionException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("unsupported format version 9"));
    }
  }
}
