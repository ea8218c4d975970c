package io.weir.examples;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LateStreamGeneratorTest {

    private static List<FrontierEvent> generate(double lateShare, long seed, int count) {
        return new LateStreamGenerator(lateShare, Duration.ofSeconds(40), Duration.ofSeconds(10), seed)
                .events(count)
                .toList();
    }

    @Test
    void theSameSeedGivesTheSameStream() {
        assertEquals(generate(0.05, 7, 5000), generate(0.05, 7, 5000));
        assertNotEquals(generate(0.05, 7, 5000), generate(0.05, 8, 5000));
    }

    @Test
    void aHeavyLateTailOfTheRequestedShare() {
        List<FrontierEvent> events = generate(0.05, 7, 20_000);
        assertEquals(20_000, events.size());
        // On-time records trail their arrival by less than a tenth of the window (1 s); late ones by at least that.
        long late = events.stream()
                .filter(e -> e.arrivalMs() - e.eventTimeMs() >= 1000)
                .count();
        assertEquals(0.05, late / 20_000.0, 0.005);
        long veryLate = events.stream()
                .filter(e -> e.arrivalMs() - e.eventTimeMs() >= 20_000)
                .count();
        assertTrue(
                veryLate > late / 20,
                "a long tail: " + veryLate + " of " + late + " late records are 20 s late or more");
        assertTrue(events.stream().allMatch(e -> e.arrivalMs() - e.eventTimeMs() <= 40_000 && e.eventTimeMs() >= 0));
        for (int i = 1; i < events.size(); i++) {
            long gap = events.get(i).arrivalMs() - events.get(i - 1).arrivalMs();
            assertTrue(gap >= 0 && gap <= 50, "gap " + gap + " before record " + i);
        }
        assertEquals(
                LateStreamGenerator.KEYS,
                events.stream().map(FrontierEvent::key).distinct().count());
    }

    @Test
    void noLateShareMeansNoLateRecords() {
        assertTrue(generate(0, 3, 2000).stream().allMatch(e -> e.arrivalMs() - e.eventTimeMs() < 1000));
    }
}
