package io.weir.streams.internals;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@link Redaction} takes out of exception messages, and what it leaves. */
class RedactionTest {

    private static final String CARD = "4111 1111 1111 1111";

    record Payment(String card, int amount) {}

    @Test
    void quotedInputSourceExcerptsAndCardLengthDigitRunsGo() {
        assertEquals("For input string: \"…\"", Redaction.strip("For input string: \"" + CARD + "\""));
        assertEquals("card … declined", Redaction.strip("card 4111-1111-1111-1111 declined"));
        assertEquals("card … declined", Redaction.strip("card 4111111111111111 declined"));
        assertEquals(
                "Unrecognized token '…': was expecting", Redaction.strip("Unrecognized token 'x4111': was expecting"));
        assertEquals("at offset 1234567 of 12 partitions", Redaction.strip("at offset 1234567 of 12 partitions"));
    }

    @Test
    void jacksonsMessageKeepsItsTypeAndPlaceButNotTheValueOrTheDocument() {
        Exception e = assertThrows(
                Exception.class,
                () -> new ObjectMapper()
                        .readValue(
                                ("{\"card\":\"" + CARD + "\",\"amount\":\"" + CARD + "\"}")
                                        .getBytes(StandardCharsets.UTF_8),
                                Payment.class));
        assertTrue(e.getMessage().contains("4111"), "Jackson quotes it: " + e.getMessage());
        String described = Redaction.describe(e);
        assertFalse(described.contains("4111"), described);
        assertTrue(described.startsWith(e.getClass().getName()), described);
        assertTrue(described.contains("line: 1, column:"), described);
    }

    @Test
    void aLoggedCopyOfAnExceptionChainCarriesNoPayloadButEveryTypeAndFrame() {
        IllegalStateException cause = new IllegalStateException("card " + CARD + " declined");
        RuntimeException wrapper = new RuntimeException("operator failed", cause);
        wrapper.addSuppressed(new IllegalArgumentException("\"" + CARD + "\""));
        StringWriter printed = new StringWriter();
        Redaction.forLog(wrapper).printStackTrace(new PrintWriter(printed));
        String text = printed.toString();
        assertFalse(text.contains("4111"), text);
        assertTrue(text.contains("java.lang.IllegalStateException: card … declined"), text);
        assertTrue(text.contains("Suppressed: java.lang.IllegalArgumentException"), text);
        assertTrue(
                text.contains("RedactionTest.aLoggedCopyOfAnExceptionChainCarriesNoPayload"), "frames kept: " + text);
        assertTrue(cause.getMessage().contains(CARD), "the original is left as it was");
    }
}
