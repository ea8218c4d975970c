package io.weir.examples;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Prints {@link FrontierRow}s under the field names {@code delay_ms}, {@code lateness_ms},
 * {@code dropped}, {@code late_updates}, {@code in_first_pct} (2 decimals), {@code exact_windows},
 * {@code windows}, {@code mean_wait_ms} (1 decimal; null, or {@code -} in a table, when no pane
 * fired before the end of input) and {@code max_open_windows}: as an aligned table with a header
 * row, or as one JSON object per row and line.
 */
final class FrontierFormat {

    private record Column(String name, Function<FrontierRow, Object> value) {}

    private static final List<Column> COLUMNS = List.of(
            new Column("delay_ms", FrontierRow::delayMs),
            new Column("lateness_ms", FrontierRow::latenessMs),
            new Column("dropped", FrontierRow::dropped),
            new Column("late_updates", FrontierRow::lateUpdates),
            new Column("in_first_pct", r -> round(r.inFirstPct(), 2)),
            new Column("exact_windows", FrontierRow::exactWindows),
            new Column("windows", FrontierRow::windows),
            new Column("mean_wait_ms", r -> r.meanWaitMs() == null ? null : round(r.meanWaitMs(), 1)),
            new Column("max_open_windows", FrontierRow::maxOpenWindows));

    private static final ObjectMapper JSON = new ObjectMapper();

    private FrontierFormat() {}

    /** A header row, then one row per {@link FrontierRow}, each column right-aligned; every line ends with a newline. */
    static String table(List<FrontierRow> rows) {
        int[] widths = new int[COLUMNS.size()];
        for (int c = 0; c < COLUMNS.size(); c++) {
            widths[c] = COLUMNS.get(c).name().length();
            for (FrontierRow row : rows) {
                widths[c] = Math.max(widths[c], cell(COLUMNS.get(c), row).length());
            }
        }
        StringBuilder table = new StringBuilder();
        line(table, widths, COLUMNS.stream().map(Column::name).toList());
        for (FrontierRow row : rows) {
            line(
                    table,
                    widths,
                    COLUMNS.stream().map(column -> cell(column, row)).toList());
        }
        return table.toString();
    }

    /** One JSON object per row, one per line, each line ending with a newline. */
    static String json(List<FrontierRow> rows) {
        StringBuilder lines = new StringBuilder();
        for (FrontierRow row : rows) {
            Map<String, Object> fields = new LinkedHashMap<>();
            COLUMNS.forEach(column -> fields.put(column.name(), column.value().apply(row)));
            try {
                lines.append(JSON.writeValueAsString(fields)).append('\n');
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("Cannot write a frontier row as JSON: " + row, e);
            }
        }
        return lines.toString();
    }

    private static String cell(Column column, FrontierRow row) {
        Object value = column.value().apply(row);
        return value == null ? "-" : value.toString();
    }

    private static void line(StringBuilder table, int[] widths, List<String> cells) {
        for (int c = 0; c < cells.size(); c++) {
            table.append(c == 0 ? "" : "  ")
                    .append(" ".repeat(widths[c] - cells.get(c).length()))
                    .append(cells.get(c));
        }
        table.append('\n');
    }

    private static BigDecimal round(double value, int decimals) {
        return BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP);
    }
}
