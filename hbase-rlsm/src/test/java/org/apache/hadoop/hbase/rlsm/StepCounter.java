package org.apache.hadoop.hbase.rlsm;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Counts the steps of a test's background thread and releases the latch of the checkpoint the
 * count reached, so that the main thread waits for progress instead of for time. One checkpoint
 * at a time (the main thread's).
 */
public final class StepCounter {
  private final AtomicInteger count = new AtomicInteger();
  private final AtomicReference<Checkpoint> checkpoint = new AtomicReference<>();

  private static final class Checkpoint {
    final int target;
    final CountDownLatch reached = new CountDownLatch(1);

    Checkpoint(int target) {
      this.target = target;
    }
  }

  public void step() {
    int c = count.incrementAndGet();
    Checkpoint cp = checkpoint.get();
    if (cp != null && c >= cp.target) {
      cp.reached.countDown();
    }
  }

  public int done() {
    return count.get();
  }

  /** Releases the pending checkpoint: a failed thread makes no more steps. */
  public void release() {
    Checkpoint cp = checkpoint.get();
    if (cp != null) {
      cp.reached.countDown();
    }
  }

  /** A latch released once {@code steps} more steps than now have been made. */
  public CountDownLatch after(int steps) {
    Checkpoint cp = new Checkpoint(count.get() + steps);
    checkpoint.set(cp);
    if (count.get() >= cp.target) {
      cp.reached.countDown();
    }
    return cp.reached;
  }
}
