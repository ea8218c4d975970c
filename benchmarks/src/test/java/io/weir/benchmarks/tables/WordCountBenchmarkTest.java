package io.weir.benchmarks.tables;

import io.weir.benchmarks.TableTopologies;
import io.weir.benchmarks.WordCountInput;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The word count benchmark compares like with like: both engines end with the input's own counts. */
class WordCountBenchmarkTest {

    @Test
    void bothEnginesCountEveryWordOfTheInput() {
        WordCountInput input = new WordCountInput(3_000, 500, 1);
        assertEquals(input.expected(), WordCountBenchmark.weir(input).counts());
        assertEquals(input.expected(), WordCountBenchmark.kafkaStreams(input).counts());
    }

    @Test
    void bothEnginesSplitALineTheSameWay() {
        assertEquals(List.of("w1", "w22", "w3"), TableTopologies.words("w1 w22 w3"));
    }
}
