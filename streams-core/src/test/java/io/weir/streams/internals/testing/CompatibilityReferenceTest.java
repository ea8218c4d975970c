package io.weir.streams.internals.testing;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The inventory of docs/reference/compatibility.md names every golden fixture, and only fixtures that exist:
 * a format added with its fixture is added to the promise, and the page never claims a fixture that is not
 * checked.
 */
class CompatibilityReferenceTest {

    private static final Path PAGE = Path.of("..", "docs", "reference", "compatibility.md");
    private static final Path FIXTURES = Path.of("src", "test", "resources", "golden");

    @Test
    void theInventoryNamesEveryGoldenFixture() throws IOException {
        Set<String> fixtures = new TreeSet<>();
        try (Stream<Path> files = Files.list(FIXTURES)) {
            files.map(f -> f.getFileName().toString())
                    .filter(name -> name.endsWith(".hex"))
                    .forEach(name -> fixtures.add(name.substring(0, name.length() - ".hex".length())));
        }
        assertEquals(fixtures, named(Files.readAllLines(PAGE)), "fixtures on disk, and those the page names");
    }

    /** The names in the last column of every table whose last column is "fixtures". */
    private static Set<String> named(List<String> lines) {
        Set<String> named = new TreeSet<>();
        boolean fixtureTable = false;
        for (String line : lines) {
            if (!line.startsWith("|")) {
                fixtureTable = false;
                continue;
            }
            List<String> cells =
                    Arrays.stream(line.split("\\|", -1)).map(String::strip).toList();
            String last = cells.get(cells.size() - 2);
            if (last.equals("fixtures")) {
                fixtureTable = true;
            } else if (fixtureTable && !last.startsWith("---")) {
                Arrays.stream(last.split(","))
                        .map(String::strip)
                        .filter(name -> name.startsWith("`") && name.endsWith("`"))
                        .forEach(name -> named.add(name.substring(1, name.length() - 1)));
            }
        }
        return named;
    }
}
