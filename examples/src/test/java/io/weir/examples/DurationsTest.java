package io.weir.examples;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DurationsTest {

    @Test
    void wholeNumbersWithAUnit() {
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals(Duration.ofSeconds(10), Durations.parse("10s"));
        assertEquals(Duration.ofMinutes(2), Durations.parse("2m"));
        assertEquals(Duration.ofHours(1), Durations.parse("1h"));
        assertEquals(Duration.ZERO, Durations.parse("0s"));
    }

    @Test
    void anythingElseIsRefusedWithTheExpectedFormat() {
        for (String bad : new String[] {"10x", "10", "-1s", "1.5s", "", "s", "10 s"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Durations.parse(bad), bad);
            assertEquals(
                    "'" + bad + "' is not a duration: expected a whole number and a unit, one of ms, s, m, h "
                            + "(e.g. 500ms, 10s, 2m, 1h)",
                    e.getMessage());
        }
        for (String tooLong : new String[] {"99999999999999999999ms", "9999999999999999h", "2562047788016h"}) {
            assertEquals(
                    "'" + tooLong + "' is too long a duration: at most 9223372036854775807ms",
                    assertThrows(IllegalArgumentException.class, () -> Durations.parse(tooLong))
                            .getMessage());
        }
    }

    @Test
    void formatUsesTheLargestExactUnitAndParsesBack() {
        assertEquals("0s", Durations.format(Duration.ZERO));
        assertEquals("1500ms", Durations.format(Duration.ofMillis(1500)));
        assertEquals("10s", Durations.format(Duration.ofSeconds(10)));
        assertEquals("90s", Durations.format(Duration.ofSeconds(90)));
        assertEquals("2m", Durations.format(Duration.ofMinutes(2)));
        assertEquals("61m", Durations.format(Duration.ofMinutes(61)));
        assertEquals("24h", Durations.format(Duration.ofDays(1)));
        for (String text : new String[] {"0s", "1ms", "999ms", "1s", "59s", "1m", "59m", "1h", "3h"}) {
            assertEquals(text, Durations.format(Durations.parse(text)));
        }
        assertThrows(IllegalArgumentException.class, () -> Durations.format(Duration.ofSeconds(-1)));
    }
}
