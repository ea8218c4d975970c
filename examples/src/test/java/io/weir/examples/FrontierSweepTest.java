package io.weir.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FrontierSweepTest {

    /**
     * Ten records, two keys, columns out of the usual order. Windows of 10 s; the true counts are
     * a[0,10) = 3 (lines 1, 2, 5), b[0,10) = 2 (lines 3, 8), a[10,20) = 3 (lines 4, 6, 9),
     * a[20,30) = 2 (lines 7, 10): 4 windows. The watermark after a record is maxSeen - delay - 1;
     * a record is judged against the watermark before it.
     */
    static final String HAND_CHECKED_CSV = """
            key,event_time_ms,arrival_ms
            a,1000,1000
            a,3000,4000
            b,8000,9000
            a,11000,11000
            a,9000,12500
            a,12500,13000
            a,21000,21000
            b,5000,23000
            a,15000,24000
            a,26000,26000
            """;

    static Path write(Path dir, String csv) throws IOException {
        return Files.writeString(dir.resolve("events.csv"), csv);
    }

    @Test
    void everyFieldOfEveryRowOfAHandCheckedStream(@TempDir Path dir) throws IOException {
        List<FrontierRow> rows = new FrontierSweep(Duration.ofSeconds(10))
                .run(
                        FrontierCsv.read(write(dir, HAND_CHECKED_CSV)),
                        List.of(Duration.ZERO, Duration.ofSeconds(2)),
                        List.of(Duration.ZERO, Duration.ofSeconds(10)));

        assertEquals(
                List.of(
                        // delay 0, lateness 0. W after each record: 999, 2999, 7999, 10999, 10999, 12499, 20999, ...
                        // Line 4 (arrives 11000) moves W to 10999 >= 9999: a[0,10) = 2 and b[0,10) = 1 fire ON_TIME,
                        // waits 1000 and 1000, and are purged at once (open windows after line 3: 2; after line 4: 1).
                        // Line 5 (t 9000) is too late: dropped. Line 7 (arrives 21000) moves W to 20999: a[10,20) = 2
                        // fires, wait 1000. Lines 8 (b, t 5000) and 9 (t 15000) are dropped. a[20,30) = 2 fires at the
                        // end of input. First panes 2 + 1 + 2 + 2 = 7 of 10 records; only a[20,30) is exact.
                        new FrontierRow(0, 0, 3, 0, 70.0, 1, 4, 1000.0, 2),
                        // delay 0, lateness 10 s: the same ON_TIME panes (waits 1000, 1000, 1000), but windows are
                        // kept until W >= end - 1 + 10000. Line 5 is a late update: a[0,10) = 3. Line 7 opens a 4th
                        // window, then W = 20999 purges both [0,10) windows (3 open after lines 4 to 6, 2 after line
                        // 7),
                        // so line 8 is dropped. Line 9 is a late update: a[10,20) = 3. First panes still 7 of 10;
                        // a[0,10), a[10,20) and a[20,30) end exact, b[0,10) = 1 of 2 does not.
                        new FrontierRow(0, 10000, 1, 2, 70.0, 3, 4, 1000.0, 3),
                        // delay 2 s, lateness 0. W after each record: -1001, 999, 5999, 8999, 8999, 10499, 18999,
                        // 18999, 18999, 23999. Line 5 (t 9000) is on time: a[0,10) = 3. Line 6 (arrives 13000) fires
                        // a[0,10) = 3 and b[0,10) = 1, waits 3000 and 3000 (3 windows open after lines 4 and 5).
                        // Line 8 is too late for b[0,10): dropped. Line 9 (t 15000) is on time: a[10,20) = 3, fired by
                        // line 10 (arrives 26000), wait 6000. Mean wait (3000 + 3000 + 6000) / 3 = 4000. First panes
                        // 3 + 1 + 3 + 2 = 9 of 10; all but b[0,10) exact.
                        new FrontierRow(2000, 0, 1, 0, 90.0, 3, 4, 4000.0, 3),
                        // delay 2 s, lateness 10 s: as above, but b[0,10) is kept until W >= 19999, so line 8
                        // (W = 18999) is a late update: b[0,10) = 2. After line 7, 4 windows are open; line 10's
                        // W = 23999 purges the two [0,10) windows. Nothing dropped, every window exact.
                        new FrontierRow(2000, 10000, 0, 1, 90.0, 4, 4, 4000.0, 4)),
                rows);
    }

    @Test
    void withoutAKeyColumnAllRecordsShareOneKey(@TempDir Path dir) throws IOException {
        String unkeyed = HAND_CHECKED_CSV
                .lines()
                .map(line -> line.substring(line.indexOf(',') + 1))
                .reduce("", (csv, line) -> csv + line + "\n");
        FrontierRow row = new FrontierSweep(Duration.ofSeconds(10))
                .run(FrontierCsv.read(write(dir, unkeyed)), Duration.ofSeconds(2), Duration.ofSeconds(10));
        // Three windows: [0,10) = 5 (lines 1, 2, 3, 5, 8), [10,20) = 3, [20,30) = 2. [0,10) fires with 4 at
        // line 6 (arrives 13000, wait 3000), line 8 updates it to 5 late; [10,20) fires with 3 at line 10
        // (arrives 26000, wait 6000); [20,30) at the end with 2. First panes 4 + 3 + 2 = 9 of 10. After
        // line 7 all three windows are open.
        assertEquals(new FrontierRow(2000, 10000, 0, 1, 90.0, 3, 3, 4500.0, 3), row);
    }

    @Test
    void noOnTimePaneBeforeTheEndOfInputLeavesTheWaitUndefined(@TempDir Path dir) throws IOException {
        String csv = """
                arrival_ms,event_time_ms
                100,100
                200,200
                """;
        FrontierRow row = new FrontierSweep(Duration.ofSeconds(10))
                .run(FrontierCsv.read(write(dir, csv)), Duration.ZERO, Duration.ZERO);
        assertEquals(new FrontierRow(0, 0, 0, 0, 100.0, 1, 1, null, 1), row);
    }
}
