package io.weir.benchmarks;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes a pre-load through one producer so that it either lands every record or fails: it remembers
 * the first send the broker refused, stops sending once one was, and {@link #flush} throws it. The
 * producer stays the caller's to close.
 */
public final class FailFastSender<K, V> {

    private final Producer<K, V> producer;
    private final String what;
    private final AtomicReference<@Nullable Exception> failure = new AtomicReference<>();

    /** @param what what is being written, for the failure's message: "Pre-loading payments", say */
    public FailFastSender(Producer<K, V> producer, String what) {
        this.producer = producer;
        this.what = what;
    }

    /** Sends {@code record}, unless an earlier send failed; returns whether it was sent. */
    public boolean send(ProducerRecord<K, V> record) {
        if (failure.get() != null) {
            return false;
        }
        // The callback handles the outcome; the future adds nothing.
        @SuppressWarnings("FutureReturnValueIgnored")
        var unused = producer.send(record, (metadata, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
            }
        });
        return true;
    }

    /**
     * Waits until every record sent so far is acknowledged or failed.
     *
     * @throws IllegalStateException naming what was written and the first failure, if a send failed
     */
    public void flush() {
        producer.flush();
        Exception first = failure.get();
        if (first != null) {
            throw new IllegalStateException(what + " failed: " + first, first);
        }
    }
}
