package io.weir.benchmarks.nexmark;

import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.utils.Utils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The events appended after a Nexmark input so that every window of it closes. A Kafka topic has no end,
 * so an engine closes a window only when later events move event time past it (Weir's watermark, Kafka
 * Streams' stream time), and both track time per partition: every partition of every topic, and of every
 * repartition by a person, an auction or a bidder, must see a later event. So for each partition this
 * appends, {@link #AFTER} after the input's last event, a person, an auction sold by that person and a
 * bid by that person on that auction, with ids that fall into that partition under Kafka's default
 * partitioner. They are ordinary events (the references see them too) that match no query's filter by
 * design (category {@value #CATEGORY}, no state, price 0); their own windows stay open.
 */
public final class ClosingEvents {

    /** How long after the input's last event the closing events happen. */
    public static final Duration AFTER = Duration.ofHours(1);

    /** The category of closing auctions: none the queries look for. */
    public static final long CATEGORY = -1;

    /** Where the ids of closing events start, far above any generated id. */
    private static final long FIRST_ID = 1L << 60;

    private ClosingEvents() {}

    /**
     * The closing events of an input whose last event happened at {@code lastEventTime}, for topics of
     * {@code partitions} partitions, in the order to append them.
     */
    public static List<Event> after(long lastEventTime, int partitions) {
        long time = lastEventTime + AFTER.toMillis();
        List<Event> events = new ArrayList<>(3 * partitions);
        long id = FIRST_ID;
        try (LongSerializer longs = new LongSerializer()) {
            for (int partition = 0; partition < partitions; partition++) {
                while (partitionOf(longs, id, partitions) != partition) {
                    id++;
                }
                events.add(new Person(id, "closing", "closing@nexmark", "", "", "", time, ""));
                events.add(new Auction(id, "closing", "", 0, 0, time, time + 1, id, CATEGORY, ""));
                events.add(new Bid(id, id, 0, "closing", "", time, ""));
                id++;
            }
        }
        return events;
    }

    private static int partitionOf(LongSerializer longs, long key, int partitions) {
        return Utils.toPositive(Utils.murmur2(longs.serialize("", key))) % partitions;
    }
}
