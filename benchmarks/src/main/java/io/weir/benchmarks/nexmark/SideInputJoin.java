package io.weir.benchmarks.nexmark;

import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import org.apache.kafka.common.serialization.Serde;

import java.util.ArrayList;
import java.util.List;

/**
 * q13, the bounded side-input join: every bid with the value of the {@link SideInput} row its auction
 * names ({@code auction mod 10,000}). The Nexmark suite reads the side input from a file and joins it as of
 * processing time; Kafka-native engines keep it in a topic and join a global table, which every instance
 * reads whole before it processes a bid. Since the side input never changes, the result does not depend on
 * when a bid is processed: every bid joins, keyed by its auction.
 */
final class SideInputJoin {

    private static final Serde<Long> LONGS = Serdes.Long();
    private static final Serde<String> STRINGS = Serdes.String();

    private SideInputJoin() {}

    static NexmarkQuery<Long, String> query() {
        return new NexmarkQuery<>(
                "q13",
                "bounded side input join: every bid with the side input's row of its auction mod 10,000",
                OutputShape.APPEND,
                LONGS,
                STRINGS,
                (builder, sources, output) -> sources.bids(builder)
                        .join(sources.sideInput(builder), (auction, bid) -> SideInput.key(bid), SideInputJoin::row)
                        .to(output, Produced.with(LONGS, STRINGS)),
                (builder, sources, output) -> sources.bids(builder)
                        .join(sources.sideInput(builder), (auction, bid) -> SideInput.key(bid), SideInputJoin::row)
                        .to(output, org.apache.kafka.streams.kstream.Produced.with(LONGS, STRINGS)),
                (events, watermark) -> {
                    List<KeyValue<Long, String>> rows = new ArrayList<>();
                    for (Event e : events) {
                        if (e instanceof Bid b) {
                            rows.add(KeyValue.pair(b.auction(), row(b, SideInput.value(SideInput.key(b)))));
                        }
                    }
                    return rows;
                });
    }

    private static String row(Bid bid, String sideValue) {
        return Rows.of(bid.bidder(), bid.price(), bid.dateTime(), sideValue);
    }
}
