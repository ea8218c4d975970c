package io.weir.streams.internals.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The golden fixtures' helper: writes only when asked, reads back exactly, and fails on any changed byte. */
class GoldenBytesTest {

    @TempDir
    Path dir;

    private GoldenBytes fixture(boolean write) {
        return new GoldenBytes("sample", dir, write)
                .add("a value", new byte[] {1, 2, (byte) 0xFF})
                .add("a key and a tombstone", new byte[] {0x7F}, null)
                .add("an empty value", new byte[] {0}, new byte[0]);
    }

    @Test
    void aWrittenFixtureReadsBackFieldForFieldWithItsComments() {
        List<GoldenBytes.Entry> read = fixture(true).verify();
        assertEquals(3, read.size());
        assertArrayEquals(new byte[] {1, 2, (byte) 0xFF}, read.get(0).bytes());
        assertEquals("a key and a tombstone", read.get(1).comment());
        assertNull(read.get(1).fieldOrNull(1));
        assertArrayEquals(new byte[0], read.get(2).field(1));
    }

    @Test
    void withoutTheWritePropertyTheFixtureIsOnlyCompared() throws Exception {
        fixture(true).verify();
        String written = Files.readString(dir.resolve("sample.hex"));
        fixture(false).verify();
        assertEquals(written, Files.readString(dir.resolve("sample.hex")));
    }

    @Test
    void oneChangedByteFailsNamingTheRecordAndAskingForAVersionBump() {
        fixture(true).verify();
        GoldenBytes changed = new GoldenBytes("sample", dir, false)
                .add("a value", new byte[] {1, 2, (byte) 0xFE})
                .add("a key and a tombstone", new byte[] {0x7F}, null)
                .add("an empty value", new byte[] {0}, new byte[0]);
        AssertionError e = assertThrows(AssertionError.class, changed::verify);
        assertTrue(e.getMessage().contains("record 0 (a value)"), e.getMessage());
        assertTrue(
                e.getMessage().contains("new format version") && e.getMessage().contains("migration"), e.getMessage());
    }

    @Test
    void aNullFieldIsNotAnEmptyOne() {
        fixture(true).verify();
        GoldenBytes changed = new GoldenBytes("sample", dir, false)
                .add("a value", new byte[] {1, 2, (byte) 0xFF})
                .add("a key and a tombstone", new byte[] {0x7F}, new byte[0])
                .add("an empty value", new byte[] {0}, new byte[0]);
        assertThrows(AssertionError.class, changed::verify);
    }

    @Test
    void aMissingOrExtraRecordFails() {
        fixture(true).verify();
        GoldenBytes fewer = new GoldenBytes("sample", dir, false).add("a value", new byte[] {1, 2, (byte) 0xFF});
        assertThrows(AssertionError.class, fewer::verify);
        GoldenBytes more = fixture(false).add("one more", new byte[] {9});
        assertThrows(AssertionError.class, more::verify);
    }

    @Test
    void aMissingFixtureFailsSayingHowToWriteIt() {
        AssertionError e =
                assertThrows(AssertionError.class, () -> fixture(false).verify());
        assertTrue(e.getMessage().contains("-Dweir.golden.write=true"), e.getMessage());
    }
}
