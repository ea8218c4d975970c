package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.GlobalWindows;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.SessionWindows;
import io.weir.streams.dsl.Trigger;
import io.weir.streams.dsl.TumblingWindows;
import io.weir.streams.dsl.WindowedStream;
import io.weir.streams.dsl.Windows;
import io.weir.streams.serde.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triggers, refinements and window settings that make no sense fail when they are written or when the
 * topology is built — never on the first record — with a message that names the setting or the
 * operator (its store).
 */
class WindowSettingsBuildTest {

    private static void assertMessage(
            Class<? extends RuntimeException> type, String start, String contains, Executable build) {
        RuntimeException e = assertThrows(type, build);
        assertTrue(e.getMessage().startsWith(start) && e.getMessage().contains(contains), e.getMessage());
    }

    /** Builds a count (or, with {@code mergerless}, an aggregate without merger) into store "agg". */
    private static void build(
            Windows windows, UnaryOperator<WindowedStream<String, Long>> settings, boolean mergerless) {
        StreamsBuilder builder = new StreamsBuilder();
        WindowedStream<String, Long> windowed =
                settings.apply(builder.stream("in", Consumed.with(Serdes.String(), Serdes.Long()))
                        .groupByKey()
                        .windowedBy(windows));
        if (mergerless) {
            windowed.aggregate(
                    () -> 0L,
                    (k, v, a) -> a + v,
                    Materialized.<String, Long>as("agg").withValueSerde(Serdes.Long()));
        } else {
            windowed.count(Materialized.as("agg"));
        }
        builder.build();
    }

    @Test
    void triggerIntervalsAndCountsMustBePositive() {
        assertMessage(
                IllegalArgumentException.class,
                "Trigger.withEarlyFirings interval",
                "PT0S",
                () -> Trigger.onTime().withEarlyFirings(Duration.ZERO));
        assertMessage(
                IllegalArgumentException.class,
                "Trigger.withLateFirings interval",
                "withLateFiringsPerRecord",
                () -> Trigger.onTime().withLateFirings(Duration.ofMillis(-1)));
        assertMessage(IllegalArgumentException.class, "Trigger.afterCount", "got 0", () -> Trigger.afterCount(0));
    }

    @Test
    void atWindowCloseTakesNoEarlyOrLateFirings() {
        assertMessage(
                IllegalStateException.class,
                "Trigger.atWindowClose()",
                "withEarlyFirings",
                () -> Trigger.atWindowClose().withEarlyFirings(Duration.ofSeconds(1)));
        assertMessage(
                IllegalStateException.class,
                "Trigger.atWindowClose()",
                "withLateFirings",
                () -> Trigger.atWindowClose().withLateFirings(Duration.ofSeconds(1)));
    }

    @Test
    void finalResultsOnlyHasNothingToRefine() {
        assertMessage(
                IllegalStateException.class,
                "count into store 'agg'",
                "DISCARDING has nothing to refine",
                () -> build(
                        TumblingWindows.of(Duration.ofSeconds(1)),
                        w -> w.finalResultsOnly().withRefinement(Refinement.DISCARDING),
                        false));
    }

    @Test
    void globalWindowsNeedATriggerThatFiresEarlyAndTakeNoLateFirings() {
        assertMessage(
                IllegalStateException.class,
                "count into store 'agg'",
                "global windows never end",
                () -> build(GlobalWindows.create(), w -> w, false));
        assertMessage(
                IllegalStateException.class,
                "count into store 'agg'",
                "no record is late for a global window",
                () -> build(
                        GlobalWindows.create(),
                        w -> w.withTrigger(Trigger.afterCount(5).withLateFirings(Duration.ofSeconds(1))),
                        false));
        assertDoesNotThrow(() -> build(GlobalWindows.create(), w -> w.withTrigger(Trigger.afterCount(5)), false));
    }

    @Test
    void lateFiringsNeedAllowedLateness() {
        assertMessage(
                IllegalStateException.class,
                "count into store 'agg'",
                "no allowed lateness",
                () -> build(
                        TumblingWindows.of(Duration.ofSeconds(1)),
                        w -> w.withTrigger(Trigger.onTime().withLateFirings(Duration.ofSeconds(1))),
                        false));
    }

    @Test
    void sessionWindowsNeedAMergerAndAMaximumLengthOfAtLeastTheGap() {
        assertMessage(
                IllegalStateException.class,
                "aggregate into store 'agg'",
                "needs a merger",
                () -> build(SessionWindows.withGap(Duration.ofSeconds(5)), w -> w, true));
        assertDoesNotThrow(
                () -> build(SessionWindows.withGap(Duration.ofSeconds(5)), w -> w, false), "count merges by adding");
        assertMessage(
                IllegalArgumentException.class,
                "maxSessionLength",
                "at least the gap",
                () -> SessionWindows.withGap(Duration.ofSeconds(5)).withMaxSessionLength(Duration.ofSeconds(4)));
    }
}
