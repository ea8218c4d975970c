package io.weir.benchmarks.runtime;

import io.weir.benchmarks.runtime.NexmarkBenchmark.QueryRuns;
import io.weir.benchmarks.runtime.NexmarkBenchmark.Row;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The Nexmark benchmark's bar chart, as SVG: per query (and instance count), Weir's and Kafka Streams' median
 * events per CPU-second, beside Flink's published per-core figure where there is one, drawn in grey and
 * labelled as another setup. Plain SVG text, no library: the docs embed the file as it is written.
 */
final class NexmarkChart {

    /**
     * Flink 1.13's published Nexmark figures, events per second per core (the nexmark/nexmark project: 8
     * single-slot TaskManagers, exactly-once checkpoints every 3 minutes, RocksDB, 100M events, a datagen
     * source without Kafka). Not the same setup: shown for scale only.
     */
    static final Map<String, Double> FLINK_PER_CORE = Map.ofEntries(
            Map.entry("q0", 155_000.0),
            Map.entry("q1", 158_000.0),
            Map.entry("q2", 175_000.0),
            Map.entry("q3", 152_000.0),
            Map.entry("q4", 34_000.0),
            Map.entry("q5", 22_000.0),
            Map.entry("q7", 12_000.0),
            Map.entry("q8", 146_000.0),
            Map.entry("q9", 14_000.0),
            Map.entry("q11", 40_000.0),
            Map.entry("q12", 76_000.0),
            Map.entry("q17", 117_000.0),
            Map.entry("q18", 54_000.0),
            Map.entry("q19", 44_000.0),
            Map.entry("q20", 19_000.0));

    private static final String WEIR = "#1f6fb2";
    private static final String KAFKA_STREAMS = "#e07b24";
    private static final String FLINK = "#9a9a9a";
    private static final int LEFT = 60;
    private static final int WIDTH = 820;
    private static final int PLOT = 640;
    private static final int TOP = 64;
    private static final int BAR = 10;
    private static final int GROUP = 40;
    private static final int TICKS = 6;

    private NexmarkChart() {}

    /**
     * The chart of {@code all}.
     *
     * @param setup one line saying how the figures were measured
     */
    static String svg(List<QueryRuns> all, String setup) {
        double max = 1;
        for (QueryRuns q : all) {
            for (OptionalDouble v : bars(q)) {
                if (v.isPresent()) {
                    max = Math.max(max, v.getAsDouble());
                }
            }
        }
        double step = niceStep(max / TICKS);
        double scale = PLOT / (step * Math.ceil(max / step));
        int height = TOP + all.size() * GROUP + 70;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">%n<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n",
                WIDTH,
                height,
                WIDTH,
                height,
                WIDTH,
                height));
        text(
                svg,
                LEFT,
                22,
                "font-size=\"15\" font-weight=\"bold\"",
                "Nexmark: events per CPU-second, Weir and Kafka Streams");
        text(svg, LEFT, 40, "fill=\"#444\"", setup);
        text(
                svg,
                LEFT,
                56,
                "fill=\"#444\"",
                "Grey: Flink 1.13's published figure per core, another setup (datagen source, no Kafka, 100M events).");
        int bottom = TOP + all.size() * GROUP;
        for (double tick = 0; tick * scale <= PLOT + 0.5; tick += step) {
            double x = LEFT + tick * scale;
            svg.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    x,
                    TOP,
                    x,
                    bottom));
            text(
                    svg,
                    x,
                    bottom + 14,
                    "text-anchor=\"middle\" fill=\"#666\" font-size=\"10\"",
                    Math.round(tick / 1000) + "K");
        }
        int y = TOP;
        for (QueryRuns q : all) {
            String label = q.instances() == 1 ? q.query() : q.query() + " ×" + q.instances();
            text(svg, LEFT - 8, y + 20, "text-anchor=\"end\"", label);
            String[] colours = {WEIR, KAFKA_STREAMS, FLINK};
            List<OptionalDouble> bars = bars(q);
            for (int i = 0; i < bars.size(); i++) {
                int top = y + 4 + i * (BAR + 1);
                if (bars.get(i).isPresent()) {
                    double value = bars.get(i).getAsDouble();
                    svg.append(String.format(
                            Locale.ROOT,
                            "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n",
                            LEFT,
                            top,
                            value * scale,
                            BAR,
                            colours[i]));
                    text(
                            svg,
                            LEFT + value * scale + 4,
                            top + 9,
                            "font-size=\"9\" fill=\"#333\"",
                            Math.round(value / 1000) + "K");
                } else if (i < 2) {
                    text(svg, LEFT + 4, top + 9, "font-size=\"9\" fill=\"#b00\"", "failed or not run");
                }
            }
            y += GROUP;
        }
        int legend = bottom + 36;
        String[][] keys = {
            {WEIR, "Weir"}, {KAFKA_STREAMS, "Kafka Streams 4.4"}, {FLINK, "Flink, published (other setup)"}
        };
        for (int i = 0; i < keys.length; i++) {
            int x = LEFT + i * 200;
            svg.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
                    x,
                    legend - 10,
                    keys[i][0]));
            text(svg, x + 18, legend, "", keys[i][1]);
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** Weir's and Kafka Streams' medians, and Flink's published per-core figure where there is one. */
    private static List<OptionalDouble> bars(QueryRuns q) {
        List<OptionalDouble> bars = new ArrayList<>();
        for (NexmarkEngine engine : new NexmarkEngine[] {NexmarkEngine.WEIR, NexmarkEngine.KAFKA_STREAMS}) {
            Runs<Row> runs = q.runs().get(engine);
            bars.add(
                    runs == null
                            ? OptionalDouble.empty()
                            : OptionalDouble.of(runs.median().eventsPerCpuSecond()));
        }
        Double flink = FLINK_PER_CORE.get(q.query());
        bars.add(flink == null ? OptionalDouble.empty() : OptionalDouble.of(flink));
        return bars;
    }

    /** A round step (1, 2 or 5 times a power of ten) of at least {@code raw}. */
    private static double niceStep(double raw) {
        double power = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * power >= raw) {
                return m * power;
            }
        }
        return 10 * power;
    }

    private static void text(StringBuilder svg, double x, double y, String attributes, String content) {
        svg.append(String.format(
                Locale.ROOT,
                "<text x=\"%.1f\" y=\"%.1f\" %s>%s</text>%n",
                x,
                y,
                attributes,
                content.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")));
    }
}
