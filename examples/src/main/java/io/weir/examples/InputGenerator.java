package io.weir.examples;

import org.apache.kafka.clients.producer.ProducerRecord;

import java.util.List;

/**
 * Synthetic input of a runnable example. {@link ExampleRunner} calls it from one thread, about every 100 ms,
 * with the wall-clock time and the number of records due since the last call.
 */
interface InputGenerator {

    /** The records to write now: {@code due} of them, give or take what the example adds (repeats, profiles). */
    List<ProducerRecord<byte[], byte[]>> next(long now, int due);
}
