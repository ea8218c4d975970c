package io.weir.streams.internals.drawing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@link Drawing} as a standalone SVG image, laid out without Graphviz: each group is a band, the bands
 * stacked top to bottom with a group that writes a topic above the groups that read it. Inside a band,
 * boxes sit in rows by the longest path that reaches them (the topics a group reads above its frame, the
 * topics it writes below it, a store in the row of its first operator), ordered in each row by the mean
 * position of the boxes above them that they are joined to, which keeps most lines short and uncrossed.
 * Lines are curves from the bottom of a box to the top of the next; a store's line runs from side to side.
 * The same drawing always gives the same image, byte for byte.
 */
public final class SvgWriter {

    private static final double CHAR_WIDTH = 7.0;
    private static final double LINE_HEIGHT = 15;
    private static final double PAD_X = 10;
    private static final double PAD_Y = 7;
    private static final double GAP_X = 24;
    private static final double GAP_Y = 40;
    private static final double MARGIN = 20;
    private static final double FRAME_PAD = 14;
    private static final double CAPTION = 18;
    private static final double BAND_GAP = 30;

    private SvgWriter() {}

    /** A placed box: its top-left corner and size. */
    private static final class Placed {
        final Drawing.Box box;
        final int band;
        int layer;
        double x;
        double y;
        final double width;
        final double height;

        Placed(Drawing.Box box, int band) {
            this.box = box;
            this.band = band;
            int longest = box.text().stream().mapToInt(String::length).max().orElse(0);
            this.width = Math.max(60, longest * CHAR_WIDTH + 2 * PAD_X);
            this.height = box.text().size() * LINE_HEIGHT + 2 * PAD_Y;
        }

        double centerX() {
            return x + width / 2;
        }
    }

    /** The SVG text of {@code drawing}, ending with a newline. */
    public static String write(Drawing drawing) {
        List<Drawing.Group> bands = bandOrder(drawing);
        Map<String, Integer> bandOfGroup = new HashMap<>();
        for (int i = 0; i < bands.size(); i++) {
            bandOfGroup.put(bands.get(i).id(), i);
        }
        Map<String, Placed> placed = new LinkedHashMap<>();
        for (Drawing.Box box : drawing.boxes()) {
            placed.put(box.id(), new Placed(box, bandOf(box, drawing, bandOfGroup)));
        }
        double y = MARGIN + CAPTION + 10;
        double width = 0;
        List<double[]> frames = new ArrayList<>();
        List<List<List<Placed>>> allRows = new ArrayList<>();
        for (int band = 0; band < bands.size(); band++) {
            List<List<Placed>> rows = rows(drawing, placed, band);
            allRows.add(rows);
            double frameTop = -1;
            double frameBottom = -1;
            boolean earlierRow = false;
            for (List<Placed> row : rows) {
                if (row.isEmpty()) {
                    continue;
                }
                boolean framed = row.stream().anyMatch(p -> p.box.group() != null);
                if (framed && frameTop < 0) {
                    frameTop = earlierRow ? y - GAP_Y / 2 : y;
                    y = frameTop + CAPTION + FRAME_PAD;
                }
                double rowHeight = row.stream().mapToDouble(p -> p.height).max().orElse(0);
                for (Placed p : row) {
                    p.y = y + (rowHeight - p.height) / 2;
                }
                if (framed) {
                    frameBottom = y + rowHeight + FRAME_PAD;
                }
                y += rowHeight + GAP_Y;
                width = Math.max(width, rowWidth(row));
                earlierRow = true;
            }
            frames.add(new double[] {frameTop, frameBottom});
            y = Math.max(y - GAP_Y, frameBottom) + BAND_GAP;
        }
        width = Math.max(width + 2 * FRAME_PAD, drawing.title().length() * CHAR_WIDTH * 1.2);
        double total = width + 2 * MARGIN;
        for (List<List<Placed>> rows : allRows) {
            for (List<Placed> row : rows) {
                double x = MARGIN + (width - rowWidth(row)) / 2;
                for (Placed p : row) {
                    p.x = x;
                    x += p.width + GAP_X;
                }
            }
        }
        double height = y - BAND_GAP + MARGIN;
        StringBuilder out = new StringBuilder();
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(num(total))
                .append("\" height=\"")
                .append(num(height))
                .append("\" viewBox=\"0 0 ")
                .append(num(total))
                .append(' ')
                .append(num(height))
                .append("\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n");
        out.append("  <title>").append(escape(drawing.title())).append("</title>\n");
        out.append("  <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" "
                + "markerHeight=\"7\" orient=\"auto\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#555555\"/>"
                + "</marker></defs>\n");
        out.append("  <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
        out.append("  <text x=\"")
                .append(num(MARGIN))
                .append("\" y=\"")
                .append(num(MARGIN + 12))
                .append("\" font-size=\"14\" font-weight=\"bold\">")
                .append(escape(drawing.title()))
                .append("</text>\n");
        for (int band = 0; band < bands.size(); band++) {
            double[] frame = frames.get(band);
            if (frame[0] < 0) {
                continue;
            }
            out.append("  <rect x=\"")
                    .append(num(MARGIN))
                    .append("\" y=\"")
                    .append(num(frame[0]))
                    .append("\" width=\"")
                    .append(num(width))
                    .append("\" height=\"")
                    .append(num(frame[1] - frame[0]))
                    .append("\" rx=\"8\" fill=\"#f7f7f9\" stroke=\"#999999\"/>\n");
            out.append("  <text x=\"")
                    .append(num(MARGIN + 10))
                    .append("\" y=\"")
                    .append(num(frame[0] + 16))
                    .append("\" font-weight=\"bold\" fill=\"#555555\">")
                    .append(escape(bands.get(band).caption()))
                    .append("</text>\n");
        }
        for (Drawing.Line line : drawing.lines()) {
            Placed from = placed.get(line.from());
            Placed to = placed.get(line.to());
            if (from != null && to != null) {
                out.append("  ").append(line(from, to, line.style())).append('\n');
            }
        }
        for (Placed p : placed.values()) {
            box(out, p);
        }
        out.append("</svg>\n");
        return out.toString();
    }

    /** The groups, each writer before the groups that read what it writes where that is possible; else as given. */
    private static List<Drawing.Group> bandOrder(Drawing drawing) {
        Map<String, String> groupOf = new HashMap<>();
        drawing.boxes().forEach(b -> groupOf.put(b.id(), b.group() == null ? "" : b.group()));
        // A topic's writer comes before its readers: follow lines through ungrouped boxes.
        Map<String, List<String>> after = new HashMap<>();
        for (Drawing.Line in : drawing.lines()) {
            String writer = groupOf.getOrDefault(in.from(), "");
            if (writer.isEmpty() || in.style() == Drawing.Style.STORE) {
                continue;
            }
            for (Drawing.Line out : drawing.lines()) {
                if (out.from().equals(in.to())
                        && groupOf.getOrDefault(in.to(), "").isEmpty()) {
                    String reader = groupOf.getOrDefault(out.to(), "");
                    if (!reader.isEmpty() && !reader.equals(writer)) {
                        after.computeIfAbsent(reader, k -> new ArrayList<>()).add(writer);
                    }
                }
            }
        }
        List<Drawing.Group> order = new ArrayList<>();
        List<Drawing.Group> left = new ArrayList<>(drawing.groups());
        while (!left.isEmpty()) {
            Drawing.Group next = left.get(0);
            for (Drawing.Group g : left) {
                boolean ready = after.getOrDefault(g.id(), List.of()).stream()
                        .allMatch(w -> order.stream().anyMatch(o -> o.id().equals(w)));
                if (ready) {
                    next = g;
                    break;
                }
            }
            order.add(next);
            left.remove(next);
        }
        return order;
    }

    /** A grouped box's band; a topic's is its first writer's, else its first reader's, else the first. */
    private static int bandOf(Drawing.Box box, Drawing drawing, Map<String, Integer> bandOfGroup) {
        if (box.group() != null) {
            return bandOfGroup.getOrDefault(box.group(), 0);
        }
        Map<String, Drawing.Box> byId = new HashMap<>();
        drawing.boxes().forEach(b -> byId.put(b.id(), b));
        for (boolean writer : new boolean[] {true, false}) {
            for (Drawing.Line line : drawing.lines()) {
                String other = writer
                        ? (line.to().equals(box.id()) ? line.from() : null)
                        : (line.from().equals(box.id()) ? line.to() : null);
                Drawing.Box b = other == null ? null : byId.get(other);
                if (b != null && b.group() != null) {
                    return bandOfGroup.getOrDefault(b.group(), 0);
                }
            }
        }
        return 0;
    }

    /**
     * The rows of {@code band}: row 0 the topics it reads, then its framed boxes by longest path, then the
     * topics it writes; each row ordered by the mean position of the boxes above joined to them.
     */
    private static List<List<Placed>> rows(Drawing drawing, Map<String, Placed> placed, int band) {
        List<Placed> members =
                placed.values().stream().filter(p -> p.band == band).toList();
        Map<String, Placed> inBand = new LinkedHashMap<>();
        members.forEach(p -> inBand.put(p.box.id(), p));
        List<Drawing.Line> flows = drawing.lines().stream()
                .filter(l -> l.style() != Drawing.Style.STORE)
                .filter(l -> inBand.containsKey(l.from()) && inBand.containsKey(l.to()))
                .toList();
        List<Placed> framed = members.stream()
                .filter(p -> p.box.group() != null && p.box.shape() != Drawing.Shape.STORE)
                .toList();
        framed.forEach(p -> p.layer = 1);
        // Longest path by relaxation; a cycle (none in a topology) stops after as many rounds as boxes.
        for (int round = 0; round < framed.size(); round++) {
            boolean moved = false;
            for (Drawing.Line l : flows) {
                Placed from = inBand.get(l.from());
                Placed to = inBand.get(l.to());
                if (from != null
                        && to != null
                        && from.box.group() != null
                        && to.box.group() != null
                        && to.layer < from.layer + 1) {
                    to.layer = from.layer + 1;
                    moved = true;
                }
            }
            if (!moved) {
                break;
            }
        }
        int last = framed.stream().mapToInt(p -> p.layer).max().orElse(0);
        for (Placed p : members) {
            if (p.box.shape() == Drawing.Shape.STORE) {
                p.layer = drawing.lines().stream()
                        .filter(l -> l.style() == Drawing.Style.STORE && l.to().equals(p.box.id()))
                        .map(l -> inBand.get(l.from()))
                        .filter(u -> u != null && u.box.group() != null)
                        .mapToInt(u -> u.layer)
                        .min()
                        .orElse(Math.max(1, last));
            } else if (p.box.group() == null) {
                boolean written = flows.stream().anyMatch(l -> l.to().equals(p.box.id()));
                p.layer = written ? last + 1 : 0;
            }
        }
        List<List<Placed>> rows = new ArrayList<>();
        for (int layer = 0; layer <= last + 1; layer++) {
            int at = layer;
            rows.add(new ArrayList<>(members.stream().filter(p -> p.layer == at).toList()));
        }
        // Provisional x: left to right in each row, each row ordered by the boxes above joined to its boxes;
        // a store goes right after its first operator in the row.
        Map<Placed, Double> index = new HashMap<>();
        for (List<Placed> row : rows) {
            Map<Placed, Double> key = new HashMap<>();
            List<Placed> stores = new ArrayList<>();
            for (int i = 0; i < row.size(); i++) {
                Placed p = row.get(i);
                if (p.box.shape() == Drawing.Shape.STORE) {
                    stores.add(p);
                    continue;
                }
                double sum = 0;
                int n = 0;
                for (Drawing.Line l : drawing.lines()) {
                    Placed o = l.to().equals(p.box.id()) ? inBand.get(l.from()) : null;
                    Double at = o == null ? null : index.get(o);
                    if (at != null) {
                        sum += at;
                        n++;
                    }
                }
                key.put(p, n == 0 ? i : sum / n + i * 1e-6);
            }
            row.removeAll(stores);
            row.sort(Comparator.comparingDouble(p -> key.getOrDefault(p, 0.0)));
            for (Placed store : stores) {
                int at = row.size();
                for (Drawing.Line l : drawing.lines()) {
                    Placed user = l.to().equals(store.box.id()) ? inBand.get(l.from()) : null;
                    if (user != null && row.contains(user)) {
                        at = row.indexOf(user) + 1;
                        while (at < row.size() && stores.contains(row.get(at))) {
                            at++;
                        }
                        break;
                    }
                }
                row.add(at, store);
            }
            double x = 0;
            for (Placed p : row) {
                index.put(p, x + p.width / 2);
                x += p.width + GAP_X;
            }
            double shift = x / 2;
            row.forEach(p -> index.put(p, index.getOrDefault(p, 0.0) - shift));
        }
        return rows;
    }

    private static double rowWidth(List<Placed> row) {
        return row.stream().mapToDouble(p -> p.width).sum() + Math.max(0, row.size() - 1) * GAP_X;
    }

    private static String line(Placed from, Placed to, Drawing.Style style) {
        String look = switch (style) {
            case FLOW -> "stroke=\"#555555\" marker-end=\"url(#arrow)\"";
            case SIDE_OUTPUT -> "stroke=\"#aa5500\" stroke-dasharray=\"6 4\" marker-end=\"url(#arrow)\"";
            case STORE -> "stroke=\"#777777\" stroke-dasharray=\"2 3\"";
        };
        String path;
        if (Math.abs((from.y + from.height / 2) - (to.y + to.height / 2)) < 1) {
            boolean right = to.x > from.x;
            double x1 = right ? from.x + from.width : from.x;
            double x2 = right ? to.x : to.x + to.width;
            double y1 = from.y + from.height / 2;
            double y2 = to.y + to.height / 2;
            path = "M " + num(x1) + " " + num(y1) + " L " + num(x2) + " " + num(y2);
        } else {
            boolean down = to.y > from.y;
            double x1 = from.centerX();
            double y1 = down ? from.y + from.height : from.y;
            double x2 = to.centerX();
            double y2 = down ? to.y : to.y + to.height;
            double bend = (y2 - y1) / 2;
            path = "M " + num(x1) + " " + num(y1) + " C " + num(x1) + " " + num(y1 + bend) + " " + num(x2) + " "
                    + num(y2 - bend) + " " + num(x2) + " " + num(y2);
        }
        return "<path d=\"" + path + "\" fill=\"none\" " + look + "/>";
    }

    private static void box(StringBuilder out, Placed p) {
        String x = num(p.x);
        String y = num(p.y);
        String w = num(p.width);
        String h = num(p.height);
        switch (p.box.shape()) {
            case SOURCE -> rect(out, x, y, w, h, "10", "#e3f2e1", "#4b8b3b", "");
            case SINK -> rect(out, x, y, w, h, "10", "#fbe9d7", "#b86b25", "");
            case PROCESSOR -> rect(out, x, y, w, h, "2", "#e4ecf7", "#4a6fa5", "");
            case TOPIC -> rect(out, x, y, w, h, num(p.height / 2), "#ffffff", "#555555", "");
            case INTERNAL_TOPIC ->
                rect(out, x, y, w, h, num(p.height / 2), "#ffffff", "#555555", " stroke-dasharray=\"5 3\"");
            case STORE -> {
                double ry = 5;
                double right = p.x + p.width;
                double bottom = p.y + p.height;
                out.append("  <path d=\"M ")
                        .append(x)
                        .append(' ')
                        .append(num(p.y + ry))
                        .append(" A ")
                        .append(num(p.width / 2))
                        .append(' ')
                        .append(num(ry))
                        .append(" 0 0 1 ")
                        .append(num(right))
                        .append(' ')
                        .append(num(p.y + ry))
                        .append(" L ")
                        .append(num(right))
                        .append(' ')
                        .append(num(bottom - ry))
                        .append(" A ")
                        .append(num(p.width / 2))
                        .append(' ')
                        .append(num(ry))
                        .append(" 0 0 1 ")
                        .append(x)
                        .append(' ')
                        .append(num(bottom - ry))
                        .append(" Z M ")
                        .append(x)
                        .append(' ')
                        .append(num(p.y + ry))
                        .append(" A ")
                        .append(num(p.width / 2))
                        .append(' ')
                        .append(num(ry))
                        .append(" 0 0 0 ")
                        .append(num(right))
                        .append(' ')
                        .append(num(p.y + ry))
                        .append("\" fill=\"#fdf6d8\" stroke=\"#a08a2a\"/>\n");
            }
        }
        List<String> text = p.box.text();
        for (int i = 0; i < text.size(); i++) {
            out.append("  <text x=\"")
                    .append(num(p.centerX()))
                    .append("\" y=\"")
                    .append(num(p.y + PAD_Y + LINE_HEIGHT * (i + 1) - 4))
                    .append("\" text-anchor=\"middle\"")
                    .append(i == 0 ? " font-weight=\"bold\"" : " font-size=\"11\" fill=\"#444444\"")
                    .append('>')
                    .append(escape(text.get(i)))
                    .append("</text>\n");
        }
    }

    private static void rect(
            StringBuilder out,
            String x,
            String y,
            String w,
            String h,
            String rx,
            String fill,
            String stroke,
            String more) {
        out.append("  <rect x=\"")
                .append(x)
                .append("\" y=\"")
                .append(y)
                .append("\" width=\"")
                .append(w)
                .append("\" height=\"")
                .append(h)
                .append("\" rx=\"")
                .append(rx)
                .append("\" fill=\"")
                .append(fill)
                .append("\" stroke=\"")
                .append(stroke)
                .append('"')
                .append(more)
                .append("/>\n");
    }

    /** A coordinate with at most one decimal, the same on every machine. */
    private static String num(double v) {
        String s = String.format(Locale.ROOT, "%.1f", v);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    /** {@code s} escaped for XML text and attribute values. */
    static String escape(String s) {
        return s.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;")
                .replace("'", "&apos;");
    }
}
