package io.weir.streams.dsl;

/**
 * Chooses, per record, the topic a sink writes it to ({@link EventStream#to(TopicNameExtractor,
 * Produced)}). The topics must exist: Weir does not create them, and cannot check them at start since
 * it learns them from the data. An extractor that throws is user code ({@code ProcessingError}).
 */
@FunctionalInterface
public interface TopicNameExtractor<K, V> {

    /**
     * The topic for this record.
     *
     * @param key the record's key
     * @param value the record's value
     * @return the name of the topic to write the record to
     */
    String extract(K key, V value);
}
