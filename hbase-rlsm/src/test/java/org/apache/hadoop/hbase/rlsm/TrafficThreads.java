package org.apache.hadoop.hbase.rlsm;

import static org.junit.Assert.assertFalse;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * A writer thread and a reader thread that a test runs against a cluster while it moves, aborts
 * or alters things, and waits on by progress (steps counted by {@link StepCounter}), never by
 * time. The first failure of either thread stops both and is rethrown by the next wait.
 */
public final class TrafficThreads {
  /** One thread's work: loops until {@code stopped} says so, counting each step. */
  public interface Loop {
    void run(BooleanSupplier stopped, StepCounter steps) throws Exception;
  }

  private final StepCounter written = new StepCounter();
  private final StepCounter compared = new StepCounter();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private volatile boolean stop;
  private final Thread writer;
  private final Thread reader;

  public TrafficThreads(String name, Loop writerLoop, Loop readerLoop) {
    writer = new Thread(() -> run(writerLoop, written), name + "-writer");
    reader = new Thread(() -> run(readerLoop, compared), name + "-reader");
  }

  private void run(Loop loop, StepCounter steps) {
    try {
      loop.run(() -> stop, steps);
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
      // Let the main thread's waits end: it checks the failure after each.
      stop = true;
      written.release();
      compared.release();
    }
  }

  public void start() {
    writer.start();
    reader.start();
  }

  /** Writer steps completed so far. */
  public int written() {
    return written.done();
  }

  /**
   * Waits until the writer made {@code writes} more steps and the reader {@code reads} more from
   * now, then fails if either thread failed.
   */
  public void await(int writes, int reads) throws InterruptedException {
    CountDownLatch w = written.after(writes);
    CountDownLatch r = compared.after(reads);
    RlsmTestCluster.awaitLatch(w);
    RlsmTestCluster.awaitLatch(r);
    checkFailure();
  }

  /** Fails if the writer or the reader failed. */
  public void checkFailure() {
    Throwable t = failure.get();
    if (t != null) {
      throw new AssertionError("traffic failed", t);
    }
  }

  public void stopAndCheck() throws InterruptedException {
    stop = true;
    writer.join(RlsmTestCluster.HANG_GUARD_MS);
    reader.join(RlsmTestCluster.HANG_GUARD_MS);
    assertFalse("traffic threads hung", writer.isAlive() || reader.isAlive());
    checkFailure();
  }
}
