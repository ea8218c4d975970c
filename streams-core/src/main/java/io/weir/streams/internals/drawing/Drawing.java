package io.weir.streams.internals.drawing;

import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * A graph to draw, in nothing but boxes, lines and groups: what {@code TopologyDescription} hands to
 * {@link DotWriter} and {@link SvgWriter}. Boxes are drawn in the order given where the layout leaves a
 * choice, so the same drawing always gives the same output.
 *
 * @param title  the graph's caption
 * @param groups the framed groups (sub-topologies), in the order they are drawn
 * @param boxes  every box; ids are unique
 * @param lines  lines between boxes, by id
 */
public record Drawing(String title, List<Group> groups, List<Box> boxes, List<Line> lines) {

    public Drawing {
        groups = List.copyOf(groups);
        boxes = List.copyOf(boxes);
        lines = List.copyOf(lines);
    }

    /** A framed group of boxes with a caption. */
    public record Group(String id, String caption) {}

    /**
     * A box: {@code text} one line each, the first the box's title.
     *
     * @param group the group it is framed in, or null for a box outside every group (a topic)
     */
    public record Box(
            String id,
            List<String> text,
            Shape shape,
            @Nullable String group) {

        public Box {
            text = List.copyOf(text);
        }
    }

    /** What a box stands for, which its outline shows. */
    public enum Shape {
        /** Where records enter a group (a source): a rounded box. */
        SOURCE,
        /** An operator: a box. */
        PROCESSOR,
        /** Where records leave a group (a sink): a rounded box. */
        SINK,
        /** A state store: a cylinder. */
        STORE,
        /** A user topic: an ellipse. */
        TOPIC,
        /** A topic the application makes (a repartition topic): a dashed ellipse. */
        INTERNAL_TOPIC
    }

    /** A line from one box to another. */
    public record Line(String from, String to, Style style) {}

    /** How a line is drawn. */
    public enum Style {
        /** Records flow along it: a solid arrow. */
        FLOW,
        /** Records diverted to a side output: a dashed arrow. */
        SIDE_OUTPUT,
        /** An operator uses a store: a dotted line without an arrow. */
        STORE
    }
}
