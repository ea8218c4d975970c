package io.weir.examples;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;

import java.util.Arrays;
import java.util.Locale;

/**
 * Word count, the first program of every stream processor, as a table: lines of text in, and for each
 * word the number of times it was seen, as a table whose changes go to {@value #COUNTS_TOPIC} (the
 * last count per word at each commit; a compacted topic keeps the latest per word).
 *
 * <ul>
 *   <li>Input: {@value #LINES}, lines of text (the key is ignored).</li>
 *   <li>Each line is split into lower-case words; records are re-keyed by word (a repartition) and
 *       counted without windows: a word's count never ends.</li>
 * </ul>
 */
public final class WordCount {

    public static final String LINES = "lines";
    public static final String COUNTS_TOPIC = "word-counts";
    /** The count's store; also the node its metrics are reported under. */
    public static final String COUNTS = "counts-per-word";

    private WordCount() {}

    public static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(LINES, Consumed.with(Serdes.String(), Serdes.String()))
                .flatMap((key, line) -> Arrays.stream(
                                line.toLowerCase(Locale.ROOT).split("\\W+"))
                        .filter(word -> !word.isEmpty())
                        .map(word -> KeyValue.pair(word, word))
                        .toList())
                .groupByKey(Grouped.with(Serdes.String(), Serdes.String()).withName("words"))
                .count(Materialized.as(COUNTS))
                .toStream()
                .to(COUNTS_TOPIC, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }
}
