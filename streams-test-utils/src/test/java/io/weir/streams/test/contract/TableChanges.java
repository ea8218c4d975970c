package io.weir.streams.test.contract;

import io.weir.streams.dsl.PaneInfo;
import io.weir.streams.serde.Serdes;
import io.weir.streams.test.TestDriver;
import io.weir.streams.test.TestOutputTopic;
import io.weir.streams.test.TestRecord;
import org.jspecify.annotations.Nullable;

import java.util.List;

/** How the contract tests of table joins write rows and read a joined table's retracting changes, as text. */
final class TableChanges {

    private TableChanges() {}

    /** Sets row {@code key} of the table read from {@code topic} to {@code value}; null deletes it. */
    static void put(TestDriver driver, String topic, String key, @Nullable String value) {
        driver.input(topic, Serdes.String(), Serdes.String()).pipe(TestRecord.of(key, value));
    }

    /** The changes since the last read: "key=value", retractions "key-=value", deletes "key=null". */
    static List<String> read(TestOutputTopic<String, String> out) {
        return out.readAll().stream()
                .map(r -> r.key() + ("true".equals(r.header(PaneInfo.RETRACTION_HEADER)) ? "-=" : "=") + r.value())
                .toList();
    }
}
