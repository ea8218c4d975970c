package io.weir.examples;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Deduplicated;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.JoinWindows;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.StreamJoined;
import io.weir.streams.serde.JsonSerde;
import io.weir.streams.serde.Serdes;
import io.weir.streams.time.WatermarkStrategy;

import java.time.Duration;

/**
 * Clicks attributed to the impression that led to them: a windowed stream–stream join, then
 * deduplication.
 *
 * <ul>
 *   <li>Inputs: {@value #IMPRESSIONS} and {@value #CLICKS}, keyed by their own ids; both are re-keyed by
 *       user and ad ({@code user|ad}), so the join repartitions them.</li>
 *   <li>A click matches an impression of the same user and ad shown at most {@link #WINDOW} before it
 *       (and not after it). Each pair is emitted once, when its second record arrives; records may arrive
 *       {@link #DELAY} out of order, and clicks later than that go to {@value #LATE_CLICKS}.</li>
 *   <li>A click that matches several impressions (the ad was shown twice), or arrives twice (a retry),
 *       is attributed once: the attributions are deduplicated by click id.</li>
 *   <li>Output: {@value #ATTRIBUTED}, {@link AttributedClick}s keyed by {@code user|ad}.</li>
 * </ul>
 */
public final class AdClickAttribution {

    public static final String IMPRESSIONS = "ad-impressions";
    public static final String CLICKS = "ad-clicks";
    public static final String ATTRIBUTED = "attributed-clicks";
    public static final String LATE_CLICKS = "late-ad-records";
    public static final Duration WINDOW = Duration.ofMinutes(10);
    public static final Duration DELAY = Duration.ofSeconds(30);

    private AdClickAttribution() {}

    public static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        WatermarkStrategy time = WatermarkStrategy.boundedOutOfOrderness(DELAY).withIdleness(Duration.ofMinutes(1));
        EventStream<String, AdImpression> impressions = builder.stream(
                        IMPRESSIONS,
                        Consumed.with(Serdes.String(), JsonSerde.of(AdImpression.class))
                                .withWatermarks(time))
                .selectKey((id, impression) -> impression.user() + "|" + impression.ad());
        EventStream<String, AdClick> clicks = builder.stream(
                        CLICKS,
                        Consumed.with(Serdes.String(), JsonSerde.of(AdClick.class))
                                .withWatermarks(time))
                .selectKey((id, click) -> click.user() + "|" + click.ad());
        clicks.join(
                        impressions,
                        (click, impression) -> new AttributedClick(click, impression),
                        JoinWindows.of(Duration.ZERO).withBefore(WINDOW),
                        StreamJoined.with(
                                        Serdes.String(), JsonSerde.of(AdClick.class), JsonSerde.of(AdImpression.class))
                                .withName("attribution")
                                .withLateRecordsTo(LATE_CLICKS))
                .deduplicate(
                        (userAndAd, attributed) -> attributed.click().clickId(),
                        WINDOW,
                        Deduplicated.with(Serdes.String()).withName("attributed-once"))
                .to(ATTRIBUTED, Produced.with(Serdes.String(), JsonSerde.of(AttributedClick.class)));
        return builder.build();
    }
}
