package io.weir.examples;

import com.sun.source.util.JavacTask;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * Compiles every {@code ```java} block of README.md and docs/**&#47;*.md against this module's test classpath
 * (Weir's modules, the examples' domain types, the test kits, Micrometer, Spring Boot's annotations), so that
 * no sample drifts from the API. One dynamic test per block, named {@code <file>:<line of its fence>}; a
 * failure names the Markdown line of each error.
 *
 * <p>The convention a block follows:
 *
 * <ul>
 *   <li>A block that declares a {@code public} top-level type is a compilation unit, compiled with {@link
 *       #IMPORTS} before it.
 *   <li>Any other block is the body of a method, with the same imports, in a class whose fields are {@link
 *       #CONTEXT}: a sample may use them without declaring them. Types the block declares are local types.
 *   <li>A block that cannot be Java is marked on the line before its fence with {@code <!-- not compiled:
 *       reason -->}. It is reported as skipped, with its reason.
 * </ul>
 *
 * Blocks are only compiled (attributed and flow-checked), never run: nothing is written to disk.
 */
class DocSamplesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final Pattern FENCE = Pattern.compile("^```(\\S*)\\s*$");
    private static final Pattern NOT_COMPILED = Pattern.compile("^<!--\\s*not compiled:(.*)-->\\s*$");
    private static final Pattern PUBLIC_TYPE =
            Pattern.compile("^public\\s+(?:(?:final|abstract|sealed)\\s+)*(?:class|record|interface|enum)\\s+(\\w+)");

    /** What every block may name without an import. */
    private static final String IMPORTS = """
            import io.micrometer.core.instrument.MeterRegistry;
            import io.micrometer.core.instrument.Tags;
            import io.weir.examples.*;
            import io.weir.streams.*;
            import io.weir.streams.dsl.*;
            import io.weir.streams.errors.*;
            import io.weir.streams.micrometer.*;
            import io.weir.streams.serde.*;
            import io.weir.streams.state.*;
            import io.weir.streams.test.*;
            import io.weir.streams.test.kafka.*;
            import io.weir.streams.time.*;
            import java.time.*;
            import java.util.*;
            import java.util.concurrent.*;
            import java.util.function.*;
            import org.apache.kafka.clients.admin.Admin;
            import org.apache.kafka.common.TopicPartition;
            import org.apache.kafka.common.acl.*;
            import org.apache.kafka.common.resource.*;
            import org.jspecify.annotations.Nullable;
            import org.junit.jupiter.api.Test;
            import org.junit.jupiter.api.extension.ExtendWith;
            import org.junit.jupiter.api.extension.RegisterExtension;
            import org.slf4j.Logger;
            import org.springframework.boot.SpringApplication;
            import org.springframework.boot.autoconfigure.SpringBootApplication;
            import org.springframework.context.annotation.Bean;
            import static io.weir.streams.test.Times.*;
            import static org.junit.jupiter.api.Assertions.*;
            """;

    /** The fields a method-body block may use without declaring them. */
    private static final String CONTEXT = """
                StreamsBuilder builder;                  // the topology being built
                EventStream<String, Payment> payments;   // payments keyed by card
                Topology topology;                       // a built topology
                Map<String, Object> config;              // an instance's settings
                WeirStreams app;                         // an instance
                Logger log;
                MeterRegistry registry;
            """;

    /**
     * A {@code ```java} block of a Markdown file: {@code line} is its fence's line, 1-based; {@code notCompiled}
     * the reason it is marked with, or empty.
     */
    private record Block(Path file, int line, List<String> code, String notCompiled) {

        String name() {
            return ROOT.relativize(file) + ":" + line;
        }
    }

    @TestFactory
    Stream<DynamicTest> everyJavaBlockOfTheDocsCompiles() throws IOException {
        List<Block> blocks = new ArrayList<>();
        for (Path file : markdownFiles()) {
            blocks.addAll(blocks(file));
        }
        assertFalse(blocks.isEmpty(), "no ```java block found under " + ROOT);
        List<DynamicTest> tests = new ArrayList<>();
        for (Block block : blocks) {
            URI source = URI.create(block.file().toUri() + "?line=" + block.line());
            String pkg = "docsample" + tests.size();
            tests.add(DynamicTest.dynamicTest(block.name(), source, () -> {
                if (!block.notCompiled().isEmpty()) {
                    abort("not compiled: " + block.notCompiled());
                }
                compile(block, pkg);
            }));
        }
        return tests.stream();
    }

    private static List<Path> markdownFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        return files;
    }

    /** The {@code ```java} blocks of {@code file}; checks every fence closes and every not-compiled mark. */
    private static List<Block> blocks(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            int start = i;
            do {
                i++;
                assertTrue(i < lines.size(), ROOT.relativize(file) + ":" + (start + 1) + ": the block does not end");
            } while (!lines.get(i).equals("```"));
            Matcher mark = NOT_COMPILED.matcher(start > 0 ? lines.get(start - 1) : "");
            String reason = mark.matches() ? mark.group(1).strip() : "";
            String where = ROOT.relativize(file) + ":" + start;
            assertTrue(!mark.matches() || !reason.isEmpty(), where + ": a not-compiled mark needs a reason");
            assertTrue(
                    !mark.matches() || open.group(1).equals("java"),
                    where + ": a not-compiled mark on a block not Java");
            if (open.group(1).equals("java")) {
                blocks.add(new Block(file, start + 1, lines.subList(start + 1, i), reason));
            }
        }
        return blocks;
    }

    /** Compiles {@code block} alone, failing with each error at its line of the Markdown file. */
    private static void compile(Block block, String pkg) throws IOException {
        String unit = block.code().stream()
                .map(PUBLIC_TYPE::matcher)
                .filter(Matcher::find)
                .map(m -> m.group(1))
                .findFirst()
                .orElse(null);
        String header;
        String footer;
        String className;
        if (unit != null) {
            header = "package " + pkg + ";\n" + IMPORTS;
            footer = "";
            className = unit;
        } else {
            header = "package " + pkg + ";\n" + IMPORTS + "abstract class Sample {\n" + CONTEXT
                    + "    void sample() throws Exception {\n";
            footer = "    }\n}\n";
            className = "Sample";
        }
        String source = header + String.join("\n", block.code()) + "\n" + footer;
        long offset = header.lines().count();
        JavaFileObject file =
                new SimpleJavaFileObject(
                        URI.create("string:///" + pkg + "/" + className + ".java"), JavaFileObject.Kind.SOURCE) {
                    @Override
                    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                        return source;
                    }
                };
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager files =
                compiler.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            JavacTask task = (JavacTask) compiler.getTask(
                    null,
                    files,
                    diagnostics,
                    List.of(
                            "--release",
                            "17",
                            "-proc:none",
                            "-classpath",
                            System.getProperty("java.class.path"),
                            "--should-stop=ifError=FLOW"),
                    null,
                    List.of(file));
            // Parses, attributes and checks the flow of the block; generates no class file.
            task.analyze();
        }
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            long line = d.getLineNumber() - offset;
            String where = line >= 1 && line <= block.code().size()
                    ? ROOT.relativize(block.file()) + ":" + (block.line() + line)
                    : "the wrapper of " + block.name() + ", line " + d.getLineNumber();
            errors.add(where + ": " + d.getMessage(Locale.ROOT));
        }
        if (!errors.isEmpty()) {
            fail(String.join("\n", errors));
        }
    }
}
