package org.apache.hadoop.hbase.io.hfile;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.hbase.nio.ByteBuff;
import org.apache.hadoop.io.Writable;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * HFile meta blocks holding raw bytes, for RLSM's row quantiles (docs/format/rlsm-file.md, "Row
 * quantiles"): written by HBase's writer with the file's compression and encryption, read
 * through the BlockCache as HBase reads its own meta blocks, so that an open file pins only the
 * meta block index entry. In HBase's package because a block's file offset, which RLSM's
 * corruption errors name, is package-private.
 */
@InterfaceAudience.Private
public final class RlsmMetaBlocks {
  /** A meta block's content and the file offset of its header. */
  public static final class Block {
    private final long offset;
    private final byte[] content;

    private Block(long offset, byte[] content) {
      this.offset = offset;
      this.content = content;
    }

    public long offset() {
      return offset;
    }

    public byte[] content() {
      return content;
    }
  }

  private RlsmMetaBlocks() {
  }

  /** {@code content} as the body of a meta block ({@link HFile.Writer#appendMetaBlock}). */
  public static Writable of(byte[] content) {
    return new Writable() {
      @Override
      public void write(DataOutput out) throws IOException {
        out.write(content);
      }

      @Override
      public void readFields(DataInput in) {
        throw new UnsupportedOperationException("write-only");
      }
    };
  }

  /**
   * The meta block {@code name} of {@code reader}, copied out (the cached block is released), or
   * null when the file has none. {@code cacheBlock}: add it to the BlockCache on a miss (as the
   * family's cache settings allow).
   */
  public static Block read(HFile.Reader reader, String name, boolean cacheBlock)
    throws IOException {
    HFileBlock b = reader.getMetaBlock(name, cacheBlock);
    if (b == null) {
      return null;
    }
    try {
      ByteBuff buf = b.getBufferWithoutHeader();
      byte[] content = new byte[buf.remaining()];
      buf.get(content);
      return new Block(b.getOffset(), content);
    } finally {
      b.release();
    }
  }
}
