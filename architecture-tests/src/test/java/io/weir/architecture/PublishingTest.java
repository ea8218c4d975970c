package io.weir.architecture;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The build is ready to publish: license files, the metadata a repository requires, a sources and a
 * Javadoc jar for every published module, and a BOM that lists exactly the published modules at the
 * reactor's version.
 */
class PublishingTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static Document pom(String module) throws Exception {
        Path file = module.isEmpty()
                ? ROOT.resolve("pom.xml")
                : ROOT.resolve(module).resolve("pom.xml");
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(file.toFile());
    }

    private static String text(Document pom, String path) throws Exception {
        return XPathFactory.newInstance().newXPath().evaluate(path, pom).trim();
    }

    private static List<String> texts(Document pom, String path) throws Exception {
        NodeList nodes = (NodeList) XPathFactory.newInstance().newXPath().evaluate(path, pom, XPathConstants.NODESET);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add(nodes.item(i).getTextContent().trim());
        }
        return out;
    }

    /** The reactor's modules that are deployed (not marked {@code maven.deploy.skip}), BOM aside. */
    private static Set<String> publishedJarModules() throws Exception {
        Set<String> published = new TreeSet<>();
        for (String module : texts(pom(""), "/project/modules/module")) {
            Document pom = pom(module);
            if (!"true".equals(text(pom, "/project/properties/*[local-name()='maven.deploy.skip']"))
                    && !"pom".equals(text(pom, "/project/packaging"))) {
                published.add(module);
            }
        }
        return published;
    }

    @Test
    void theRepositoryCarriesTheApacheLicenseAndANotice() throws Exception {
        String license = Files.readString(ROOT.resolve("LICENSE"));
        assertTrue(license.contains("Apache License") && license.contains("Version 2.0, January 2004"));
        assertTrue(Files.readString(ROOT.resolve("NOTICE")).startsWith("Weir\n"));
    }

    @Test
    void theParentAndTheBomDeclareWhatARepositoryRequires() throws Exception {
        for (String module : List.of("", "weir-bom")) {
            Document pom = pom(module);
            for (String field : List.of(
                    "name",
                    "description",
                    "url",
                    "licenses/license/name",
                    "scm/url",
                    "scm/connection",
                    "developers/developer/name")) {
                assertFalse(text(pom, "/project/" + field).isEmpty(), "pom of '" + module + "' lacks " + field);
            }
        }
    }

    @Test
    void everyPublishedModuleAttachesSourcesAndJavadoc() throws Exception {
        Set<String> published = publishedJarModules();
        assertEquals(
                Set.of(
                        "streams-core",
                        "streams-test-broker",
                        "streams-test-utils",
                        "streams-micrometer",
                        "streams-spring-boot-starter"),
                published);
        for (String module : published) {
            List<String> plugins = texts(pom(module), "/project/build/plugins/plugin/artifactId");
            assertTrue(
                    plugins.containsAll(List.of("maven-source-plugin", "maven-javadoc-plugin")),
                    module + " attaches " + plugins);
        }
    }

    @Test
    void theBomListsExactlyThePublishedModulesAtTheReactorsVersionAndInheritsNothing() throws Exception {
        Document bom = pom("weir-bom");
        String version = text(pom(""), "/project/version");
        assertEquals("", text(bom, "/project/parent/artifactId"), "an imported BOM must not bring the parent's pins");
        assertEquals(version, text(bom, "/project/version"));
        String weir = "/project/dependencyManagement/dependencies/dependency[groupId='io.weir']";
        assertEquals(publishedJarModules(), new TreeSet<>(texts(bom, weir + "/artifactId")));
        assertEquals(Set.of(version), new TreeSet<>(texts(bom, weir + "/version")));
    }

    /**
     * A user who imports the BOM gets the Kafka and Jackson lines Weir is built and tested with: the
     * BOM pins them at weir-parent's versions, so a build without Weir's parent does not mix Kafka's
     * broker's Jackson modules with Weir's databind.
     */
    @Test
    void theBomAlignsKafkaJacksonAndRocksDbAtTheParentsVersions() throws Exception {
        Document bom = pom("weir-bom");
        Document parent = pom("");
        Map<String, String> aligned = new TreeMap<>();
        for (String artifact : List.of(
                "kafka-clients", "kafka_2.13", "kafka-server", "kafka-server-common", "rocksdbjni", "jackson-bom")) {
            String managed = "/project/dependencyManagement/dependencies/dependency[artifactId='" + artifact + "']";
            String property = text(parent, managed + "/version").replaceAll("^\\$\\{(.*)}$", "$1");
            aligned.put(artifact, text(parent, "/project/properties/*[local-name()='" + property + "']"));
            assertFalse(aligned.get(artifact).isEmpty(), artifact + " is pinned by a property of weir-parent");
            assertEquals(aligned.get(artifact), text(bom, managed + "/version"), artifact);
        }
        assertEquals(
                "import",
                text(bom, "/project/dependencyManagement/dependencies/dependency[artifactId='jackson-bom']/scope"),
                "every Jackson module follows one version");
    }
}
