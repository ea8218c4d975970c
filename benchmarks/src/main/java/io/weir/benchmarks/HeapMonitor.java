package io.weir.benchmarks;

import com.sun.management.GarbageCollectionNotificationInfo;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Watches the heap while a run is measured, two ways:
 * <ul>
 *   <li>peak used: the heap's used bytes, sampled every 50 ms. It includes garbage not yet
 *       collected, so it says as much about the collector's sizing as about the engine;</li>
 *   <li>peak after GC: the largest heap left after any collection, which is close to the most the
 *       engine held at once (live data, plus garbage already promoted).</li>
 * </ul>
 * {@link #liveBytes()} forces full collections and reads what is left: what the engine still holds.
 */
public final class HeapMonitor implements AutoCloseable {

    private static final long SAMPLE_INTERVAL_MS = 50;

    private final AtomicLong peakUsed = new AtomicLong();
    private final AtomicLong peakAfterGc = new AtomicLong();
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .map(MemoryPoolMXBean::getName)
            .collect(Collectors.toSet());
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener afterGc = this::onGc;
    private final Thread sampler;
    private volatile boolean running = true;

    public HeapMonitor() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(afterGc, null, null);
                emitters.add(emitter);
            }
        }
        sampler = new Thread(this::sample, "heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void sample() {
        while (running) {
            peakUsed.accumulateAndGet(
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
            try {
                Thread.sleep(SAMPLE_INTERVAL_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void onGc(Notification notification, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        long used = 0;
        for (var pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        peakAfterGc.accumulateAndGet(used, Math::max);
    }

    public long peakUsedBytes() {
        return peakUsed.get();
    }

    public long peakAfterGcBytes() {
        return peakAfterGc.get();
    }

    /** The heap in use after full collections: what is still reachable. */
    public static long liveBytes() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return heap.getUsed();
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(afterGc);
            } catch (ListenerNotFoundException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
