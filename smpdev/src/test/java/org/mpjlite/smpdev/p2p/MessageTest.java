package org.mpjlite.smpdev.p2p;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.TypeMap;

/**
 * A recycled message's own arrays, which carry the copies of small eager messages: one per element
 * type, kept when the message carries another type in between, so that a rank sending small
 * messages of several types in turn makes no new array once each has been seen; a longer message
 * of a type gets a longer array, which is kept from then on.
 */
class MessageTest {
    private static final TypeMap DOUBLES = TypeMap.of(BasicType.DOUBLE);
    private static final TypeMap INTS = TypeMap.of(BasicType.INT);

    @Test
    void aMessageKeepsItsArrayOfEachElementType() {
        Message m = new Message(0, 0, 1, DOUBLES, 2, "Send");
        m.inlineCopy(new double[] {1.5, 2.5}, 0, 2);
        Object doubles = m.data;

        m.reuse(0, 0, 2, INTS, 3, "Send");
        m.inlineCopy(new int[] {7, 8, 9}, 0, 3);
        Object ints = m.data;
        assertArrayEquals(new int[] {7, 8, 9}, Arrays.copyOf((int[]) ints, 3));

        m.reuse(0, 0, 1, DOUBLES, 2, "Send");
        m.inlineCopy(new double[] {3.5, 4.5}, 0, 2);
        assertSame(doubles, m.data, "the doubles' array, kept while the message carried ints");
        assertArrayEquals(new double[] {3.5, 4.5}, Arrays.copyOf((double[]) m.data, 2));

        m.reuse(0, 0, 2, INTS, 1, "Send");
        m.inlineCopy(new int[] {5, 6}, 1, 1);
        assertSame(ints, m.data, "the ints' array, kept while the message carried doubles");
        assertArrayEquals(new int[] {6}, Arrays.copyOf((int[]) m.data, 1));

        double[] many = new double[40];
        Arrays.setAll(many, i -> i + 0.25);
        m.reuse(0, 0, 1, DOUBLES, 40, "Send");
        m.inlineCopy(many, 0, 40);
        Object longer = m.data;
        assertNotSame(doubles, longer, "40 doubles need a longer array");
        assertTrue(((double[]) longer).length >= 40);
        assertArrayEquals(many, Arrays.copyOf((double[]) longer, 40));

        m.reuse(0, 0, 2, INTS, 3, "Send");
        m.inlineCopy(new int[] {1, 2, 3}, 0, 3);
        assertSame(ints, m.data);
        m.reuse(0, 0, 1, DOUBLES, 2, "Send");
        m.inlineCopy(new double[] {8.5, 9.5}, 0, 2);
        assertSame(longer, m.data, "the longer doubles' array, kept from then on");
        assertArrayEquals(new double[] {8.5, 9.5}, Arrays.copyOf((double[]) m.data, 2));
    }
}
