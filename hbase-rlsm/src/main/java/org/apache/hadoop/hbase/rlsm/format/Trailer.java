package org.apache.hadoop.hbase.rlsm.format;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The fixed-size end of every RLSM file (spec: docs/format/rlsm-file.md, "Trailer"). It locates
 * the four sections with their checksums and carries the scalars HBase needs without reading
 * anything else: role and level, max sequence id, max memstore timestamp, time range and counts.
 *
 * <p>Layout (big-endian): data, index, bloom and meta {@link Section}s; u8 level; u8 role; i64
 * maxSequenceId, maxMemstoreTs, minTimestamp, maxTimestamp, rowCount, cellCount; u16 version;
 * u32 CRC32C of every preceding trailer byte; 8 bytes magic {@code "RLSMFILE"}.
 */
public final class Trailer {
  public static final byte[] MAGIC = "RLSMFILE".getBytes(StandardCharsets.US_ASCII);
  public static final int VERSION = 1;
  /** Bytes covered by the trailer checksum. */
  static final int CHECKED_LENGTH = 4 * Section.ENCODED_LENGTH + 1 + 1 + 6 * 8 + 2;
  public static final int ENCODED_LENGTH = CHECKED_LENGTH + 4 + MAGIC.length;

  private final Section data;
  private final Section index;
  private final Section bloom;
  private final Section meta;
  private final FileRole role;
  private final long maxSequenceId;
  private final long maxMemstoreTs;
  private final long minTimestamp;
  private final long maxTimestamp;
  private final long rowCount;
  private final long cellCount;

  public Trailer(Section data, Section index, Section bloom, Section meta, FileRole role,
    long maxSequenceId, long maxMemstoreTs, long minTimestamp, long maxTimestamp, long rowCount,
    long cellCount) {
    this.data = data;
    this.index = index;
    this.bloom = bloom;
    this.meta = meta;
    this.role = role;
    this.maxSequenceId = maxSequenceId;
    this.maxMemstoreTs = maxMemstoreTs;
    this.minTimestamp = minTimestamp;
    this.maxTimestamp = maxTimestamp;
    this.rowCount = rowCount;
    this.cellCount = cellCount;
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter(ENCODED_LENGTH);
    data.write(w);
    index.write(w);
    bloom.write(w);
    meta.write(w);
    w.u8(role.level()).u8(role.code());
    w.i64(maxSequenceId).i64(maxMemstoreTs).i64(minTimestamp).i64(maxTimestamp);
    w.i64(rowCount).i64(cellCount);
    w.u16(VERSION);
    w.i32(Checksums.crc32c(w.array(), 0, w.length()));
    w.bytes(MAGIC);
    return w.toByteArray();
  }

  /** True when {@code tail} (the last bytes of a file) ends with the RLSM magic. */
  public static boolean endsWithMagic(byte[] tail, int off, int len) {
    return len >= MAGIC.length
      && Arrays.equals(tail, off + len - MAGIC.length, off + len, MAGIC, 0, MAGIC.length);
  }

  /**
   * Decodes and validates a trailer: magic, version, checksum, known role, and that the sections
   * tile the file exactly (data at 0, then index, bloom, meta, then the trailer).
   * @param b          the last {@link #ENCODED_LENGTH} bytes of the file
   * @param fileLength length of the whole file
   */
  public static Trailer decode(String file, byte[] b, long fileLength)
    throws RlsmCorruptionException {
    long base = fileLength - ENCODED_LENGTH;
    if (b.length != ENCODED_LENGTH || base < 0) {
      throw new RlsmCorruptionException(file, Math.max(0, base),
        "file of " + fileLength + " bytes is too short for an RLSM trailer");
    }
    if (!endsWithMagic(b, 0, b.length)) {
      throw new RlsmCorruptionException(file, fileLength - MAGIC.length, "bad trailer magic");
    }
    ByteReader r = new ByteReader(file, base, b, 0, b.length);
    r.skip(CHECKED_LENGTH - 2);
    int version = r.u16();
    int storedCrc = r.i32();
    if (version != VERSION) {
      throw new RlsmCorruptionException(file, base + CHECKED_LENGTH - 2,
        "unsupported format version " + version + " (this reader knows " + VERSION + ")");
    }
    Checksums.verify(file, base, b, 0, CHECKED_LENGTH, storedCrc, "trailer");
    r = new ByteReader(file, base, b, 0, CHECKED_LENGTH);
    Section data = Section.read(r);
    Section index = Section.read(r);
    Section bloom = Section.read(r);
    Section meta = Section.read(r);
    int level = r.u8();
    FileRole role = FileRole.fromCode(r.u8());
    if (role == null || role.level() != level) {
      throw new RlsmCorruptionException(file, base + 4 * Section.ENCODED_LENGTH,
        "unknown role/level " + level);
    }
    Trailer t = new Trailer(data, index, bloom, meta, role, r.i64(), r.i64(), r.i64(), r.i64(),
      r.i64(), r.i64());
    t.checkTiling(file, base);
    return t;
  }

  private void checkTiling(String file, long trailerOffset) throws RlsmCorruptionException {
    Section[] order = { data, index, bloom, meta };
    long expect = 0;
    for (Section s : order) {
      if (s.offset() != expect || s.length() < 0 || s.end() > trailerOffset) {
        throw new RlsmCorruptionException(file, trailerOffset,
          "section " + s + " does not follow at offset " + expect);
      }
      expect = s.end();
    }
    if (expect != trailerOffset) {
      throw new RlsmCorruptionException(file, trailerOffset,
        "sections end at " + expect + ", trailer starts at " + trailerOffset);
    }
    if (rowCount < 0 || cellCount < rowCount) {
      throw new RlsmCorruptionException(file, trailerOffset,
        "impossible counts rows=" + rowCount + " cells=" + cellCount);
    }
  }

  public Section data() {
    return data;
  }

  public Section index() {
    return index;
  }

  public Section bloom() {
    return bloom;
  }

  public Section meta() {
    return meta;
  }

  public FileRole role() {
    return role;
  }

  public long maxSequenceId() {
    return maxSequenceId;
  }

  public long maxMemstoreTs() {
    return maxMemstoreTs;
  }

  public long minTimestamp() {
    return minTimestamp;
  }

  public long maxTimestamp() {
    return maxTimestamp;
  }

  public long rowCount() {
    return rowCount;
  }

  public long cellCount() {
    return cellCount;
  }

  @Override
  public String toString() {
    return "Trailer{v" + VERSION + " " + role + " data=" + data + " index=" + index + " bloom="
      + bloom + " meta=" + meta + " maxSeqId=" + maxSequenceId + " maxMemstoreTs=" + maxMemstoreTs
      + " ts=[" + minTimestamp + "," + maxTimestamp + "] rows=" + rowCount + " cells=" + cellCount
      + "}";
  }
}
