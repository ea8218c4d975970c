package io.weir.streams.test.reference;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Makes a reproducible random input for a {@link Scenario} from a seed.
 *
 * <p>Shape: 1 to 8 keys, 1 to 4 partitions of each of two topics read together, 5 to 60 records.
 * Key {@code k<i>} always goes to partition {@code i % partitions} (so each key's records meet in one
 * task) and to either topic. Processing time never moves back; an event clock moves with it but never
 * ahead of it. Each record's event time is, by chance:
 * <ul>
 *   <li>beyond the maximum future skew, or just at it (5%, when the scenario has one);</li>
 *   <li>far behind the clock, by more than delay + allowed lateness + a window span, so that it is
 *       dropped (8%);</li>
 *   <li>out of order, behind the clock by up to {@code maxDisorder} ({@code outOfOrderShare});</li>
 *   <li>the clock's time otherwise.</li>
 * </ul>
 * Now and then processing time jumps with no record (an explicit advance, long enough for idleness
 * to matter), and now and then one topic's partition falls silent for a while, its keys writing to
 * the other topic meanwhile; a quarter of the streams keep one partition silent throughout.
 */
final class StreamGenerator {

    static final List<String> TOPICS = List.of("events-a", "events-b");
    static final long START_TIME = 10_000;

    private static final double FUTURE_SHARE = 0.05;
    private static final double TOO_LATE_SHARE = 0.08;
    private static final double PAUSE_SHARE = 0.05;
    private static final double SILENCE_SHARE = 0.05;
    private static final int MAX_STEP = 12;

    private final Scenario scenario;
    private final Random random;
    private final int partitions;
    private final int keys;
    /** Input partitions (topic index * partitions + partition) silent until the processing time mapped. */
    private final Map<Integer, Long> silentUntil = new HashMap<>();

    private long now = START_TIME;
    private long eventClock = START_TIME;

    private StreamGenerator(Scenario scenario, long seed) {
        this.scenario = scenario;
        this.random = new Random(seed);
        this.keys = 1 + random.nextInt(8);
        this.partitions = 1 + random.nextInt(4);
    }

    static GeneratedStream generate(Scenario scenario, long seed) {
        return new StreamGenerator(scenario, seed).generate();
    }

    /**
     * The stream {@link #generate} makes for {@code seed}, its event times moved up together so that the
     * last lies within two window spans below Long.MAX_VALUE (at Long.MAX_VALUE - 1, the last valid event
     * time, for every third seed): the last windows of time, which end there,
     * hold records. Processing time stays as it was; only for a scenario without a future skew, which
     * judges event times against it.
     */
    static GeneratedStream generateNearTheEndOfTime(Scenario scenario, long seed) {
        if (scenario.maxFutureSkew().isPresent()) {
            throw new IllegalArgumentException("a future skew judges event times against processing time: " + scenario);
        }
        GeneratedStream stream = generate(scenario, seed);
        long last = stream.steps().stream()
                .filter(StreamStep.Arrival.class::isInstance)
                .mapToLong(step -> ((StreamStep.Arrival) step).record().eventTime())
                .max()
                .orElse(0);
        long top = Long.MAX_VALUE
                - 1
                - new Random(seed).nextLong(2 * scenario.windows().span());
        long shift = top - last;
        return stream.withSteps(stream.steps().stream()
                .map(step -> step instanceof StreamStep.Arrival arrival
                        ? new StreamStep.Arrival(
                                arrival.record().withEventTime(arrival.record().eventTime() + shift))
                        : step)
                .toList());
    }

    private GeneratedStream generate() {
        if (random.nextInt(4) == 0) {
            silentUntil.put(random.nextInt(TOPICS.size() * partitions), Long.MAX_VALUE);
        }
        int records = 5 + random.nextInt(56);
        List<StreamStep> steps = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            if (random.nextDouble() < PAUSE_SHARE) {
                now += pause();
                steps.add(new StreamStep.AdvanceTime(now));
            }
            if (random.nextDouble() < SILENCE_SHARE) {
                silentUntil.put(random.nextInt(TOPICS.size() * partitions), now + pause());
            }
            now += random.nextInt(MAX_STEP + 1);
            eventClock = Math.min(now, eventClock + random.nextInt(MAX_STEP + 1));
            steps.add(new StreamStep.Arrival(nextRecord()));
        }
        return new GeneratedStream(TOPICS, partitions, START_TIME, steps);
    }

    private InputRecord nextRecord() {
        int key = random.nextInt(keys);
        int partition = key % partitions;
        int topic = random.nextInt(TOPICS.size());
        if (isSilent(topic, partition)) {
            topic = 1 - topic;
        }
        return new InputRecord("k" + key, 1 + random.nextInt(9), TOPICS.get(topic), partition, eventTime(), now);
    }

    private boolean isSilent(int topic, int partition) {
        return now < silentUntil.getOrDefault(topic * partitions + partition, Long.MIN_VALUE);
    }

    private long eventTime() {
        long span = scenario.windows().span();
        double roll = random.nextDouble();
        if (scenario.maxFutureSkew().isPresent() && roll < FUTURE_SHARE) {
            // A quarter of them on the boundary: now + skew is still valid, now + skew + 1 is not.
            long beyondSkew = random.nextInt(4) == 0 ? random.nextInt(2) : 1 + random.nextInt(200);
            return now + scenario.maxFutureSkew().getAsLong() + beyondSkew;
        }
        roll -= FUTURE_SHARE;
        if (roll < TOO_LATE_SHARE) {
            long behind = scenario.delay() + scenario.allowedLateness() + span + 1 + random.nextLong(2 * span);
            return Math.max(0, eventClock - behind);
        }
        roll -= TOO_LATE_SHARE;
        if (roll < scenario.outOfOrderShare()) {
            return Math.max(0, eventClock - 1 - random.nextLong(scenario.maxDisorder()));
        }
        return eventClock;
    }

    /** A stretch of processing time that usually makes a silent partition idle. */
    private long pause() {
        long unit = scenario.idleness().orElse(100);
        return unit / 2 + random.nextLong(2 * unit);
    }
}
