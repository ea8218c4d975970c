package io.weir.examples;

import io.weir.streams.serde.Serdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestDriverConfig;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link WordCount} on the TestDriver: counts per word, emitted as a table at each commit. */
class WordCountTest {

    private final TestDriver driver = new TestDriver(
            WordCount.topology(),
            TestDriverConfig.defaults().withPartitions(WordCount.LINES, 2).withCommitInterval(Duration.ofSeconds(30)));
    private final TestInputTopic<String, String> lines =
            driver.input(WordCount.LINES, Serdes.String(), Serdes.String());
    private final TestOutputTopic<String, Long> counts =
            driver.output(WordCount.COUNTS_TOPIC, Serdes.String(), Serdes.Long());

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void eachWordIsCountedAcrossLinesAndPartitions() {
        lines.pipe("a", "The table, and the stream.");
        lines.pipe("b", "A stream is a table");
        driver.commit();
        assertEquals(
                Map.of("the", 2L, "table", 2L, "and", 1L, "stream", 2L, "a", 2L, "is", 1L), counts.readLatestByKey());
    }

    @Test
    void betweenTwoCommitsAWordEmitsOnceWithItsLatestCount() {
        lines.pipe("a", "stream");
        lines.pipe("a", "stream stream");
        assertTrue(counts.isEmpty(), "nothing before the commit");
        driver.commit();
        assertEquals(1, counts.size(), "three updates, one change");
        assertEquals(3L, counts.readOne().value());
        lines.pipe("a", "table");
        driver.commit();
        assertEquals(Map.of("table", 1L), counts.readLatestByKey(), "only the words that changed");
    }
}
