package io.weir.streams.internals.state;

/**
 * Bytes that Weir wrote in a format this version does not read: a store value or changelog record, a
 * repartition topic's record or a foreign-key join's message in a newer format version (or with flags
 * that version added), or bytes that are not in the format at all. The message names where the bytes
 * are, the format, the version found and the versions this Weir reads.
 *
 * <p>Never a record error: skipping such a record would lose data that a newer instance wrote during a
 * rolling upgrade, so it fails the stream thread like any {@link StoreException}, whatever the error
 * handlers say. A newer format is written only once every instance of the group reads it, so meeting
 * one means an instance of an older version runs beside a newer one that should not have written it yet,
 * or that the state was written by a newer version and this one was rolled back onto it
 * (docs/reference/compatibility.md).
 */
public final class UnknownFormatException extends StoreException {

    private static final String WHY = ": written by a newer Weir version (a rollback past a format change, "
            + "or instances of versions that cannot be mixed) or not by Weir. See docs/reference/compatibility.md";

    private UnknownFormatException(String message) {
        super(message);
    }

    /**
     * Refuses {@code bytes} unless their first byte is {@code version} and they are at least {@code
     * minLength} long.
     *
     * @param where  what holds the bytes, as a sentence's subject ("Store 'counts'")
     * @param format what the bytes are ("table row")
     */
    public static void check(String where, String format, byte[] bytes, byte version, int minLength) {
        if (bytes.length == 0) {
            throw new UnknownFormatException(where + " holds an empty " + format + ", which has a format version "
                    + "byte first; this Weir reads version " + version + WHY);
        }
        if (bytes[0] != version) {
            throw new UnknownFormatException(where + " holds a " + format + " in format version " + bytes[0]
                    + "; this Weir reads version " + version + " only" + WHY);
        }
        if (bytes.length < minLength) {
            throw new UnknownFormatException(where + " holds a " + format + " of " + bytes.length
                    + " bytes, shorter than any in format version " + version + " (" + minLength + ")" + WHY);
        }
    }

    /**
     * Refuses {@code bytes} as {@link #check(String, String, byte[], byte, int)} does, and unless every flag
     * set in the flags byte after the version is one of {@code knownFlags}: a flag this version does not
     * know would change how the rest reads.
     */
    public static void check(String where, String format, byte[] bytes, byte version, int minLength, int knownFlags) {
        check(where, format, bytes, version, Math.max(minLength, 2));
        int unknown = bytes[1] & 0xFF & ~knownFlags;
        if (unknown != 0) {
            throw new UnknownFormatException(where + " holds a " + format + " in format version " + version
                    + " with flags 0x" + Integer.toHexString(unknown) + " this Weir does not know (it knows 0x"
                    + Integer.toHexString(knownFlags) + ")" + WHY);
        }
    }

    /**
     * Refuses bytes whose first byte, which says what they are, is {@code found}: none of the kinds
     * this Weir reads.
     *
     * @param kinds the kinds this Weir reads, as the message lists them ("'S' (subscribe) or 'U' (unsubscribe)")
     */
    public static UnknownFormatException unknownKind(String where, String format, byte found, String kinds) {
        return new UnknownFormatException(
                where + " holds a " + format + " of kind " + found + "; this Weir reads " + kinds + " only" + WHY);
    }
}
