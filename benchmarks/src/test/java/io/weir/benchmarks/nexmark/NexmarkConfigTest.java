package io.weir.benchmarks.nexmark;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class NexmarkConfigTest {

    @Test
    void theDefaultsAreTheReferences() {
        NexmarkConfig d = NexmarkConfig.defaults();
        assertEquals(10_000, d.firstEventRate());
        assertEquals(1, d.outOfOrderGroupSize());
        assertEquals(1000, d.numActivePeople());
        assertEquals(100, d.numInFlightAuctions());
        assertEquals(List.of(2, 4, 4), List.of(d.hotAuctionRatio(), d.hotSellersRatio(), d.hotBiddersRatio()));
        assertEquals(
                List.of(200, 500, 100), List.of(d.avgPersonByteSize(), d.avgAuctionByteSize(), d.avgBidByteSize()));
        assertEquals(Instant.parse("2024-01-01T00:00:00Z").toEpochMilli(), d.baseTime());
        assertEquals(50, NexmarkConfig.TOTAL_PROPORTION);
    }

    @Test
    void eachWitherChangesItsKnobOnly() {
        NexmarkConfig d = NexmarkConfig.defaults();
        assertEquals(
                new NexmarkConfig(3, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47),
                d.withSeed(3)
                        .withEvents(7)
                        .withFirstEventRate(11)
                        .withBaseTime(13)
                        .withOutOfOrderGroupSize(17)
                        .withNumActivePeople(19)
                        .withNumInFlightAuctions(23)
                        .withHotRatios(29, 31, 37)
                        .withAvgByteSizes(41, 43, 47));
    }

    @Test
    void aValueOutOfRangeIsRefusedByName() {
        NexmarkConfig d = NexmarkConfig.defaults();
        assertEquals("NexmarkConfig.firstEventRate must be positive, not 0", refusal(() -> d.withFirstEventRate(0)));
        assertEquals(
                "NexmarkConfig.events must be between 1 and 1125899906842624, not 0", refusal(() -> d.withEvents(0)));
        assertEquals(
                "NexmarkConfig.baseTime must be an epoch millisecond between 0 and 253402300799999 (the end of year"
                        + " 9999), not -1",
                refusal(() -> d.withBaseTime(-1)));
        assertEquals(
                "NexmarkConfig.hotSellersRatio must be positive, not -4", refusal(() -> d.withHotRatios(2, -4, 4)));
        assertEquals(
                "NexmarkConfig.outOfOrderGroupSize must be positive, not 0",
                refusal(() -> d.withOutOfOrderGroupSize(0)));
    }

    private static String refusal(Runnable build) {
        return assertThrows(IllegalArgumentException.class, build::run).getMessage();
    }
}
