package io.weir.examples;

import io.weir.streams.Topology;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A runnable example as {@link ExampleRunner} needs it.
 *
 * @param name        the command name, also the application id's suffix
 * @param summary     one line for the usage text
 * @param topology    builds the application (only for the command that runs it), opening in the given
 *                    resources what runs beside it (a local service), closed after the application
 * @param inputs      the topics the generator writes (the status line's input rate is read at them)
 * @param topics      every topic it reads or writes, with topic configs (e.g. compaction); created when missing
 * @param generator   its synthetic input
 * @param printer     for each output topic that is shown while running, how to show one record (one line)
 */
record Example(
        String name,
        String summary,
        Function<ExampleResources, Topology> topology,
        List<String> inputs,
        Map<String, Map<String, String>> topics,
        InputGenerator.Factory generator,
        Map<String, Function<ConsumerRecord<byte[], byte[]>, String>> printer) {

    /** The topics the runner prints. */
    List<String> printedTopics() {
        return List.copyOf(printer.keySet());
    }
}
