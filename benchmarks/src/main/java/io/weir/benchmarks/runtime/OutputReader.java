package io.weir.benchmarks.runtime;

import io.weir.benchmarks.OutputTally;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/** Reads an app's whole output topic, as a {@code read_committed} consumer sees it now, into a tally of its counts. */
final class OutputReader {

    private static final Duration TIMEOUT = Duration.ofMinutes(30);

    private OutputReader() {}

    static OutputTally read(String bootstrap, String topic, AppKind kind) throws TimeoutException {
        OutputTally tally = OutputTally.decoding();
        ReadCommitted.toEnd(bootstrap, topic, Map.of(), TIMEOUT, records -> {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                AppKind.WindowCount c = kind.decode(topic, r.key(), r.value());
                tally.result(c.key(), c.windowStart(), c.count());
            }
        });
        return tally;
    }
}
