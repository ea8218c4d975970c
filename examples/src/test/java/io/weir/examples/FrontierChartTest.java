package io.weir.examples;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrontierChartTest {

    static final String SVG_NS = "http://www.w3.org/2000/svg";
    private static final Pattern TRANSLATE = Pattern.compile("translate\\(([-0-9.]+) ([-0-9.]+)\\)");

    /**
     * Three delays by two latenesses over 1,000 records, and one setting without a mean wait. Dropped
     * shares: 6.0, 2.0, 0.5 % at lateness 0 and 1.0, 0.3, 0 % at lateness 10 s.
     */
    private static final List<FrontierRow> ROWS = List.of(
            new FrontierRow(0, 0, 60, 0, 94.0, 10, 50, 200.0, 5),
            new FrontierRow(0, 10_000, 10, 50, 94.1, 40, 50, 200.0, 10),
            new FrontierRow(2_000, 0, 20, 0, 98.0, 30, 50, 2_200.0, 10),
            new FrontierRow(2_000, 10_000, 3, 17, 98.0, 45, 50, 2_200.0, 15),
            new FrontierRow(10_000, 0, 5, 0, 99.5, 45, 50, 10_200.0, 10),
            new FrontierRow(10_000, 10_000, 0, 5, 99.5, 50, 50, 10_200.0, 15),
            new FrontierRow(60_000, 0, 0, 0, 100.0, 50, 50, null, 1));

    /** {@code svg} parsed with the JDK's XML parser (namespace-aware, no DOCTYPE allowed); fails on anything not well-formed. */
    static Document parse(String svg) throws ParserConfigurationException, IOException, SAXException {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
    }

    /** The elements of {@code document} whose class attribute is {@code name}. */
    static List<Element> ofClass(Document document, String name) {
        List<Element> found = new ArrayList<>();
        NodeList all = document.getElementsByTagNameNS(SVG_NS, "*");
        for (int i = 0; i < all.getLength(); i++) {
            Element element = (Element) all.item(i);
            if (element.getAttribute("class").equals(name)) {
                found.add(element);
            }
        }
        return found;
    }

    /** The text content of every {@code text} element under {@code root}, in document order. */
    static List<String> texts(Element root) {
        List<String> texts = new ArrayList<>();
        NodeList nodes = root.getElementsByTagNameNS(SVG_NS, "text");
        for (int i = 0; i < nodes.getLength(); i++) {
            texts.add(nodes.item(i).getTextContent());
        }
        return texts;
    }

    private static Document chart() throws Exception {
        return parse(FrontierChart.svg(ROWS, "events.csv", 1_000, Duration.ofSeconds(10)));
    }

    private static Element only(Document document, String className) {
        List<Element> elements = ofClass(document, className);
        assertEquals(1, elements.size(), className);
        return elements.get(0);
    }

    private static double[] center(Element marker) {
        Matcher m = TRANSLATE.matcher(marker.getAttribute("transform"));
        assertTrue(m.matches(), marker.getAttribute("transform"));
        return new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))};
    }

    private static String tooltip(Element marker) {
        return marker.getElementsByTagNameNS(SVG_NS, "title").item(0).getTextContent();
    }

    @Test
    void aSelfContainedSvgDocumentWithAViewBoxAndTheSansSerifFont() throws Exception {
        String svg = FrontierChart.svg(ROWS, "events.csv", 1_000, Duration.ofSeconds(10));
        Element root = parse(svg).getDocumentElement();
        assertEquals(SVG_NS, root.getNamespaceURI());
        assertEquals("svg", root.getLocalName());
        assertEquals("1.1", root.getAttribute("version"));
        assertEquals("0 0 900 500", root.getAttribute("viewBox"));
        assertEquals("sans-serif", root.getAttribute("font-family"));
        for (String outside : new String[] {"<script", "<style", "href", "@import", "url("}) {
            assertFalse(svg.contains(outside), outside);
        }
    }

    @Test
    void oneMarkerPerRowWithAWaitEachNamingItsSetting() throws Exception {
        Document chart = chart();
        List<String> tooltips = ofClass(chart, FrontierChart.POINT_CLASS).stream()
                .map(FrontierChartTest::tooltip)
                .toList();
        assertEquals(6, tooltips.size(), tooltips.toString());
        for (String setting : new String[] {
            "delay 0s, lateness 0s:",
            "delay 0s, lateness 10s:",
            "delay 2s, lateness 0s:",
            "delay 2s, lateness 10s:",
            "delay 10s, lateness 0s:",
            "delay 10s, lateness 10s:"
        }) {
            assertEquals(1, tooltips.stream().filter(t -> t.startsWith(setting)).count(), setting + " in " + tooltips);
        }
        assertTrue(
                tooltips.contains(
                        "delay 2s, lateness 10s: on-time result 2.20 s after the window's end; "
                                + "2.00% of records not in the first result; 3 dropped (0.30%), 17 late updates; 45 of 50 windows exact"),
                tooltips.toString());
        assertEquals(
                List.of(
                        "events.csv: 1000 records, 50 windows of 10s (tumbling, per key); "
                                + "one marker per (delay, lateness) setting",
                        "1 setting fired no on-time result before the input ended and is not drawn"),
                ofClass(chart, "caption").stream().map(Element::getTextContent).toList());
    }

    @Test
    void markersStandRightOfLongerWaitsAndLowerForFewerDrops() throws Exception {
        List<double[]> lateness0 = new ArrayList<>();
        double[] noDrops = null;
        for (Element marker : ofClass(chart(), FrontierChart.POINT_CLASS)) {
            if (tooltip(marker).contains("lateness 0s:")) {
                lateness0.add(center(marker));
            }
            if (tooltip(marker).startsWith("delay 10s, lateness 10s:")) {
                noDrops = center(marker);
            }
        }
        // delays 0s, 2s, 10s in document order: waits 0.2, 2.2, 10.2 s; dropped 6.0, 2.0, 0.5 %
        assertEquals(3, lateness0.size());
        assertTrue(lateness0.get(0)[0] < lateness0.get(1)[0]
                && lateness0.get(1)[0] < lateness0.get(2)[0]);
        assertTrue(lateness0.get(0)[1] < lateness0.get(1)[1]
                && lateness0.get(1)[1] < lateness0.get(2)[1]);
        // equal steps in value are equal steps on screen: 2.2 - 0.2 s is a quarter of 10.2 - 2.2 s
        assertEquals(
                4 * (lateness0.get(1)[0] - lateness0.get(0)[0]),
                lateness0.get(2)[0] - lateness0.get(1)[0],
                0.5);
        // 0 % dropped sits on the x axis, as low as the chart goes, and the same wait is the same x
        assertTrue(noDrops[1] > lateness0.get(2)[1]);
        assertEquals(lateness0.get(2)[0], noDrops[0], 0.01);
    }

    @Test
    void axesHaveRoundTicksAndNameTheirUnits() throws Exception {
        Document chart = chart();
        // waits up to 10.2 s: seconds, ticks every 2 s; shares up to 6 %: ticks every 2 %
        assertEquals(List.of("0", "2", "4", "6", "8", "10", "12"), texts(only(chart, "x-ticks")));
        assertEquals(List.of("0", "2", "4", "6", "8"), texts(only(chart, "y-ticks")));
        List<String> all = texts(chart.getDocumentElement());
        assertTrue(all.contains("mean wait of a window's on-time result after the window's end (s)"), all.toString());
        assertTrue(all.contains("records, % of all input records"), all.toString());
        assertTrue(all.contains("Latency / accuracy frontier of watermark delay and allowed lateness"), all.toString());
    }

    @Test
    void shortWaitsAreInMillisecondsAndSmallSharesGetDecimalTicks() throws Exception {
        List<FrontierRow> rows = List.of(
                new FrontierRow(0, 0, 10, 0, 99.0, 1, 2, 150.0, 1),
                new FrontierRow(500, 0, 1, 0, 99.9, 1, 2, 640.0, 1));
        Document chart = parse(FrontierChart.svg(rows, "e.csv", 1_000, Duration.ofMillis(1500)));
        // waits up to 640 ms: ticks every 200 ms; shares up to 1 %: ticks every quarter percent
        assertEquals(List.of("0", "200", "400", "600", "800"), texts(only(chart, "x-ticks")));
        assertEquals(List.of("0.00", "0.25", "0.50", "0.75", "1.00", "1.25"), texts(only(chart, "y-ticks")));
        assertTrue(texts(chart.getDocumentElement())
                .contains("mean wait of a window's on-time result after the window's end (ms)"));
        assertTrue(only(chart, "caption").getTextContent().startsWith("e.csv: 1000 records, 2 windows of 1500ms "));
    }

    @Test
    void theLegendNamesEachLatenessAndTheFirstResultLine() throws Exception {
        Document chart = chart();
        assertEquals(
                List.of(
                        "Dropped records",
                        "allowed lateness 0s",
                        "allowed lateness 10s",
                        "not in their window's first",
                        "result (lateness 0s)",
                        "Numbers beside the markers:",
                        "the watermark delay"),
                texts(only(chart, "legend")));
        assertEquals(List.of("0s", "2s", "10s"), texts(only(chart, "delays")));
    }

    @Test
    void markupInTheInputNameIsEscaped() throws Exception {
        String name = "a<b> & \"c\" 'd'.csv";
        String svg = FrontierChart.svg(ROWS, name, 1_000, Duration.ofSeconds(10));
        assertTrue(svg.contains("a&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;.csv: 1000 records"), svg);
        assertTrue(ofClass(parse(svg), "caption").get(0).getTextContent().startsWith(name + ": 1000 records"));
    }

    @Test
    void withoutAnyWaitThereAreNoMarkersButStillAChart() throws Exception {
        List<FrontierRow> rows = List.of(
                new FrontierRow(0, 0, 0, 0, 100.0, 1, 1, null, 1),
                new FrontierRow(0, 1_000, 0, 0, 100.0, 1, 1, null, 1));
        Document chart = parse(FrontierChart.svg(rows, "e.csv", 2, Duration.ofSeconds(10)));
        assertEquals(List.of(), ofClass(chart, FrontierChart.POINT_CLASS));
        assertEquals(
                "2 settings fired no on-time result before the input ended and are not drawn",
                ofClass(chart, "caption").get(1).getTextContent());
        assertFalse(texts(only(chart, "x-ticks")).isEmpty());
    }
}
