package io.weir.examples;

import org.jspecify.annotations.Nullable;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The frontier of a sweep as a self-contained SVG 1.1 chart (no scripts, no external fonts or style
 * sheets, a white background and a {@code viewBox}), so that it renders as an image on GitHub.
 *
 * <p>What it shows: the x axis is how long a consumer waits for a window's on-time result, the
 * {@link FrontierRow#meanWaitMs() mean wait} after the window's end, in milliseconds or, when some
 * wait reaches two seconds, in seconds. The y axis is a share of all input records, in percent. Each
 * (delay, lateness) row is one marker (an element of class {@value #POINT_CLASS}) at its wait and its
 * {@link FrontierRow#dropped() dropped} records: the records that no result ever counts. The markers
 * of one allowed lateness are joined in delay order by a line in that lateness's color and shape,
 * named in the legend. Under them a wide grey line gives, per delay, the records that missed their
 * window's first result (100 − {@link FrontierRow#inFirstPct() in_first_pct}) at the smallest lateness
 * swept: the records a consumer of first results sees late or never. The lateness changes that share
 * only through windows whose first record came after their on-time moment (kept, and counted in a
 * late first result, when the lateness allows), so for most streams one line serves every lateness.
 * Beside the highest marker of each delay its value is written. A row without a mean wait (no on-time
 * result fired before the end of input) has no place on the x axis and is left out; the caption says
 * how many were.
 *
 * <p>Why one class: one picture, drawn by one pass over the rows with one set of scales; the methods
 * are its parts (axes, lines, markers, labels, legend), each a few lines of SVG.
 */
final class FrontierChart {

    /** The class of the one marker drawn per row. */
    static final String POINT_CLASS = "point";

    private static final int WIDTH = 900;
    private static final int HEIGHT = 500;
    private static final double LEFT = 72;
    private static final double RIGHT = 650;
    private static final double TOP = 80;
    private static final double BOTTOM = 436;
    private static final double LEGEND_X = 672;
    /** Colors that stay apart for the common forms of color blindness (Okabe and Ito). */
    private static final List<String> COLORS =
            List.of("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9");

    private static final String BAND_COLOR = "#cfcfcf";
    /** Marker outlines around the origin, of about the same area: circle, square, triangle, diamond. */
    private static final List<String> SHAPES = List.of(
            "M-4.5,0 a4.5,4.5 0 1,0 9,0 a4.5,4.5 0 1,0 -9,0 Z",
            "M-4,-4 h8 v8 h-8 Z",
            "M0,-5.5 L5.5,4 L-5.5,4 Z",
            "M0,-5.5 L5.5,0 L0,5.5 L-5.5,0 Z");

    private static final double LABEL_FONT = 11;
    private static final double LABEL_LINE = 13;

    private final StringBuilder svg = new StringBuilder();
    private final List<double[]> labelBoxes = new ArrayList<>();

    private FrontierChart() {}

    /**
     * The chart of {@code rows}, the result of a sweep over {@code records} records read from
     * {@code input} (a name for the caption) with tumbling windows of {@code window}.
     */
    static String svg(List<FrontierRow> rows, String input, long records, Duration window) {
        return new FrontierChart().draw(rows, input, records, window);
    }

    private String draw(List<FrontierRow> rows, String input, long records, Duration window) {
        Map<Long, List<FrontierRow>> byLateness = new TreeMap<>();
        Map<Long, List<FrontierRow>> byDelay = new TreeMap<>();
        int undrawn = 0;
        for (FrontierRow row : rows) {
            if (row.meanWaitMs() == null) {
                undrawn++;
                continue;
            }
            byLateness.computeIfAbsent(row.latenessMs(), l -> new ArrayList<>()).add(row);
            byDelay.computeIfAbsent(row.delayMs(), d -> new ArrayList<>()).add(row);
        }
        byLateness.values().forEach(line -> line.sort(Comparator.comparingLong(FrontierRow::delayMs)));
        List<FrontierRow> missedFirst = byDelay.values().stream()
                .map(same -> same.stream()
                        .min(Comparator.comparingLong(FrontierRow::latenessMs))
                        .orElseThrow())
                .toList();

        double maxWaitMs = 0;
        double minWaitMs = 0;
        double maxPct = 0;
        for (List<FrontierRow> same : byDelay.values()) {
            for (FrontierRow row : same) {
                maxWaitMs = Math.max(maxWaitMs, waitMs(row));
                minWaitMs = Math.min(minWaitMs, waitMs(row));
                maxPct = Math.max(maxPct, Math.max(droppedPct(row, records), 100 - row.inFirstPct()));
            }
        }
        boolean seconds = Math.max(maxWaitMs, -minWaitMs) >= 2000;
        double unitMs = seconds ? 1000 : 1;
        Axis x = Axis.nice(minWaitMs / unitMs, (maxWaitMs + 0.03 * (maxWaitMs - minWaitMs)) / unitMs, 6, LEFT, RIGHT);
        Axis y = Axis.nice(0, maxPct * 1.1, 5, BOTTOM, TOP);

        String title = "Latency / accuracy frontier of watermark delay and allowed lateness";
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(HEIGHT)
                .append("\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(HEIGHT)
                .append("\" font-family=\"sans-serif\" font-size=\"12\">\n")
                .append("<title>")
                .append(escape(title))
                .append("</title>\n")
                .append("<rect x=\"0\" y=\"0\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(HEIGHT)
                .append("\" fill=\"#ffffff\"/>\n");
        text(LEFT, 28, "font-size=\"16\" font-weight=\"bold\"", title);
        text(
                LEFT,
                48,
                "class=\"caption\" fill=\"#444444\"",
                input + ": " + records + (records == 1 ? " record, " : " records, ")
                        + rows.stream().mapToLong(FrontierRow::windows).max().orElse(0) + " windows of "
                        + Durations.format(window)
                        + " (tumbling, per key); one marker per (delay, lateness) setting");
        if (undrawn > 0) {
            text(
                    LEFT,
                    64,
                    "class=\"caption\" fill=\"#444444\"",
                    undrawn + (undrawn == 1 ? " setting" : " settings")
                            + " fired no on-time result before the input ended and "
                            + (undrawn == 1 ? "is" : "are") + " not drawn");
        }
        axes(x, y, seconds);

        polyline(
                missedFirst,
                r -> 100 - r.inFirstPct(),
                x,
                y,
                unitMs,
                "stroke=\"" + BAND_COLOR + "\" stroke-width=\"9\" stroke-linecap=\"round\"");
        int series = 0;
        for (List<FrontierRow> line : byLateness.values()) {
            polyline(
                    line,
                    r -> droppedPct(r, records),
                    x,
                    y,
                    unitMs,
                    "stroke=\"" + color(series) + "\" stroke-width=\"2\"");
            series++;
        }
        series = 0;
        for (List<FrontierRow> line : byLateness.values()) {
            for (FrontierRow row : line) {
                marker(
                        series,
                        x.at(waitMs(row) / unitMs),
                        y.at(droppedPct(row, records)),
                        "class=\"" + POINT_CLASS + "\"",
                        describe(row, records, seconds));
            }
            series++;
        }
        delayLabels(byDelay, records, x, y, unitMs);
        legend(
                byLateness.keySet(),
                missedFirst.isEmpty() ? null : missedFirst.get(0).latenessMs());
        return svg.append("</svg>\n").toString();
    }

    private void axes(Axis x, Axis y, boolean seconds) {
        svg.append("<g stroke=\"#e6e6e6\" stroke-width=\"1\">\n");
        for (double tick : x.ticks()) {
            line(x.at(tick), TOP, x.at(tick), BOTTOM);
        }
        for (double tick : y.ticks()) {
            line(LEFT, y.at(tick), RIGHT, y.at(tick));
        }
        svg.append("</g>\n<g stroke=\"#333333\" stroke-width=\"1\">\n");
        line(LEFT, TOP, LEFT, BOTTOM);
        line(LEFT, BOTTOM, RIGHT, BOTTOM);
        for (double tick : x.ticks()) {
            line(x.at(tick), BOTTOM, x.at(tick), BOTTOM + 5);
        }
        for (double tick : y.ticks()) {
            line(LEFT - 5, y.at(tick), LEFT, y.at(tick));
        }
        svg.append("</g>\n");
        svg.append("<g class=\"x-ticks\" text-anchor=\"middle\">\n");
        for (double tick : x.ticks()) {
            text(x.at(tick), BOTTOM + 19, "", x.label(tick));
        }
        svg.append("</g>\n<g class=\"y-ticks\" text-anchor=\"end\">\n");
        for (double tick : y.ticks()) {
            text(LEFT - 9, y.at(tick) + 4, "", y.label(tick));
        }
        svg.append("</g>\n");
        text(
                (LEFT + RIGHT) / 2,
                BOTTOM + 42,
                "text-anchor=\"middle\"",
                "mean wait of a window's on-time result after the window's end (" + (seconds ? "s" : "ms") + ")");
        double middle = (TOP + BOTTOM) / 2;
        text(
                20,
                middle,
                "text-anchor=\"middle\" transform=\"rotate(-90 20 " + num(middle) + ")\"",
                "records, % of all input records");
    }

    /**
     * The value of each delay to the upper right of the highest marker or grey line at its wait (where a
     * falling frontier leaves room), moved up while it would overlap another.
     */
    private void delayLabels(Map<Long, List<FrontierRow>> byDelay, long records, Axis x, Axis y, double unitMs) {
        svg.append("<g class=\"delays\" font-size=\"").append(num(LABEL_FONT)).append("\" fill=\"#222222\">\n");
        for (Map.Entry<Long, List<FrontierRow>> delay : byDelay.entrySet()) {
            FrontierRow first = delay.getValue().get(0);
            double top = delay.getValue().stream()
                    .mapToDouble(r -> Math.max(droppedPct(r, records), 100 - r.inFirstPct()))
                    .max()
                    .orElseThrow();
            String label = Durations.format(Duration.ofMillis(delay.getKey()));
            double left = x.at(waitMs(first) / unitMs) + 6;
            double right = left + 0.62 * LABEL_FONT * label.length() + 2;
            double baseline = y.at(top) - 7;
            while (overlaps(left, baseline - LABEL_FONT, right, baseline)) {
                baseline -= LABEL_LINE;
            }
            labelBoxes.add(new double[] {left, baseline - LABEL_FONT, right, baseline});
            text(left, baseline, "", label);
        }
        svg.append("</g>\n");
    }

    private boolean overlaps(double x1, double y1, double x2, double y2) {
        for (double[] box : labelBoxes) {
            if (x1 < box[2] && box[0] < x2 && y1 < box[3] && box[1] < y2) {
                return true;
            }
        }
        return false;
    }

    private void legend(Iterable<Long> latenesses, @Nullable Long missedFirstLateness) {
        svg.append("<g class=\"legend\">\n");
        double top = TOP + 4;
        text(LEGEND_X, top, "font-weight=\"bold\"", "Dropped records");
        double row = top + 22;
        int series = 0;
        for (long lateness : latenesses) {
            svg.append("<line x1=\"")
                    .append(num(LEGEND_X))
                    .append("\" y1=\"")
                    .append(num(row - 4))
                    .append("\" x2=\"")
                    .append(num(LEGEND_X + 28))
                    .append("\" y2=\"")
                    .append(num(row - 4))
                    .append("\" stroke=\"")
                    .append(color(series))
                    .append("\" stroke-width=\"2\"/>\n");
            marker(series, LEGEND_X + 14, row - 4, "", null);
            text(LEGEND_X + 36, row, "", "allowed lateness " + Durations.format(Duration.ofMillis(lateness)));
            row += 20;
            series++;
        }
        if (missedFirstLateness != null) {
            row += 8;
            svg.append("<line x1=\"")
                    .append(num(LEGEND_X + 4))
                    .append("\" y1=\"")
                    .append(num(row - 4))
                    .append("\" x2=\"")
                    .append(num(LEGEND_X + 24))
                    .append("\" y2=\"")
                    .append(num(row - 4))
                    .append("\" stroke=\"")
                    .append(BAND_COLOR)
                    .append("\" stroke-width=\"9\" stroke-linecap=\"round\"/>\n");
            text(LEGEND_X + 36, row, "", "not in their window's first");
            text(
                    LEGEND_X + 36,
                    row + 15,
                    "",
                    "result (lateness " + Durations.format(Duration.ofMillis(missedFirstLateness)) + ")");
            row += 15;
        }
        text(LEGEND_X, row + 30, "fill=\"#444444\"", "Numbers beside the markers:");
        text(LEGEND_X, row + 45, "fill=\"#444444\"", "the watermark delay");
        svg.append("</g>\n");
    }

    private void polyline(
            List<FrontierRow> rows, ToDoubleFunction<FrontierRow> pct, Axis x, Axis y, double unitMs, String stroke) {
        if (rows.isEmpty()) {
            return;
        }
        StringBuilder points = new StringBuilder();
        for (FrontierRow row : rows) {
            points.append(points.length() == 0 ? "" : " ")
                    .append(num(x.at(waitMs(row) / unitMs)))
                    .append(',')
                    .append(num(y.at(pct.applyAsDouble(row))));
        }
        svg.append("<polyline points=\"")
                .append(points)
                .append("\" fill=\"none\" stroke-linejoin=\"round\" ")
                .append(stroke)
                .append("/>\n");
    }

    /**
     * A marker of series {@code series}'s shape and color centered at ({@code cx}, {@code cy}) (drawn
     * around the origin and moved there), with a tooltip when {@code tooltip} is not null.
     */
    private void marker(int series, double cx, double cy, String attributes, @Nullable String tooltip) {
        svg.append("<path ")
                .append(attributes.isEmpty() ? "" : attributes + " ")
                .append("transform=\"translate(")
                .append(num(cx))
                .append(' ')
                .append(num(cy))
                .append(")\" d=\"")
                .append(SHAPES.get(series % SHAPES.size()))
                .append("\" fill=\"")
                .append(color(series))
                .append("\" stroke=\"#ffffff\" stroke-width=\"1\"");
        if (tooltip == null) {
            svg.append("/>\n");
        } else {
            svg.append("><title>").append(escape(tooltip)).append("</title></path>\n");
        }
    }

    /** The wait of a charted row: rows without one (no on-time pane) are set aside before charting. */
    private static double waitMs(FrontierRow row) {
        return Objects.requireNonNull(row.meanWaitMs(), "a charted row has a wait");
    }

    private static String describe(FrontierRow row, long records, boolean seconds) {
        String wait = seconds
                ? String.format(Locale.ROOT, "%.2f s", waitMs(row) / 1000)
                : String.format(Locale.ROOT, "%.0f ms", waitMs(row));
        return String.format(
                Locale.ROOT,
                "delay %s, lateness %s: on-time result %s after the window's end; "
                        + "%.2f%% of records not in the first result; %d dropped (%.2f%%), %d late updates; "
                        + "%d of %d windows exact",
                Durations.format(Duration.ofMillis(row.delayMs())),
                Durations.format(Duration.ofMillis(row.latenessMs())),
                wait,
                100 - row.inFirstPct(),
                row.dropped(),
                droppedPct(row, records),
                row.lateUpdates(),
                row.exactWindows(),
                row.windows());
    }

    private static double droppedPct(FrontierRow row, long records) {
        return records == 0 ? 0 : 100.0 * row.dropped() / records;
    }

    private static String color(int series) {
        return COLORS.get(series % COLORS.size());
    }

    private void line(double x1, double y1, double x2, double y2) {
        svg.append("<line x1=\"")
                .append(num(x1))
                .append("\" y1=\"")
                .append(num(y1))
                .append("\" x2=\"")
                .append(num(x2))
                .append("\" y2=\"")
                .append(num(y2))
                .append("\"/>\n");
    }

    private void text(double x, double y, String attributes, String content) {
        svg.append("<text x=\"")
                .append(num(x))
                .append("\" y=\"")
                .append(num(y))
                .append('"')
                .append(attributes.isEmpty() ? "" : " " + attributes)
                .append('>')
                .append(escape(content))
                .append("</text>\n");
    }

    private static String num(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /** {@code text} with the five characters XML gives a meaning escaped, for element content and attribute values alike. */
    static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&apos;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }

    /**
     * A linear axis from {@code lo} to {@code hi} in data units, drawn from pixel {@code from} (at
     * {@code lo}) to pixel {@code to} (at {@code hi}), with a tick every {@code step}, labelled with
     * {@code decimals} decimals.
     */
    private record Axis(double lo, double hi, double step, int decimals, double from, double to) {

        /**
         * An axis covering {@code min} to {@code max} whose ends and ticks are multiples of a round step
         * (1, 2, 2.5 or 5 times a power of ten), with about {@code ticks} ticks.
         */
        static Axis nice(double min, double max, int ticks, double from, double to) {
            double span = max > min ? max - min : 1;
            double raw = span / ticks;
            int exponent = (int) Math.floor(Math.log10(raw));
            double normalized = raw / Math.pow(10, exponent);
            BigDecimal round = BigDecimal.valueOf(
                            normalized <= 1
                                    ? 1
                                    : normalized <= 2 ? 2 : normalized <= 2.5 ? 2.5 : normalized <= 5 ? 5 : 10)
                    .scaleByPowerOfTen(exponent);
            double step = round.doubleValue();
            double lo = Math.floor(min / step) * step;
            double hi = Math.max(Math.ceil((min + span) / step) * step, lo + step);
            return new Axis(lo, hi, step, Math.max(0, round.stripTrailingZeros().scale()), from, to);
        }

        double at(double value) {
            return from + (value - lo) / (hi - lo) * (to - from);
        }

        List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            long count = Math.round((hi - lo) / step);
            for (long i = 0; i <= count; i++) {
                ticks.add(lo + i * step);
            }
            return ticks;
        }

        String label(double tick) {
            return BigDecimal.valueOf(tick)
                    .setScale(decimals, RoundingMode.HALF_UP)
                    .toPlainString();
        }
    }
}
