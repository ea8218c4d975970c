package io.weir.streams.internals.testdriver;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TopicLogTest {

    @Test
    void keepingAllGivesALateReaderEveryRecord() {
        TopicLog log = TopicLog.keepingAll("out", 1);
        append(log, 0, 10);
        TopicLog.Reader first = log.newReader();
        assertEquals(range(0, 10), readAll(first));
        assertEquals(range(0, 10), readAll(log.newReader()));
    }

    @Test
    void keepingUnreadHoldsEverythingUntilAReaderExists() {
        TopicLog log = TopicLog.keepingUnread("out", 1);
        append(log, 0, 10);
        assertEquals(range(0, 10), readAll(log.newReader()));
    }

    @Test
    void keepingUnreadDropsOnlyWhatEveryReaderHasRead() {
        TopicLog log = TopicLog.keepingUnread("out", 1);
        TopicLog.Reader fast = log.newReader();
        TopicLog.Reader slow = log.newReader();
        append(log, 0, 100);
        assertEquals(range(0, 100), readAll(fast));
        assertEquals(range(0, 40), read(slow, 40));
        append(log, 100, 110);
        assertEquals(range(40, 110), readAll(slow));
        assertEquals(range(100, 110), readAll(fast));
        TopicLog.Reader late = log.newReader();
        assertFalse(late.hasNext(), "every record was read by every reader, so none is held");
        append(log, 110, 115);
        assertEquals(range(110, 115), readAll(late));
        assertEquals(115, late.position());
    }

    @Test
    void offsetsOnlyNumbersRecordsButKeepsNone() {
        TopicLog log = TopicLog.offsetsOnly("in", 2);
        assertEquals(
                0,
                log.append(1, null, null, new RecordHeaders(), 0, Long.MIN_VALUE)
                        .offset());
        assertEquals(
                1,
                log.append(1, null, null, new RecordHeaders(), 0, Long.MIN_VALUE)
                        .offset());
        assertEquals(
                0,
                log.append(0, null, null, new RecordHeaders(), 0, Long.MIN_VALUE)
                        .offset());
        assertThrows(IllegalStateException.class, log::newReader);
    }

    private static void append(TopicLog log, int from, int to) {
        for (int i = from; i < to; i++) {
            log.append(0, null, null, new RecordHeaders(), i, Long.MIN_VALUE);
        }
    }

    private static List<Long> readAll(TopicLog.Reader reader) {
        return read(reader, reader.remaining());
    }

    private static List<Long> read(TopicLog.Reader reader, int n) {
        List<Long> timestamps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            timestamps.add(reader.peek().timestamp());
            reader.advance();
        }
        return timestamps;
    }

    private static List<Long> range(long from, long to) {
        List<Long> out = new ArrayList<>();
        for (long i = from; i < to; i++) {
            out.add(i);
        }
        return out;
    }
}
