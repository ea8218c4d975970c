package io.weir.streams.internals;

import org.jspecify.annotations.Nullable;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Keeps record payloads out of what Weir logs and writes to dead-letter headers. Deserializers and user
 * code put the input they choked on in their exception messages (Jackson quotes the value and an excerpt of
 * the document; {@code NumberFormatException} quotes the string), so such a message is stripped before Weir
 * uses it: quoted text, Jackson's source excerpt, and digit runs as long as a card number go; the exception
 * type and the rest of the message stay, beside the operator and coordinates Weir adds itself.
 *
 * <p>Over-stripping is accepted (a quoted field name goes too); under-stripping is the failure this class
 * exists to prevent. The exceptions themselves are not changed: a handler and {@code WeirStreams.error()}
 * get the originals, since what user code does with them is its own choice.
 */
public final class Redaction {

    static final String REDACTED = "…";

    /** Jackson's location suffix, which quotes up to 500 characters of the document: keep line and column. */
    private static final Pattern JACKSON_SOURCE =
            Pattern.compile("\\[Source: .*?;( line: \\d+, column: \\d+)\\]", Pattern.DOTALL);

    private static final Pattern DOUBLE_QUOTED = Pattern.compile("\"[^\"]*\"", Pattern.DOTALL);
    /** A token in single quotes (Jackson's "Unrecognized token 'x'"); not text with spaces, which apostrophes make. */
    private static final Pattern SINGLE_QUOTED = Pattern.compile("'[^'\\s]*'");
    /** Twelve or more digits, alone or grouped by spaces or dashes: the length of a card number. */
    private static final Pattern LONG_DIGITS = Pattern.compile("\\d(?:[ -]?\\d){11,}");

    private static final int MAX_CAUSES = 32;

    private Redaction() {}

    /** {@code text} without quoted input, source excerpts or card-length digit runs; null stays null. */
    public static @Nullable String strip(@Nullable String text) {
        if (text == null) {
            return null;
        }
        String s = JACKSON_SOURCE.matcher(text).replaceAll("[$1]");
        s = DOUBLE_QUOTED.matcher(s).replaceAll("\"" + REDACTED + "\"");
        s = SINGLE_QUOTED.matcher(s).replaceAll("'" + REDACTED + "'");
        return LONG_DIGITS.matcher(s).replaceAll(REDACTED);
    }

    /** {@code e}'s class and stripped message, as {@code Throwable.toString()} would give them. */
    public static String describe(Throwable e) {
        String message = strip(e.getMessage());
        return message == null ? e.getClass().getName() : e.getClass().getName() + ": " + message;
    }

    /**
     * A copy of {@code e} to log: each exception of its cause chain (and their suppressed ones) becomes a
     * {@link Redacted} with the same class name in its text, the stripped message and the same stack trace.
     */
    public static Throwable forLog(Throwable e) {
        return copy(e, new IdentityHashMap<>(), 0);
    }

    private static Throwable copy(Throwable e, Map<Throwable, Throwable> done, int depth) {
        Throwable known = done.get(e);
        if (known != null) {
            return known;
        }
        Redacted copy = new Redacted(describe(e));
        done.put(e, copy);
        copy.setStackTrace(e.getStackTrace());
        Throwable cause = e.getCause();
        if (cause != null && cause != e && depth < MAX_CAUSES) {
            copy.initCause(copy(cause, done, depth + 1));
        }
        for (Throwable suppressed : e.getSuppressed()) {
            copy.addSuppressed(copy(suppressed, done, depth + 1));
        }
        return copy;
    }

    /** An exception as logged: its text is the original's class name and stripped message. */
    public static final class Redacted extends RuntimeException {

        private static final long serialVersionUID = 1L;

        Redacted(String text) {
            super(text);
        }

        // printStackTrace prints toString(): overriding it is what makes the log show the original class name,
        // not this one's, before the stripped message.
        @SuppressWarnings("OverrideThrowableToString")
        @Override
        public String toString() {
            return String.valueOf(getMessage());
        }
    }
}
