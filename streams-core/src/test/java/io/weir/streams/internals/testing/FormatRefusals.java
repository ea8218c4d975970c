package io.weir.streams.internals.testing;

import io.weir.streams.internals.state.UnknownFormatException;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract of every reader of a versioned format: bytes in a version it does not read (or with a flag
 * its version does not set) fail with an {@link UnknownFormatException} whose message names where they
 * are, the format, what was found and what this Weir reads; never a misread or an exception that says
 * none of it.
 */
public final class FormatRefusals {

    private FormatRefusals() {}

    /** A copy of {@code bytes} with its first byte, the format version, set to {@code version}. */
    public static byte[] withVersion(byte[] bytes, int version) {
        byte[] copy = bytes.clone();
        copy[0] = (byte) version;
        return copy;
    }

    /** A copy of {@code bytes} with {@code flag} set in its flags byte, the one after the version. */
    public static byte[] withFlag(byte[] bytes, int flag) {
        byte[] copy = bytes.clone();
        copy[1] = (byte) (copy[1] | flag);
        return copy;
    }

    /** Asserts that {@code read} refuses its bytes with a message holding each of {@code named}. */
    public static UnknownFormatException assertRefused(Executable read, String... named) {
        UnknownFormatException e = assertThrows(UnknownFormatException.class, read);
        for (String part : named) {
            assertTrue(e.getMessage().contains(part), "'" + part + "' is not in: " + e.getMessage());
        }
        assertTrue(e.getMessage().contains("compatibility.md"), "says where the promise is: " + e.getMessage());
        return e;
    }
}
