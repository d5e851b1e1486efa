package org.apache.hadoop.hbase.rlsm.memstore;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Append-only log of a table's rows in creation order: the input of the sorted row index (which
 * sorts only rows appended since its last build) and the flush order. Appends are lock-free; a
 * reader that sees a slot counted but not yet written waits for the appender, which is between
 * two instructions.
 */
final class RowLog {
  private static final int CHUNK_BITS = 10;
  private static final int CHUNK = 1 << CHUNK_BITS;
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(MemRow[].class);

  private final AtomicInteger next = new AtomicInteger();
  /** Chunk directory; replaced (copied, doubled) under {@code this} when it is full. */
  private volatile AtomicReferenceArray<MemRow[]> chunks = new AtomicReferenceArray<>(16);

  void append(MemRow row) {
    int seq = next.getAndIncrement();
    SLOT.setRelease(chunk(seq >>> CHUNK_BITS), seq & (CHUNK - 1), row);
  }

  /** Rows appended or being appended; {@link #get} waits for the latter. */
  int size() {
    return next.get();
  }

  MemRow get(int seq) {
    int spins = 0;
    while (true) {
      AtomicReferenceArray<MemRow[]> dir = chunks;
      int c = seq >>> CHUNK_BITS;
      MemRow[] chunk = c < dir.length() ? dir.get(c) : null;
      if (chunk != null) {
        MemRow r = (MemRow) SLOT.getAcquire(chunk, seq & (CHUNK - 1));
        if (r != null) {
          return r;
        }
      }
      if (++spins < 100) {
        Thread.onSpinWait();
      } else {
        Thread.yield(); // the appender was descheduled between counting and writing its slot
      }
    }
  }

  private MemRow[] chunk(int c) {
    AtomicReferenceArray<MemRow[]> dir = chunks;
    MemRow[] chunk = c < dir.length() ? dir.get(c) : null;
    return chunk != null ? chunk : createChunk(c);
  }

  private synchronized MemRow[] createChunk(int c) {
    AtomicReferenceArray<MemRow[]> dir = chunks;
    if (c >= dir.length()) {
      AtomicReferenceArray<MemRow[]> bigger =
        new AtomicReferenceArray<>(Math.max(dir.length() * 2, c + 1));
      for (int i = 0; i < dir.length(); i++) {
        bigger.set(i, dir.get(i));
      }
      chunks = bigger;
      dir = bigger;
    }
    MemRow[] chunk = dir.get(c);
    if (chunk == null) {
      chunk = new MemRow[CHUNK];
      dir.set(c, chunk);
    }
    return chunk;
  }
}
