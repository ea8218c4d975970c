package io.weir.streams.test.reference;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.JoinWindows;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.StreamJoined;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestRecord;
import io.weir.streams.time.WatermarkStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Windowed stream–stream joins (inner, left, outer) against a brute-force model on random out-of-order
 * interleavings of two topics, with restarts at random points and RocksDB or in-memory buffers. The model
 * follows the rule record by record, with lists instead of stores: a record is held until the watermark
 * passes its window's end plus the allowed lateness, pairs with every held partner that matches, and an
 * outer record that leaves unmatched (or arrives with its window closed and matches nothing) has a null
 * result; an inner one that arrives so is late. Weir, with its segmented buffers, must emit exactly that
 * multiset of (result, event time), refuse exactly the late records, and never emit a pair with a record
 * after that record's null result.
 */
class StreamStreamJoinPropertyTest {

    private static final int SEEDS = 100;

    private record Input(boolean left, String key, long time, String serial) {}

    private enum Kind {
        INNER,
        LEFT,
        OUTER
    }

    @Test
    void weirEmitsExactlyThePairsNullResultsAndLateRecordsOfTheModel() {
        long pairs = 0;
        long nulls = 0;
        long late = 0;
        long closedButJoined = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            long[] counts = run(seed);
            pairs += counts[0];
            nulls += counts[1];
            late += counts[2];
            closedButJoined += counts[3];
        }
        assertTrue(
                pairs > 1_000 && nulls > 200 && late > 20 && closedButJoined > 20,
                "the streams exercised every rule: " + pairs + " pairs, " + nulls + " null results, "
                        + closedButJoined + " records that joined after their window closed, " + late
                        + " late records");
    }

    /** The last time a partner of {@code in} may have: its window's end, mirrored for the right side. */
    private static long windowEnd(Input in, long before, long after) {
        return in.time() + (in.left() ? after : before);
    }

    private static boolean outer(Input in, Kind kind) {
        return in.left() ? kind != Kind.INNER : kind == Kind.OUTER;
    }

    private static String nullResult(Input in) {
        return (in.left() ? in.serial() + "+null" : "null+" + in.serial()) + "@" + in.time();
    }

    /** Drops the held records {@code done} says are past their window, each unmatched outer one with its null result. */
    private static long expire(
            List<Input> held, Predicate<Input> done, Kind kind, Set<String> matched, List<String> expected) {
        long nulls = 0;
        for (Iterator<Input> it = held.iterator(); it.hasNext(); ) {
            Input r = it.next();
            if (done.test(r)) {
                it.remove();
                if (outer(r, kind) && !matched.contains(r.serial())) {
                    expected.add(nullResult(r));
                    nulls++;
                }
            }
        }
        return nulls;
    }

    private static long[] run(long seed) {
        Random random = new Random(seed);
        Kind kind = Kind.values()[random.nextInt(3)];
        long before = 1_000L * random.nextInt(6);
        long after = 1_000L * random.nextInt(6);
        long delay = 1_000L * random.nextInt(4);
        long lateness = random.nextBoolean() ? 0 : 1_000L * random.nextInt(5);
        boolean inMemory = random.nextBoolean();

        List<Input> inputs = new ArrayList<>();
        int n = 1 + random.nextInt(100);
        long clock = 0;
        for (int i = 0; i < n; i++) {
            clock += random.nextInt(1_000);
            boolean left = random.nextBoolean();
            long time = Math.max(0, clock - random.nextInt(6_000));
            inputs.add(new Input(left, "k" + random.nextInt(3), time, (left ? "L" : "R") + i));
        }

        // The model: the watermark as Weir defines it (the minimum over both topics), moved after each
        // record; a record is held until the watermark reaches the end of its window plus the lateness (its
        // window mirrored for the right side), joins every held partner of its key, and is held itself while
        // its window can still take partners. One that arrives with its window closed and joins nothing is
        // late: padded with null at once on an outer side, else refused.
        List<String> expected = new ArrayList<>();
        List<String> expectedLate = new ArrayList<>();
        List<Input> held = new ArrayList<>();
        Set<String> matched = new HashSet<>();
        long maxLeft = Long.MIN_VALUE;
        long maxRight = Long.MIN_VALUE;
        long watermark = Long.MIN_VALUE;
        long nulls = 0;
        long closedButJoined = 0;
        for (Input in : inputs) {
            boolean found = false;
            for (Input o : held) {
                if (o.left() != in.left() && o.key().equals(in.key())) {
                    Input l = in.left() ? in : o;
                    Input r = in.left() ? o : in;
                    if (r.time() >= l.time() - before && r.time() <= l.time() + after) {
                        expected.add(l.serial() + "+" + r.serial() + "@" + Math.max(l.time(), r.time()));
                        matched.add(l.serial());
                        matched.add(r.serial());
                        found = true;
                    }
                }
            }
            if (watermark == Long.MIN_VALUE || watermark < windowEnd(in, before, after) + lateness) {
                held.add(in);
            } else if (!found && outer(in, kind)) {
                expected.add(nullResult(in));
                nulls++;
            } else if (!found) {
                expectedLate.add(in.serial());
            } else {
                closedButJoined++;
            }
            if (in.left()) {
                maxLeft = Math.max(maxLeft, in.time());
            } else {
                maxRight = Math.max(maxRight, in.time());
            }
            if (maxLeft != Long.MIN_VALUE && maxRight != Long.MIN_VALUE) {
                watermark = Math.max(watermark, Math.min(maxLeft, maxRight) - delay - 1);
            }
            long w = watermark;
            nulls += expire(
                    held,
                    r -> w != Long.MIN_VALUE && w >= windowEnd(r, before, after) + lateness,
                    kind,
                    matched,
                    expected);
        }
        nulls += expire(held, r -> true, kind, matched, expected);

        String context = "seed " + seed + ": " + kind + ", before " + before + ", after " + after + ", delay " + delay
                + ", lateness " + lateness + (inMemory ? ", in-memory" : ", RocksDB");
        List<OutputRecord<String, String>> actual;
        List<String> actualLate = new ArrayList<>();
        try (TestDriver driver = new TestDriver(
                topology(kind, before, after, delay, lateness, inMemory),
                TestDriverConfig.defaults().withApplicationId("join-property"))) {
            for (Input in : inputs) {
                driver.input(in.left() ? "left" : "right", Serdes.String(), Serdes.String())
                        .pipe(TestRecord.of(in.key(), in.serial()).at(in.time()));
                if (random.nextInt(20) == 0) {
                    driver.restart();
                }
            }
            driver.endOfInput();
            actual = driver.output("joined", Serdes.String(), Serdes.String()).readAll();
            driver.output("late", Serdes.String(), Serdes.String()).readAll().forEach(r -> actualLate.add(r.value()));
        }
        List<String> results = new ArrayList<>(
                actual.stream().map(r -> r.value() + "@" + r.timestamp()).toList());
        results.sort(null);
        expected.sort(null);
        assertEquals(expected, results, context + ": results");
        assertEquals(expectedLate, actualLate, context + ": late records");
        Set<String> emittedNull = new HashSet<>();
        for (OutputRecord<String, String> r : actual) {
            String[] sides = r.value().split("\\+", -1);
            for (String side : sides) {
                assertTrue(
                        !emittedNull.contains(side), context + ": " + r.value() + " after " + side + "'s null result");
            }
            if (sides[0].equals("null")) {
                emittedNull.add(sides[1]);
            } else if (sides[1].equals("null")) {
                emittedNull.add(sides[0]);
            }
        }
        return new long[] {expected.size() - nulls, nulls, expectedLate.size(), closedButJoined};
    }

    private static io.weir.streams.Topology topology(
            Kind kind, long before, long after, long delay, long lateness, boolean inMemory) {
        StreamsBuilder builder = new StreamsBuilder();
        Consumed<String, String> consumed = Consumed.with(Serdes.String(), Serdes.String())
                .withWatermarks(WatermarkStrategy.boundedOutOfOrderness(Duration.ofMillis(delay)));
        EventStream<String, String> left = builder.stream("left", consumed);
        EventStream<String, String> right = builder.stream("right", consumed);
        JoinWindows windows = JoinWindows.of(Duration.ZERO)
                .withBefore(Duration.ofMillis(before))
                .withAfter(Duration.ofMillis(after))
                .withAllowedLateness(Duration.ofMillis(lateness));
        StreamJoined<String, String, String> joined = StreamJoined.<String, String, String>defaults()
                .withName("pairs")
                .withLateRecordsTo("late");
        if (inMemory) {
            joined = joined.inMemory();
        }
        EventStream<String, String> out = switch (kind) {
            case INNER -> left.join(right, (l, r) -> l + "+" + r, windows, joined);
            case LEFT -> left.leftJoin(right, (l, r) -> l + "+" + r, windows, joined);
            case OUTER -> left.outerJoin(right, (l, r) -> l + "+" + r, windows, joined);
        };
        out.to("joined", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }
}
