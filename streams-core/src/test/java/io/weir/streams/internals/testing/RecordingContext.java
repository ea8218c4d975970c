package io.weir.streams.internals.testing;

import io.weir.streams.internals.metrics.TaskMetrics;
import io.weir.streams.internals.processor.ErrorOutcome;
import io.weir.streams.internals.processor.ProcessorContext;
import io.weir.streams.internals.processor.Record;
import io.weir.streams.internals.processor.RecordCollector;
import io.weir.streams.internals.processor.SourceInfo;
import io.weir.streams.internals.state.CacheBudget;
import io.weir.streams.internals.task.TaskStores;
import io.weir.streams.internals.topology.StoreSpec;
import io.weir.streams.state.StoreType;
import org.apache.kafka.common.header.Headers;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The context of one processor under test, outside a task: real stores (RocksDB under a test's
 * directory), real metrics, and lists of what the processor forwarded and sent to topics. The test
 * moves the watermark and the clock by hand. Closes its stores.
 */
public final class RecordingContext implements ProcessorContext, AutoCloseable {

    /** A record sent to a topic through the collector. */
    public record Sent(String topic, Integer partition, byte[] key, byte[] value, Headers headers, long timestamp) {}

    private final TaskStores stores;
    private final TaskMetrics metrics = new TaskMetrics("0_0");
    private final List<Record<?, ?>> forwarded = new ArrayList<>();
    private final List<Sent> sent = new ArrayList<>();
    private long watermark = Long.MIN_VALUE;
    private long processingTime;
    private int commitRequests;
    private int inputRefusals;

    /** With one logged RocksDB store per name in {@code storeNames}, under {@code dir}. */
    public RecordingContext(Path dir, String... storeNames) {
        List<StoreSpec> specs = new ArrayList<>();
        for (String name : storeNames) {
            specs.add(new StoreSpec(name, StoreType.ROCKSDB, true, -1));
        }
        this.stores = new TaskStores(specs, dir, new CacheBudget(1024 * 1024));
    }

    @Override
    public <K, V> void forward(Record<K, V> record) {
        forwarded.add(record);
    }

    /** What the processor forwarded, oldest first; the list is live. */
    @SuppressWarnings("unchecked")
    public <K, V> List<Record<K, V>> forwarded() {
        return (List<Record<K, V>>) (List<?>) forwarded;
    }

    public List<Sent> sent() {
        return sent;
    }

    public int commitRequests() {
        return commitRequests;
    }

    public void watermark(long newWatermark) {
        watermark = newWatermark;
    }

    public void processingTime(long now) {
        processingTime = now;
    }

    @Override
    public long watermark() {
        return watermark;
    }

    @Override
    public long processingTime() {
        return processingTime;
    }

    @Override
    public boolean inputIdle() {
        return false;
    }

    @Override
    public long sourceWatermark(String sourceNode) {
        return watermark;
    }

    @Override
    public boolean sourceIdle(String sourceNode) {
        return false;
    }

    @Override
    public String applicationId() {
        return "app";
    }

    @Override
    public int partition() {
        return 0;
    }

    @Override
    public String nodeName() {
        return "node";
    }

    @Override
    public TaskMetrics metrics() {
        return metrics;
    }

    /** The metric {@code name} of this context's node (0 when never counted). */
    public long metric(String name) {
        return metrics.snapshot().getOrDefault("node/" + name, 0L);
    }

    @Override
    public TaskStores stores() {
        return stores;
    }

    @Override
    public RecordCollector collector() {
        return new SentRecords(sent);
    }

    @Override
    public ErrorOutcome errorOutcome(String skippedMetric) {
        return new ErrorOutcome(nodeName(), collector(), metrics, skippedMetric, () -> inputRefusals++);
    }

    /** How many times an error outcome skipped or dead-lettered a record deriving from an input record. */
    public int inputRefusals() {
        return inputRefusals;
    }

    @Override
    public void requestCommit() {
        commitRequests++;
    }

    /** Fails: an operator tested with this context reports no failures later than its record's processing. */
    @Override
    public void failed(RuntimeException error, @Nullable SourceInfo source) {
        throw error;
    }

    @Override
    public void close() {
        stores.close();
    }
}
