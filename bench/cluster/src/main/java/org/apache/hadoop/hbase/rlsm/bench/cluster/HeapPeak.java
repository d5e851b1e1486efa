package org.apache.hadoop.hbase.rlsm.bench.cluster;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The heap a phase of a benchmark holds, from the JVM's own accounts: the most heap in use just
 * after any garbage collection during the phase (what survived a collection: live data, plus
 * old-generation garbage a young collection did not reach, so an upper bound of the live heap),
 * and the sum of the heap pools' peak usage (garbage included, a looser upper bound). The mini
 * cluster runs in this JVM, so both include the master's, the file system's and the block
 * cache's heap, which {@link #arm} records as the baseline after a full collection.
 *
 * <p>Thread safety: the JVM's notification thread updates the peak through an atomic maximum.
 */
final class HeapPeak {
  private final Set<String> heapPools = new HashSet<>();
  private final AtomicLong peakAfterGc = new AtomicLong();
  private final NotificationListener listener = (n, handback) -> {
    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
      long used = 0;
      for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc()
        .entrySet()) {
        if (heapPools.contains(e.getKey())) {
          used += e.getValue().getUsed();
        }
      }
      peakAfterGc.accumulateAndGet(used, Math::max);
    }
  };
  private long baseline;

  HeapPeak() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        heapPools.add(pool.getName());
      }
    }
  }

  /** Collects garbage, records the heap then in use as the baseline and starts watching. */
  void arm() {
    System.gc();
    baseline = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    peakAfterGc.set(baseline);
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener(listener, null, null);
    }
  }

  /** Stops watching. */
  void disarm() throws Exception {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).removeNotificationListener(listener);
    }
  }

  long baseline() {
    return baseline;
  }

  long peakAfterGc() {
    return peakAfterGc.get();
  }

  /** The sum of the heap pools' peak usage since {@link #arm}. */
  long poolPeaks() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
