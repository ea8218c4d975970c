package io.weir.examples;

import io.weir.streams.dsl.LateRecord;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The ad-click attribution example on the TestDriver. */
class AdClickAttributionTest {

    private static final long MINUTE = 60_000;

    private final TestDriver driver = new TestDriver(AdClickAttribution.topology());
    private final TestInputTopic<String, AdImpression> impressions =
            driver.input(AdClickAttribution.IMPRESSIONS, Serdes.String(), JsonSerde.of(AdImpression.class));
    private final TestInputTopic<String, AdClick> clicks =
            driver.input(AdClickAttribution.CLICKS, Serdes.String(), JsonSerde.of(AdClick.class));
    private final TestOutputTopic<String, AttributedClick> attributed =
            driver.output(AdClickAttribution.ATTRIBUTED, Serdes.String(), JsonSerde.of(AttributedClick.class));

    @AfterEach
    void close() {
        driver.close();
    }

    private AdImpression show(String id, String user, String ad, long at) {
        AdImpression impression = new AdImpression(id, user, ad, at);
        impressions.pipe(id, impression, at);
        return impression;
    }

    private AdClick click(String id, String user, String ad, long at) {
        AdClick click = new AdClick(id, user, ad, at);
        clicks.pipe(id, click, at);
        return click;
    }

    @Test
    void aClickIsAttributedToAnImpressionOfTheSameUserAndAdWithinTenMinutesBefore() {
        AdImpression shown = show("i1", "ann", "ad-1", 0);
        show("i2", "bob", "ad-1", 0);
        AdClick clicked = click("c1", "ann", "ad-1", 9 * MINUTE);
        click("c2", "ann", "ad-2", 9 * MINUTE);
        click("c3", "bob", "ad-1", 11 * MINUTE);
        assertEquals(List.of(new AttributedClick(clicked, shown)), attributed.readValues());
    }

    @Test
    void aClickIsAttributedOnceThoughItMatchesTwoImpressionsOrArrivesTwice() {
        AdImpression first = show("i1", "ann", "ad-1", 0);
        show("i2", "ann", "ad-1", MINUTE);
        AdClick clicked = click("c1", "ann", "ad-1", 2 * MINUTE);
        click("c1", "ann", "ad-1", 2 * MINUTE);
        List<OutputRecord<String, AttributedClick>> out = attributed.readAll();
        assertEquals(1, out.size());
        assertEquals(
                new AttributedClick(clicked, first), out.get(0).value(), "the earlier impression's pair comes first");
        assertEquals("ann|ad-1", out.get(0).key());
    }

    @Test
    void aClickArrivingAfterTheImpressionsWindowClosedGoesToTheLateTopic() {
        show("i1", "ann", "ad-1", 0);
        click("c0", "bob", "ad-9", 0);
        show("i9", "bob", "ad-9", 20 * MINUTE);
        click("c9", "bob", "ad-9", 20 * MINUTE);
        click("c1", "ann", "ad-1", 5 * MINUTE);
        List<OutputRecord<String, String>> late = driver.output(
                        AdClickAttribution.LATE_CLICKS, Serdes.String(), Serdes.String())
                .readAll();
        assertEquals(1, late.size());
        assertEquals(LateRecord.Reason.LATE.name(), late.get(0).header(LateRecord.REASON_HEADER));
        assertEquals(1, attributed.readValues().size(), "only bob's click at 20 minutes");
    }
}
