package io.weir.streams.test.contract;

import io.weir.streams.StreamsBuilder;
import io.weir.streams.dsl.Consumed;
import io.weir.streams.dsl.EventStream;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Produced;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestInputTopic;
import io.weir.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Stateless operators: what they emit, and that they keep each record's event time and headers. */
class StatelessOperatorsTest {

    /** Pipes ("a", "apple"), ("b", "banana"), ("c", "cherry") at 1 s, 2 s, 3 s through {@code op}, returns "out". */
    private static List<OutputRecord<String, String>> run(
            Function<EventStream<String, String>, EventStream<String, String>> op) {
        StreamsBuilder builder = new StreamsBuilder();
        op.apply(builder.stream("in", Consumed.with(Serdes.String(), Serdes.String())))
                .to("out", Produced.with(Serdes.String(), Serdes.String()));
        try (TestDriver driver = new TestDriver(builder.build())) {
            TestInputTopic<String, String> in = driver.input("in", Serdes.String(), Serdes.String());
            in.pipe(TestRecord.of("a", "apple").at(1_000).withHeader("trace", "t1".getBytes(StandardCharsets.UTF_8)));
            in.pipe("b", "banana", 2_000);
            in.pipe("c", "cherry", 3_000);
            return driver.output("out", Serdes.String(), Serdes.String()).readAll();
        }
    }

    private static List<String> keyValues(List<OutputRecord<String, String>> records) {
        List<String> out = new ArrayList<>();
        records.forEach(r -> out.add(r.key() + "=" + r.value()));
        return out;
    }

    @Test
    void filterAndFilterNot() {
        assertEquals(List.of("b=banana"), keyValues(run(s -> s.filter((k, v) -> v.startsWith("b")))));
        assertEquals(List.of("a=apple", "c=cherry"), keyValues(run(s -> s.filterNot((k, v) -> v.startsWith("b")))));
    }

    @Test
    void mapMapValuesAndSelectKey() {
        assertEquals(
                List.of("A=5", "B=6", "C=6"),
                keyValues(run(s ->
                        s.map((k, v) -> KeyValue.pair(k.toUpperCase(Locale.ROOT), Integer.toString(v.length()))))));
        assertEquals(List.of("a=APPLE", "b=BANANA", "c=CHERRY"), keyValues(run(s -> s.mapValues(String::toUpperCase))));
        assertEquals(
                List.of("ap=apple", "ba=banana", "ch=cherry"),
                keyValues(run(s -> s.selectKey((k, v) -> v.substring(0, 2)))));
    }

    @Test
    void flatMapAndFlatMapValues() {
        assertEquals(
                List.of("a=a", "a=p", "a=p", "a=l", "a=e"),
                keyValues(run(s -> s.filter((k, v) -> k.equals("a")).flatMapValues(v -> List.of(v.split(""))))));
        assertEquals(
                List.of("a1=apple", "a2=apple"),
                keyValues(run(s -> s.filter((k, v) -> k.equals("a"))
                        .flatMap((k, v) -> List.of(KeyValue.pair(k + "1", v), KeyValue.pair(k + "2", v))))));
    }

    @Test
    void peekSeesEveryRecordAndPassesItOn() {
        List<String> seen = new ArrayList<>();
        assertEquals(3, run(s -> s.peek((k, v) -> seen.add(k))).size());
        assertEquals(List.of("a", "b", "c"), seen);
    }

    @Test
    void splitSendsEachRecordToTheFirstMatchingBranchOnly() {
        List<String> tested = new ArrayList<>();
        List<OutputRecord<String, String>> out = run(s -> {
            Map<String, EventStream<String, String>> branches = s.split()
                    .branch("has-a", (k, v) -> tested.add(k) && v.contains("a"))
                    .branch("has-e", (k, v) -> v.contains("e"))
                    .defaultBranch("rest");
            return branches.get("has-a")
                    .mapValues(v -> "A:" + v)
                    .merge(branches.get("has-e").mapValues(v -> "E:" + v))
                    .merge(branches.get("rest").mapValues(v -> "R:" + v));
        });
        assertEquals(List.of("a=A:apple", "b=A:banana", "c=E:cherry"), keyValues(out));
        assertEquals(List.of("a", "b", "c"), tested, "each predicate runs once per record");
    }

    @Test
    void operatorsKeepEventTimeAndHeaders() {
        OutputRecord<String, String> first = run(s ->
                        s.mapValues(String::toUpperCase).filter((k, v) -> true))
                .get(0);
        assertEquals(1_000, first.timestamp());
        assertEquals("t1", first.header("trace"));
    }

    @Test
    void mergeKeepsTheSerdesBothStreamsShareAndForgetsOnesTheyDoNot() {
        StreamsBuilder builder = new StreamsBuilder();
        EventStream<String, String> a = builder.stream("a", Consumed.with(Serdes.String(), Serdes.String()));
        EventStream<String, String> b = builder.stream("b", Consumed.with(Serdes.String(), Serdes.String()));
        a.merge(b).to("same");
        EventStream<String, String> json =
                builder.stream("c", Consumed.with(Serdes.String(), Serdes.Json(String.class)));
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> a.merge(json).to("mixed"));
        assertEquals(
                "to(\"mixed\"): the stream's value serde is unknown (after a map, or a merge of streams with "
                        + "different serdes); pass Produced.with(keySerde, valueSerde)",
                e.getMessage());
        try (TestDriver driver = new TestDriver(builder.build())) {
            driver.input("a", Serdes.String(), Serdes.String()).pipe("k", "from-a", 1_000);
            driver.input("b", Serdes.String(), Serdes.String()).pipe("k", "from-b", 2_000);
            assertEquals(
                    List.of("k=from-a", "k=from-b"),
                    keyValues(driver.output("same", Serdes.String(), Serdes.String())
                            .readAll()));
        }
    }
}
