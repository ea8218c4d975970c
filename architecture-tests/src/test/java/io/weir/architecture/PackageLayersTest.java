package io.weir.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the packages depend on each other. The internal packages form no cycle, and they are layered as
 * the picture in {@code docs/architecture.md} ("Package layers") draws them: a package uses only the
 * packages of the rows below its own. The picture is read from the document, so the two cannot drift
 * apart: a new package, or a dependency that runs up a row, fails here until the picture says so.
 */
class PackageLayersTest {

    private static final String INTERNALS = "io.weir.streams.internals";
    private static final String ROOT = "(internals)";
    private static final String MARKER = "<!-- package layers:";

    private static final JavaClasses CLASSES = WeirClasses.ALL;

    @Test
    void internalPackagesFormNoCycle() {
        slices().matching(INTERNALS + ".(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    /**
     * The public packages form no cycle either: {@code time}, {@code serde}, {@code state} and {@code errors}
     * at the bottom, the DSL above them, the application's entry points ({@code io.weir.streams}) and the
     * modules' own packages on top.
     */
    @Test
    void publicPackagesFormNoCycle() {
        slices().assignedFrom(new SliceAssignment() {
                    @Override
                    public SliceIdentifier getIdentifierOf(JavaClass type) {
                        String pkg = type.getPackageName();
                        return ApiBoundaryTest.PUBLIC_PACKAGES.contains(pkg)
                                ? SliceIdentifier.of(pkg)
                                : SliceIdentifier.ignore();
                    }

                    @Override
                    public String getDescription() {
                        return "the public packages";
                    }
                })
                .should()
                .beFreeOfCycles()
                .check(CLASSES);
    }

    /**
     * No internal class and public class use each other: the public API reaches into its internals,
     * never the reverse, for the classes that name internals (entry points such as {@code Topology} and
     * {@code WeirStreams}). A public value type an internal class uses must not use that class back.
     */
    @Test
    void noPublicClassAndInternalClassUseEachOther() {
        List<String> circles = new ArrayList<>();
        for (JavaClass internal : CLASSES) {
            if (!internal.getPackageName().startsWith(INTERNALS)) {
                continue;
            }
            for (Dependency out : internal.getDirectDependenciesFromSelf()) {
                JavaClass target = outermost(out.getTargetClass());
                if (target.getPackageName().startsWith("io.weir.streams")
                        && !target.getPackageName().startsWith(INTERNALS)
                        && target.getDirectDependenciesFromSelf().stream()
                                .anyMatch(
                                        back -> outermost(back.getTargetClass()).equals(outermost(internal)))) {
                    circles.add(outermost(internal).getName() + " <-> " + target.getName());
                }
            }
        }
        assertEquals(List.of(), circles.stream().distinct().toList());
    }

    @Test
    void internalPackagesAreLayeredAsArchitectureMdDrawsThem() throws IOException {
        Map<String, Integer> rows = layers();
        Set<String> missing = new TreeSet<>();
        Set<String> upward = new TreeSet<>();
        for (JavaClass origin : CLASSES) {
            String from = layerName(origin.getPackageName());
            if (from == null) {
                continue;
            }
            Integer fromRow = rows.get(from);
            if (fromRow == null) {
                missing.add(from);
                continue;
            }
            for (Dependency out : origin.getDirectDependenciesFromSelf()) {
                String to = layerName(out.getTargetClass().getPackageName());
                if (to == null || to.equals(from)) {
                    continue;
                }
                Integer toRow = rows.get(to);
                if (toRow != null && toRow <= fromRow) {
                    upward.add(from + " -> " + to + " (" + origin.getSimpleName() + " uses "
                            + out.getTargetClass().getSimpleName() + ")");
                }
            }
        }
        assertTrue(missing.isEmpty(), "packages the picture in docs/architecture.md does not show: " + missing);
        assertTrue(
                upward.isEmpty(),
                "dependencies on a package of the same row or a row above, against docs/architecture.md: "
                        + String.join("\n  ", upward));
    }

    /** The picture's rows, top first: package name (under internals) to row number. */
    private static Map<String, Integer> layers() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "docs", "architecture.md"));
        int at = 0;
        while (at < lines.size() && !lines.get(at).startsWith(MARKER)) {
            at++;
        }
        assertTrue(at < lines.size(), "docs/architecture.md has no line starting " + MARKER);
        while (!lines.get(at).startsWith("```")) {
            at++;
        }
        Map<String, Integer> rows = new LinkedHashMap<>();
        int row = 0;
        for (at++; !lines.get(at).startsWith("```"); at++) {
            if (lines.get(at).isBlank()) {
                continue;
            }
            for (String name : lines.get(at).trim().split("\\s+", -1)) {
                assertEquals(null, rows.put(name, row), name + " appears twice in the picture");
            }
            row++;
        }
        return rows;
    }

    /** The picture's name of an internal package ({@code window} for {@code ...internals.window}), or null. */
    private static @Nullable String layerName(String pkg) {
        if (pkg.equals(INTERNALS)) {
            return ROOT;
        }
        if (!pkg.startsWith(INTERNALS + ".")) {
            return null;
        }
        String rest = pkg.substring(INTERNALS.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static JavaClass outermost(JavaClass type) {
        JavaClass c = type.getBaseComponentType();
        while (c.getEnclosingClass().isPresent()) {
            c = c.getEnclosingClass().get();
        }
        return c;
    }
}
