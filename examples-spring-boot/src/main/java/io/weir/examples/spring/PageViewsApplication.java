package io.weir.examples.spring;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.Topology;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * Counts page views per page with Weir inside Spring Boot: the application declares its {@link Topology}
 * and nothing else. The starter runs it from the {@code weir.*} properties in {@code
 * application.properties}, starts and closes it with the context, reports its health as the {@code weir}
 * component and its metrics as {@code weir.*} meters in the actuator.
 *
 * <p>Input: {@code page-views}, keyed by page. Output: {@code page-view-counts}, the running count per
 * page, as a table's changes (read it {@code read_committed}).
 */
@SpringBootApplication
public class PageViewsApplication {

    public static final String INPUT = "page-views";
    public static final String OUTPUT = "page-view-counts";

    @Bean
    Topology pageViewCounts() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .count(Materialized.as("views-per-page"))
                .toStream()
                .to(OUTPUT, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    public static void main(String[] args) {
        SpringApplication.run(PageViewsApplication.class, args);
    }
}
