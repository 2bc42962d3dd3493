package mpjbuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Serialization of object elements with a chosen class loader, and the buffer's position. */
class ObjectStreamsTest
{
    @Test
    void roundTripsObjectsIntoNewCopies()
    {
        final Object[] src = {"a", null, List.of(1, 2), new int[] {7}, 'c'};
        final byte[] bytes = ObjectStreams.serialize(src, 1, 4);
        final Object[] dst = new Object[6];
        ObjectStreams.deserialize(bytes, 0, bytes.length, dst, 2, 4, getClass().getClassLoader());
        assertEquals(null, dst[2]);
        assertEquals(List.of(1, 2), dst[3]);
        assertArrayEquals(new int[] {7}, (int[]) dst[4]);
        assertNotSame(src[3], dst[4]);
        assertEquals('c', dst[5]);
    }

    @Test
    void reportsWhatIsNotSerializableAndClassesTheLoaderCannotFind() throws Exception
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ObjectStreams.serialize(new Object[] {new Object()}, 0, 1));
        assertTrue(e.getMessage().contains("java.lang.Object"), e.getMessage());
        final byte[] bytes = ObjectStreams.serialize(new Object[] {new Payload(3)}, 0, 1);
        try (URLClassLoader bare = new URLClassLoader(new URL[0], null))
        {
            final IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> ObjectStreams.deserialize(bytes, 0, bytes.length, new Object[1], 0, 1, bare));
            assertTrue(missing.getMessage().contains(Payload.class.getName()), missing.getMessage());
        }
    }

    @Test
    void positionFollowsWritesAndReads()
    {
        for (final BufferFactory factory : Factories.all())
        {
            final Buffer b = factory.getBuffer(64);
            assertEquals(0, b.position());
            b.putSectionHeader(Type.INT);
            b.write(new int[] {1, 2, 3}, 0, 3);
            assertEquals(Buffer.SECTION_HEADER_BYTES + 12, b.position());
            b.commit();
            assertEquals(0, b.position());
            b.getSectionHeader();
            b.read(new int[2], 0, 2);
            assertEquals(Buffer.SECTION_HEADER_BYTES + 8, b.position());
            b.free();
            assertThrows(IllegalStateException.class, b::position);
        }
    }

    record Payload(int value) implements java.io.Serializable
    {
    }
}
