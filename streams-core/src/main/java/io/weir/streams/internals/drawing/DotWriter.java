package io.weir.streams.internals.drawing;

import java.util.List;

/**
 * A {@link Drawing} in Graphviz's DOT language: one {@code cluster_<n>} subgraph per group, boxes outside
 * every group at the top level, every id and label quoted. Render with {@code dot -Tsvg}.
 */
public final class DotWriter {

    private DotWriter() {}

    /** The DOT text of {@code drawing}, ending with a newline. */
    public static String write(Drawing drawing) {
        StringBuilder out = new StringBuilder();
        out.append("digraph ").append(quote(drawing.title())).append(" {\n");
        out.append("  label=").append(quote(drawing.title())).append(";\n");
        out.append("  labelloc=t;\n  rankdir=TB;\n  fontname=\"Helvetica\";\n");
        out.append("  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n");
        for (int g = 0; g < drawing.groups().size(); g++) {
            Drawing.Group group = drawing.groups().get(g);
            out.append("  subgraph ").append(quote("cluster_" + g)).append(" {\n");
            out.append("    label=").append(quote(group.caption())).append(";\n");
            out.append("    style=rounded;\n    color=\"#888888\";\n");
            for (Drawing.Box box : drawing.boxes()) {
                if (group.id().equals(box.group())) {
                    out.append("    ").append(box(box)).append('\n');
                }
            }
            out.append("  }\n");
        }
        for (Drawing.Box box : drawing.boxes()) {
            if (box.group() == null) {
                out.append("  ").append(box(box)).append('\n');
            }
        }
        for (Drawing.Line line : drawing.lines()) {
            out.append("  ")
                    .append(quote(line.from()))
                    .append(" -> ")
                    .append(quote(line.to()))
                    .append(
                            switch (line.style()) {
                                case FLOW -> "";
                                case SIDE_OUTPUT -> " [style=dashed]";
                                case STORE -> " [style=dotted, arrowhead=none]";
                            })
                    .append(";\n");
        }
        out.append("}\n");
        return out.toString();
    }

    private static String box(Drawing.Box box) {
        String attributes = switch (box.shape()) {
            case SOURCE, SINK -> "shape=box, style=rounded";
            case PROCESSOR -> "shape=box";
            case STORE -> "shape=cylinder";
            case TOPIC -> "shape=ellipse";
            case INTERNAL_TOPIC -> "shape=ellipse, style=dashed";
        };
        return quote(box.id()) + " [" + attributes + ", label=" + quote(label(box.text())) + "];";
    }

    /** The lines of a label, joined by DOT's {@code \n} escape. */
    private static String label(List<String> text) {
        return String.join("\n", text);
    }

    /** {@code s} as a DOT quoted string: quotes and backslashes escaped, newlines as {@code \n}. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> {}
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
