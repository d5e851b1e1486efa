package org.apache.hadoop.hbase.rlsm.format;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The meta section: an ordered map from ASCII key to byte value (spec: "Meta section"). Holds
 * the variable-length facts of a file (family, first/last row, files it replaces); unknown keys
 * are kept and ignored, so later versions can add keys without a format version bump.
 *
 * <p>Encoding: u32 count, then per entry u16 key length, key, u32 value length, value.
 */
public final class FileMeta {
  public static final String FAMILY = "family";
  public static final String FIRST_ROW = "first.row";
  public static final String LAST_ROW = "last.row";
  /** Names of store files this file replaces (HBase's COMPACTION_EVENT role). */
  public static final String COMPACTED_FILES = "compacted.files";
  public static final String CREATED_MS = "created.ms";
  public static final String DELETE_FAMILY_COUNT = "delete.family.count";
  /** Manifest only: i64 generation, increasing with every manifest of a store. */
  public static final String MANIFEST_GENERATION = "manifest.generation";
  /** Manifest only: the Level-1 partitions, see {@link PartitionDescriptor#encodeList}. */
  public static final String MANIFEST_PARTITIONS = "manifest.partitions";

  private final Map<String, byte[]> entries;

  public FileMeta(Map<String, byte[]> entries) {
    this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
  }

  public byte[] get(String key) {
    return entries.get(key);
  }

  public Map<String, byte[]> asMap() {
    return entries;
  }

  public long getLong(String key, long dflt) {
    byte[] v = entries.get(key);
    if (v == null || v.length != 8) {
      return dflt;
    }
    long r = 0;
    for (byte b : v) {
      r = (r << 8) | (b & 0xff);
    }
    return r;
  }

  public static byte[] longBytes(long v) {
    return new ByteWriter(8).i64(v).toByteArray();
  }

  /** Encodes a list of strings: u32 count, then u16 length and UTF-8 bytes each. */
  public static byte[] stringList(List<String> values) {
    ByteWriter w = new ByteWriter(64);
    w.i32(values.size());
    for (String s : values) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      w.u16(b.length).bytes(b);
    }
    return w.toByteArray();
  }

  public List<String> getStringList(String file, String key) throws RlsmCorruptionException {
    byte[] v = entries.get(key);
    List<String> out = new ArrayList<>();
    if (v == null) {
      return out;
    }
    ByteReader r = new ByteReader(file, -1, v, 0, v.length);
    int n = r.i32();
    if (n < 0 || n > v.length) {
      throw r.corrupt("bad list length " + n + " in meta key " + key);
    }
    for (int i = 0; i < n; i++) {
      int len = r.u16();
      out.add(new String(r.bytes(len), StandardCharsets.UTF_8));
    }
    return out;
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter(256);
    w.i32(entries.size());
    for (Map.Entry<String, byte[]> e : entries.entrySet()) {
      byte[] k = e.getKey().getBytes(StandardCharsets.US_ASCII);
      w.u16(k.length).bytes(k);
      w.i32(e.getValue().length).bytes(e.getValue());
    }
    return w.toByteArray();
  }

  /** Decodes a meta section whose checksum the caller has already verified. */
  public static FileMeta decode(ByteReader r) throws RlsmCorruptionException {
    int n = r.i32();
    if (n < 0 || n > r.remaining()) {
      throw r.corrupt("bad meta entry count " + n);
    }
    Map<String, byte[]> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String k = new String(r.bytes(r.u16()), StandardCharsets.US_ASCII);
      int vlen = r.i32();
      m.put(k, r.bytes(vlen));
    }
    if (r.remaining() != 0) {
      throw r.corrupt(r.remaining() + " trailing bytes after meta entries");
    }
    return new FileMeta(m);
  }
}
