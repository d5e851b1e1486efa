package org.apache.hadoop.hbase.rlsm.format;

/** Where one section lies in a file and the CRC32C of its bytes. Immutable. */
public final class Section {
  public static final int ENCODED_LENGTH = 8 + 8 + 4;

  private final long offset;
  private final long length;
  private final int crc;

  public Section(long offset, long length, int crc) {
    this.offset = offset;
    this.length = length;
    this.crc = crc;
  }

  public long offset() {
    return offset;
  }

  public long length() {
    return length;
  }

  public long end() {
    return offset + length;
  }

  public int crc() {
    return crc;
  }

  void write(ByteWriter w) {
    w.i64(offset).i64(length).i32(crc);
  }

  static Section read(ByteReader r) throws RlsmCorruptionException {
    return new Section(r.i64(), r.i64(), r.i32());
  }

  @Override
  public String toString() {
    return String.format("[%d+%d crc=0x%08x]", offset, length, crc);
  }
}
