package io.weir.streams.test.reference;

import io.weir.streams.dsl.Grouped;
import io.weir.streams.dsl.KeyValue;
import io.weir.streams.dsl.Materialized;
import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.dsl.Produced;
import io.weir.streams.dsl.Refinement;
import io.weir.streams.dsl.Table;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.OutputRecord;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestOutputTopic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the property tests of joins that give tables read after each commit, and how they check it
 * against the relational join: the joined table's changes applied as upserts; its retracting stream
 * applied (a retraction removes a value, a value adds one), which must hold exactly one value per key
 * of the relational join, so no stale result survives and none is emitted twice; and a sum of its rows'
 * lengths kept by {@code groupBy(...).aggregate} with a subtractor, which takes back each change's old
 * value.
 */
final class JoinedTableOutputs {

    private final TestOutputTopic<String, String> joined;
    private final TestOutputTopic<String, String> changes;
    private final TestOutputTopic<String, Long> sums;
    private final Map<String, String> upserts = new TreeMap<>();
    private final Map<String, List<String>> retracting = new TreeMap<>();
    private final Map<String, Long> sum = new HashMap<>();

    JoinedTableOutputs(TestDriver driver) {
        this.joined = driver.output("joined", Serdes.String(), Serdes.String());
        this.changes = driver.output("changes", Serdes.String(), Serdes.String());
        this.sums = driver.output("sums", Serdes.String(), Serdes.Long());
    }

    /** Writes {@code table} to the three outputs this class reads. */
    static void writeOutputs(Table<String, String> table) {
        table.toStream().to("joined", Produced.with(Serdes.String(), Serdes.String()));
        table.toStream(Refinement.ACCUMULATING_AND_RETRACTING)
                .to("changes", Produced.with(Serdes.String(), Serdes.String()));
        table.groupBy((k, v) -> KeyValue.pair("all", v), Grouped.with(Serdes.String(), Serdes.String()))
                .aggregate(
                        () -> 0L,
                        (k, v, total) -> total + v.length(),
                        (k, v, total) -> total - v.length(),
                        Materialized.<String, Long>as("sum").withValueSerde(Serdes.Long()))
                .toStream()
                .to("sums", Produced.with(Serdes.String(), Serdes.Long()));
    }

    /**
     * Reads what the outputs got since the last check and checks it against {@code expected}, the
     * relational join now; every change read is also handed to {@code eachChange}, for a test's own rules.
     */
    void check(Map<String, String> expected, String context, Consumer<OutputRecord<String, String>> eachChange) {
        for (OutputRecord<String, String> r : joined.readAll()) {
            if (r.value() == null) {
                upserts.remove(r.key());
            } else {
                upserts.put(r.key(), r.value());
            }
        }
        assertEquals(expected, upserts, context + ": upserts");
        for (OutputRecord<String, String> r : changes.readAll()) {
            eachChange.accept(r);
            List<String> held = retracting.computeIfAbsent(r.key(), k -> new ArrayList<>());
            if ("true".equals(r.header(PaneInfo.RETRACTION_HEADER))) {
                assertTrue(held.remove(r.value()), context + ": a retraction of " + r + " never added");
            } else if (r.value() != null) {
                held.add(r.value());
            }
        }
        retracting.values().removeIf(List::isEmpty);
        Map<String, String> applied = new TreeMap<>();
        retracting.forEach((k, held) -> {
            assertEquals(1, held.size(), context + ": " + k + " holds " + held);
            applied.put(k, held.get(0));
        });
        assertEquals(expected, applied, context + ": retractions applied");
        // The group is deleted when its last row is taken back.
        sums.readAll().forEach(r -> sum.compute(r.key(), (k, old) -> r.value()));
        long total = expected.values().stream().mapToLong(String::length).sum();
        assertEquals(total, sum.getOrDefault("all", 0L), context + ": sum");
    }
}
