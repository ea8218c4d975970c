package io.weir.streams.internals.state;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** Non-negative ints as unsigned LEB128 varints: one byte below 128, for the small counts state encodings hold. */
public final class Varints {

    private Varints() {}

    /** The bytes {@code value} (non-negative) takes. */
    public static int size(int value) {
        int size = 1;
        while ((value >>>= 7) != 0) {
            size++;
        }
        return size;
    }

    public static void write(int value, ByteBuffer buffer) {
        while ((value & ~0x7F) != 0) {
            buffer.put((byte) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        buffer.put((byte) value);
    }

    public static void write(int value, ByteArrayOutputStream out) {
        while ((value & ~0x7F) != 0) {
            out.write((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.write(value);
    }

    public static int read(ByteBuffer buffer) {
        int value = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = buffer.get();
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
    }
}
