package io.weir.streams.internals.testing;

import io.weir.streams.internals.processor.RecordCollector;
import io.weir.streams.internals.processor.TopicLimits;
import org.apache.kafka.common.header.Headers;

import java.util.List;

/**
 * A collector that keeps what it is sent in a list, for tests outside a runtime: one partition per topic,
 * no size or timestamp limit, a clock at 0.
 */
final class SentRecords implements RecordCollector {

    private final List<RecordingContext.Sent> sent;

    SentRecords(List<RecordingContext.Sent> sent) {
        this.sent = sent;
    }

    @Override
    public void send(String topic, Integer partition, byte[] key, byte[] value, Headers headers, long timestamp) {
        sent.add(new RecordingContext.Sent(topic, partition, key, value, headers, timestamp));
    }

    @Override
    public int partitionsFor(String topic) {
        return 1;
    }

    @Override
    public TopicLimits limits(String topic) {
        return TopicLimits.ofSize(Long.MAX_VALUE);
    }

    @Override
    public long now() {
        return 0;
    }
}
