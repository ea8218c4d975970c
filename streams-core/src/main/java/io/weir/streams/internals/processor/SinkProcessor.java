package io.weir.streams.internals.processor;

import org.apache.kafka.common.serialization.Serializer;

/** Writes records to a topic: serialized with the sink's serdes, partitioned by key bytes. */
public final class SinkProcessor<K, V> implements Processor<K, V> {

    private final String topic;
    private final Serializer<K> keySerializer;
    private final Serializer<V> valueSerializer;
    private RecordCollector collector;

    public SinkProcessor(String topic, Serializer<K> keySerializer, Serializer<V> valueSerializer) {
        this.topic = topic;
        this.keySerializer = keySerializer;
        this.valueSerializer = valueSerializer;
    }

    @Override
    public void init(ProcessorContext context) {
        this.collector = context.collector();
    }

    @Override
    public void process(Record<K, V> record) {
        byte[] key = keySerializer.serialize(topic, record.headers(), record.key());
        byte[] value = valueSerializer.serialize(topic, record.headers(), record.value());
        collector.send(topic, null, key, value, record.headers(), record.timestamp());
    }
}
