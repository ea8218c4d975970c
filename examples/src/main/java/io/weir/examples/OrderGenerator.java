package io.weir.examples;

import io.weir.streams.serde.JsonSerde;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Orders for the orders-per-minute example: four regions; 1% arrive 10 s to 3 minutes after they were placed. */
final class OrderGenerator implements InputGenerator {

    private static final List<String> REGIONS = List.of("EU", "US", "APAC", "LATAM");

    private final Random random;
    private final String idPrefix;
    private final Serializer<Order> serializer = JsonSerde.of(Order.class).serializer();
    private long sequence;

    OrderGenerator(long seed) {
        this.random = new Random(seed);
        this.idPrefix = Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
    }

    @Override
    public List<ProducerRecord<byte[], byte[]>> next(long now, int due) {
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>(due);
        for (int i = 0; i < due; i++) {
            long placedAt =
                    random.nextDouble() < 0.01 ? now - 10_000 - random.nextInt(170_000) : now - random.nextInt(1_000);
            String id = idPrefix + "-" + sequence++;
            Order order =
                    new Order(id, REGIONS.get(random.nextInt(REGIONS.size())), 500 + random.nextInt(50_000), placedAt);
            out.add(InputGenerator.record(OrdersPerMinute.ORDERS, id, placedAt, order, serializer));
        }
        return out;
    }
}
