package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hbase.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a compaction's segments on threads of its own while the scan goes on. The scan emits
 * rows in key order and a compaction's partitions are in key order, so once the scan has passed a
 * partition its segment receives nothing more and can be finished (file-info, index and Bloom
 * blocks, trailer, and the file system's close: on HDFS the NameNode's completion of the file,
 * which waits {@code dfs.client.block.write.locateFollowingBlock.initial.delay.ms}, 400 ms, when
 * the DataNode has not yet reported the last block). Closed one after the other at the end, a
 * range-append that reaches hundreds of partitions would wait that long for each
 * ({@link RlsmCompactionConfig#FINISH_THREADS_KEY}).
 *
 * <p>Memory: at most {@code 2 × threads} segments wait here (the scan blocks in {@link #submit}
 * beyond that), each holding one block and its index state, so the bound does not depend on the
 * partitions a compaction reaches. With no threads, {@link #submit} finishes the segment on the
 * caller's thread.
 *
 * <p>Failure: {@link #await} throws the first failure; {@link #discard} then waits for every
 * close under way (a close is never interrupted: HBase's writer is not safe to interrupt), deletes
 * every file that closed and aborts every one that did not, so a failed compaction leaves no
 * segment behind. Used by one compaction thread; the pool's threads each own one writer at a
 * time.
 */
@InterfaceAudience.Private
final class SegmentFinisher {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentFinisher.class);

  /** A segment handed over, with its close. */
  private static final class Pending {
    final RlsmV2Writer writer;
    final Future<Long> length;

    Pending(RlsmV2Writer writer, Future<Long> length) {
      this.writer = writer;
      this.length = length;
    }
  }

  private final ExecutorService pool;
  private final Semaphore slots;
  private final long maxSeqId;
  private final boolean major;
  private final List<Pending> pending = new ArrayList<>();

  /**
   * @param threads  closing threads; 0 closes on the caller's thread
   * @param maxSeqId the sequence id every segment records
   * @param name     names the threads (the store)
   */
  SegmentFinisher(int threads, long maxSeqId, boolean major, String name) {
    this.maxSeqId = maxSeqId;
    this.major = major;
    this.pool = threads <= 0 ? null
      : Executors.newFixedThreadPool(threads, new ThreadFactoryBuilder().setDaemon(true)
        .setNameFormat("rlsm-finish-" + name + "-%d").build());
    this.slots = new Semaphore(Math.max(1, 2 * threads));
  }

  /**
   * Hands over a segment that receives no more cells; blocks while {@code 2 × threads} are still
   * closing. The writer's last cells are copied first: the scanner may release their blocks.
   */
  void submit(RlsmV2Writer w) throws IOException {
    w.beforeShipped();
    if (pool == null) {
      pending.add(
        new Pending(w, CompletableFuture.completedFuture(w.finish(maxSeqId, major, List.of()))));
      return;
    }
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      throw new InterruptedIOException("interrupted handing over segment " + w.getPath());
    }
    boolean submitted = false;
    try {
      pending.add(new Pending(w, pool.submit(() -> {
        try {
          return w.finish(maxSeqId, major, List.of());
        } finally {
          slots.release();
        }
      })));
      submitted = true;
    } finally {
      if (!submitted) {
        slots.release();
      }
    }
  }

  /**
   * Waits for every close; returns each segment's length by path, in the order handed over.
   * @throws IOException the first close that failed (then call {@link #discard})
   */
  Map<Path, Long> await() throws IOException {
    Map<Path, Long> lengths = new LinkedHashMap<>();
    for (Pending p : pending) {
      lengths.put(p.writer.getPath(), get(p));
    }
    return lengths;
  }

  private static long get(Pending p) throws IOException {
    try {
      return p.length.get();
    } catch (InterruptedException e) {
      throw new InterruptedIOException("interrupted closing segment " + p.writer.getPath());
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      throw new IOException("closing segment " + p.writer.getPath() + " failed", cause);
    }
  }

  /**
   * After a failure: waits for the closes under way, deletes the files that closed and aborts
   * the rest (never started, or failed), so that nothing handed over stays on disk.
   */
  void discard() {
    shutdown();
    for (Pending p : pending) {
      try {
        p.length.get();
        p.writer.delete();
      } catch (Exception closeFailed) {
        try {
          p.writer.abort();
        } catch (IOException e) {
          LOG.warn("could not remove unfinished segment {}", p.writer.getPath(), e);
        }
      }
    }
    pending.clear();
  }

  /** Stops the threads once every close handed over has run. */
  void shutdown() {
    if (pool != null) {
      pool.shutdown();
    }
  }
}
