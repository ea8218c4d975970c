package io.weir.examples;

import io.weir.streams.TopologyDescription;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps docs/examples.md true: for each example, the block after {@code <!-- topology: <name> -->} is the
 * current text of its {@code Topology.describe()}, and {@code docs/images/topology-<name>.svg} its current
 * {@code toSvg()}. One dynamic test per example. After changing an example (or the description's format),
 * run this test with {@code -Dweir.docs.write=true} to rewrite both, then review the diff.
 */
class ExampleTopologiesTest {

    static final String WRITE_PROPERTY = "weir.docs.write";
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path PAGE = ROOT.resolve("docs/examples.md");

    @TestFactory
    Stream<DynamicTest> docsShowEachExamplesCurrentTopology() {
        boolean write = Boolean.getBoolean(WRITE_PROPERTY);
        return Examples.all().stream()
                .map(example -> DynamicTest.dynamicTest(example.name(), () -> {
                    TopologyDescription description;
                    try (ExampleResources resources = new ExampleResources()) {
                        description = example.topology().apply(resources).describe();
                    }
                    Path svg = ROOT.resolve("docs/images/topology-" + example.name() + ".svg");
                    if (write) {
                        Files.writeString(svg, description.toSvg(), StandardCharsets.UTF_8);
                        Files.writeString(
                                PAGE,
                                withBlock(
                                        Files.readString(PAGE, StandardCharsets.UTF_8),
                                        example.name(),
                                        description.toString()),
                                StandardCharsets.UTF_8);
                    }
                    assertEquals(
                            description.toString(),
                            block(Files.readString(PAGE, StandardCharsets.UTF_8), example.name()),
                            "docs/examples.md shows an old description of '" + example.name()
                                    + "'; run this test with -D" + WRITE_PROPERTY + "=true to rewrite it");
                    assertTrue(
                            Files.exists(svg), svg + " is missing; run this test with -D" + WRITE_PROPERTY + "=true");
                    assertEquals(
                            description.toSvg(),
                            Files.readString(svg, StandardCharsets.UTF_8),
                            svg + " is an old drawing; run this test with -D" + WRITE_PROPERTY + "=true to redraw it");
                    assertTrue(
                            Files.readString(PAGE, StandardCharsets.UTF_8)
                                    .contains("(images/topology-" + example.name() + ".svg)"),
                            "docs/examples.md does not show images/topology-" + example.name() + ".svg");
                }));
    }

    /** The lines of the {@code ```text} block after {@code <!-- topology: name -->}, each ending with a newline. */
    private static String block(String page, String name) throws IOException {
        List<String> lines = page.lines().toList();
        int at = marker(lines, name);
        StringBuilder out = new StringBuilder();
        for (int i = at + 2; i < lines.size() && !lines.get(i).equals("```"); i++) {
            out.append(lines.get(i)).append('\n');
        }
        return out.toString();
    }

    /** {@code page} with the block after {@code <!-- topology: name -->} replaced by {@code text}. */
    private static String withBlock(String page, String name, String text) throws IOException {
        List<String> lines = new ArrayList<>(page.lines().toList());
        int at = marker(lines, name);
        int end = at + 2;
        while (end < lines.size() && !lines.get(end).equals("```")) {
            end++;
        }
        lines.subList(at + 2, end).clear();
        lines.addAll(at + 2, text.lines().toList());
        return String.join("\n", lines) + "\n";
    }

    private static int marker(List<String> lines, String name) throws IOException {
        int at = lines.indexOf("<!-- topology: " + name + " -->");
        if (at < 0 || at + 1 >= lines.size() || !lines.get(at + 1).equals("```text")) {
            throw new IOException(
                    "docs/examples.md has no '<!-- topology: " + name + " -->' line followed by a ```text block");
        }
        return at;
    }
}
