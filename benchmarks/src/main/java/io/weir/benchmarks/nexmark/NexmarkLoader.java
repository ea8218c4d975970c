package io.weir.benchmarks.nexmark;

import io.weir.benchmarks.FailFastSender;
import io.weir.streams.test.kafka.TopicLeaders;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Writes a Nexmark stream to Kafka before a benchmark runs: persons, auctions and bids each to a topic
 * of their own, which the caller created. A record's key is its entity's id as Kafka's
 * {@link LongSerializer} writes it (8 bytes, big-endian): the person's id, the auction's id, and for a
 * bid the id of its auction, so that a bid lands in the partition of its auction when the two topics
 * have as many partitions. Its value is the event in {@link NexmarkSerdes}' format, and its timestamp
 * the event's time. The records of each partition are in the stream's order. After the events, the
 * {@link SideInput}'s rows go to its topic, keyed by row, as strings, at the first event's time.
 */
public final class NexmarkLoader {

    /** How many events of each kind a load wrote. */
    public record Loaded(long persons, long auctions, long bids) {

        public long total() {
            return persons + auctions + bids;
        }
    }

    private static final Logger log = LoggerFactory.getLogger(NexmarkLoader.class);

    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private NexmarkLoader() {}

    /**
     * Waits until every partition of the four topics has a leader that serves it, then writes every
     * event of {@code events}, and returns once the broker acknowledged them all (acks=all, through an
     * idempotent producer, so that a retried batch is neither doubled nor reordered).
     *
     * @throws IllegalStateException if a topic does not exist, a partition gets no leader within 30 s, or
     *     a record cannot be written; the message says which, and nothing after the failure is sent
     */
    public static Loaded load(String bootstrapServers, NexmarkTopics topics, Iterator<? extends Event> events) {
        return write(bootstrapServers, topics, events, true);
    }

    /**
     * Like {@link #load}, but writes the events only, not the side input: for events that follow a load,
     * such as the {@link ClosingEvents} of a run that appends them once the input is consumed.
     */
    public static Loaded append(String bootstrapServers, NexmarkTopics topics, Iterator<? extends Event> events) {
        return write(bootstrapServers, topics, events, false);
    }

    private static Loaded write(
            String bootstrapServers, NexmarkTopics topics, Iterator<? extends Event> events, boolean sideInput) {
        awaitLeaders(bootstrapServers, topics);
        Serializer<Person> persons = NexmarkSerdes.person().serializer();
        Serializer<Auction> auctions = NexmarkSerdes.auction().serializer();
        Serializer<Bid> bids = NexmarkSerdes.bid().serializer();
        long personCount = 0;
        long auctionCount = 0;
        long bidCount = 0;
        long firstTime = -1;
        long started = System.nanoTime();
        log.info("Loading Nexmark events into {} on {}", topics.all(), bootstrapServers);
        try (KafkaProducer<Long, byte[]> producer = new KafkaProducer<>(
                producerConfig(bootstrapServers), new LongSerializer(), new ByteArraySerializer())) {
            FailFastSender<Long, byte[]> sender =
                    new FailFastSender<>(producer, "Loading Nexmark events into " + topics.all());
            while (events.hasNext()) {
                Event event = events.next();
                if (firstTime < 0) {
                    firstTime = event.dateTime();
                }
                ProducerRecord<Long, byte[]> record;
                if (event instanceof Person person) {
                    record = record(topics.persons(), person.id(), person, persons.serialize(topics.persons(), person));
                    personCount++;
                } else if (event instanceof Auction auction) {
                    record = record(
                            topics.auctions(), auction.id(), auction, auctions.serialize(topics.auctions(), auction));
                    auctionCount++;
                } else {
                    Bid bid = (Bid) event;
                    record = record(topics.bids(), bid.auction(), bid, bids.serialize(topics.bids(), bid));
                    bidCount++;
                }
                if (!sender.send(record)) {
                    break;
                }
            }
            for (long row = 0; sideInput && row < SideInput.ROWS && firstTime >= 0; row++) {
                byte[] value = SideInput.value(row).getBytes(StandardCharsets.UTF_8);
                if (!sender.send(new ProducerRecord<>(topics.sideInput(), null, firstTime, row, value))) {
                    break;
                }
            }
            sender.flush();
        }
        Loaded loaded = new Loaded(personCount, auctionCount, bidCount);
        long millis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        log.info(
                "Loaded {} persons, {} auctions and {} bids in {} ms ({} events/s)",
                personCount,
                auctionCount,
                bidCount,
                millis,
                loaded.total() * 1000 / millis);
        return loaded;
    }

    private static ProducerRecord<Long, byte[]> record(String topic, long key, Event event, byte[] value) {
        return new ProducerRecord<>(topic, null, event.dateTime(), key, value);
    }

    private static Map<String, Object> producerConfig(String bootstrapServers) {
        return Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.CLIENT_ID_CONFIG,
                "nexmark-loader",
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                // Large batches, given time to fill: a pre-load is timed by its throughput, not its latency.
                // No compression: the padding is random letters, which compress poorly for the CPU spent.
                ProducerConfig.LINGER_MS_CONFIG,
                20,
                ProducerConfig.BATCH_SIZE_CONFIG,
                256 * 1024);
    }

    /**
     * Describes the four topics, then waits for each partition's leader: a topic created just before,
     * by whatever means, may not be writable yet.
     */
    private static void awaitLeaders(String bootstrapServers, NexmarkTopics topics) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            for (String topic : topics.all()) {
                TopicDescription description;
                try {
                    // The only entry of the map: the call fails rather than leave a topic out.
                    description = admin.describeTopics(List.of(topic))
                            .topicNameValues()
                            .values()
                            .iterator()
                            .next()
                            .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                        throw new IllegalStateException("The Nexmark topic '" + topic + "' does not exist on "
                                + bootstrapServers + ": create the topics " + topics.all() + " first");
                    }
                    throw e;
                }
                TopicLeaders.await(admin, topic, description.partitions().size(), ADMIN_TIMEOUT);
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "The Nexmark topics " + topics.all() + " on " + bootstrapServers + " are not ready to write: "
                            + (e.getCause() != null ? e.getCause() : e),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the Nexmark topics " + topics.all(), e);
        }
    }
}
