package io.weir.benchmarks.runtime;

import io.weir.benchmarks.CountTopologies;
import io.weir.streams.serde.Serdes;
import io.weir.streams.serde.WindowedSerdes;
import io.weir.streams.time.Windowed;
import org.apache.kafka.common.serialization.Deserializer;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The processors the runtime benchmark compares, and how to read what each writes. */
enum AppKind {
    WEIR("weir", "on-time pane", true),
    KS_CLOSE("ks-close", "onWindowClose", true),
    KS_UPDATE("ks-update", "cached updates", false),
    KS_SUPPRESS("ks-suppress", "suppress", true),
    CEILING("ceiling", "every update", false);

    /** One record of an app's output: the count of {@code key} in the window starting at {@code windowStart}. */
    record WindowCount(String key, long windowStart, long count) {}

    private static final Deserializer<Windowed<String>> WEIR_KEYS =
            WindowedSerdes.string().deserializer();
    private static final Deserializer<org.apache.kafka.streams.kstream.Windowed<String>> KS_KEYS =
            org.apache.kafka.streams.kstream.WindowedSerdes.timeWindowedSerdeFrom(
                            String.class, CountTopologies.WINDOW_MS)
                    .deserializer();
    private static final Deserializer<Long> COUNTS = Serdes.Long().deserializer();

    private final String id;
    private final String emits;
    private final boolean oncePerWindow;

    AppKind(String id, String emits, boolean oncePerWindow) {
        this.id = id;
        this.emits = emits;
        this.oncePerWindow = oncePerWindow;
    }

    String id() {
        return id;
    }

    /** What its output holds, in a few words for the tables. */
    String emits() {
        return emits;
    }

    /** Whether it writes one result per window and key, when the window closes; otherwise updates. */
    boolean oncePerWindow() {
        return oncePerWindow;
    }

    boolean isKafkaStreams() {
        return this == KS_CLOSE || this == KS_UPDATE || this == KS_SUPPRESS;
    }

    /** How many changelogged stores a fresh instance restores: the count's, and Kafka Streams' suppression buffer. */
    int restoredStores() {
        return switch (this) {
            case CEILING -> 0;
            case KS_SUPPRESS -> 2;
            default -> 1;
        };
    }

    StreamingApp open(AppSetup setup) {
        return switch (this) {
            case WEIR -> new WeirApp(setup);
            case KS_CLOSE -> new KafkaStreamsApp(setup, CountTopologies.KafkaStreamsEmit.ON_WINDOW_CLOSE);
            case KS_UPDATE -> new KafkaStreamsApp(setup, CountTopologies.KafkaStreamsEmit.UPDATES);
            case KS_SUPPRESS -> new KafkaStreamsApp(setup, CountTopologies.KafkaStreamsEmit.SUPPRESS);
            case CEILING -> new CeilingLoop(setup);
        };
    }

    /** Decodes one output record: Weir and the ceiling loop write Weir's windowed keys, Kafka Streams its own. */
    WindowCount decode(String topic, byte[] key, byte[] value) {
        long count = COUNTS.deserialize(topic, value);
        if (isKafkaStreams()) {
            org.apache.kafka.streams.kstream.Windowed<String> w = KS_KEYS.deserialize(topic, key);
            return new WindowCount(w.key(), w.window().start(), count);
        }
        Windowed<String> w = WEIR_KEYS.deserialize(topic, key);
        return new WindowCount(w.key(), w.window().start(), count);
    }

    static AppKind byId(String id) {
        return Arrays.stream(values())
                .filter(k -> k.id.equals(id))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown engine '" + id + "'; the engines are "
                        + Arrays.stream(values()).map(AppKind::id).collect(Collectors.joining(", "))));
    }
}
