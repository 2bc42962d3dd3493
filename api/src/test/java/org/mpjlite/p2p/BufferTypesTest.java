package org.mpjlite.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpjlite.p2p.Jobs.rank;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.stream.Stream;
import mpi.Datatype;
import mpi.MPI;
import mpi.Status;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.MatchingKind;
import org.mpjlite.smpdev.Tunables;

/**
 * Every primitive type, in arrays and in heap and direct NIO buffers, through blocking and
 * non-blocking calls of both dialects, eager and rendezvous sizes, with offsets (mpiJava) and
 * slices (Open MPI); NIO positions are ignored. A ByteBuffer carries any type in its byte order.
 */
class BufferTypesTest {
    /** Elements before the data in offset and slice cases. */
    private static final int OFF = 3;
    private static final int TAG = 5;

    /** A primitive element type: its datatype, containers and the values the tests send. */
    enum Elem {
        BYTE(1), CHAR(2), SHORT(2), BOOLEAN(1), INT(4), LONG(8), FLOAT(4), DOUBLE(8);

        final int bytes;

        Elem(int bytes) {
            this.bytes = bytes;
        }

        Datatype type() {
            return switch (this) {
                case BYTE -> MPI.BYTE;
                case CHAR -> MPI.CHAR;
                case SHORT -> MPI.SHORT;
                case BOOLEAN -> MPI.BOOLEAN;
                case INT -> MPI.INT;
                case LONG -> MPI.LONG;
                case FLOAT -> MPI.FLOAT;
                case DOUBLE -> MPI.DOUBLE;
            };
        }

        /** The value at index {@code i} of a container filled with {@code seed}, boxed. */
        Object value(int seed, int i) {
            long v = seed * 1_000_003L + i * 7919L + 1;
            return switch (this) {
                case BYTE -> (byte) v;
                case CHAR -> (char) v;
                case SHORT -> (short) v;
                case BOOLEAN -> (v % 3) == 0;
                case INT -> (int) v;
                case LONG -> v * 0x9E3779B97F4A7C15L;
                case FLOAT -> v * 0.5f;
                case DOUBLE -> v * 0.25 + 1e-3;
            };
        }

        Object array(int n) {
            return switch (this) {
                case BYTE -> new byte[n];
                case CHAR -> new char[n];
                case SHORT -> new short[n];
                case BOOLEAN -> new boolean[n];
                case INT -> new int[n];
                case LONG -> new long[n];
                case FLOAT -> new float[n];
                case DOUBLE -> new double[n];
            };
        }

        /** A typed NIO buffer (none for BOOLEAN). */
        Buffer buffer(int n, boolean direct) {
            return switch (this) {
                case BYTE -> direct ? MPI.newByteBuffer(n) : ByteBuffer.allocate(n);
                case CHAR -> direct ? MPI.newCharBuffer(n) : CharBuffer.allocate(n);
                case SHORT -> direct ? MPI.newShortBuffer(n) : ShortBuffer.allocate(n);
                case INT -> direct ? MPI.newIntBuffer(n) : IntBuffer.allocate(n);
                case LONG -> direct ? MPI.newLongBuffer(n) : LongBuffer.allocate(n);
                case FLOAT -> direct ? MPI.newFloatBuffer(n) : FloatBuffer.allocate(n);
                case DOUBLE -> direct ? MPI.newDoubleBuffer(n) : DoubleBuffer.allocate(n);
                case BOOLEAN -> throw new IllegalArgumentException("no NIO buffer holds booleans");
            };
        }

        /** Element {@code i} of an array or typed NIO buffer of this type, boxed. */
        Object get(Object c, int i) {
            return switch (this) {
                case BYTE -> c instanceof byte[] a ? a[i] : ((ByteBuffer) c).get(i);
                case CHAR -> c instanceof char[] a ? a[i] : ((CharBuffer) c).get(i);
                case SHORT -> c instanceof short[] a ? a[i] : ((ShortBuffer) c).get(i);
                case BOOLEAN -> ((boolean[]) c)[i];
                case INT -> c instanceof int[] a ? a[i] : ((IntBuffer) c).get(i);
                case LONG -> c instanceof long[] a ? a[i] : ((LongBuffer) c).get(i);
                case FLOAT -> c instanceof float[] a ? a[i] : ((FloatBuffer) c).get(i);
                case DOUBLE -> c instanceof double[] a ? a[i] : ((DoubleBuffer) c).get(i);
            };
        }

        /** Fills every element of an array or typed NIO buffer of this type with {@code value(seed, i)}. */
        void fill(Object c, int n, int seed) {
            for (int i = 0; i < n; i++) {
                Object v = value(seed, i);
                switch (this) {
                    case BYTE -> {
                        if (c instanceof byte[] a) {
                            a[i] = (Byte) v;
                        } else {
                            ((ByteBuffer) c).put(i, (Byte) v);
                        }
                    }
                    case CHAR -> {
                        if (c instanceof char[] a) {
                            a[i] = (Character) v;
                        } else {
                            ((CharBuffer) c).put(i, (Character) v);
                        }
                    }
                    case SHORT -> {
                        if (c instanceof short[] a) {
                            a[i] = (Short) v;
                        } else {
                            ((ShortBuffer) c).put(i, (Short) v);
                        }
                    }
                    case BOOLEAN -> ((boolean[]) c)[i] = (Boolean) v;
                    case INT -> {
                        if (c instanceof int[] a) {
                            a[i] = (Integer) v;
                        } else {
                            ((IntBuffer) c).put(i, (Integer) v);
                        }
                    }
                    case LONG -> {
                        if (c instanceof long[] a) {
                            a[i] = (Long) v;
                        } else {
                            ((LongBuffer) c).put(i, (Long) v);
                        }
                    }
                    case FLOAT -> {
                        if (c instanceof float[] a) {
                            a[i] = (Float) v;
                        } else {
                            ((FloatBuffer) c).put(i, (Float) v);
                        }
                    }
                    case DOUBLE -> {
                        if (c instanceof double[] a) {
                            a[i] = (Double) v;
                        } else {
                            ((DoubleBuffer) c).put(i, (Double) v);
                        }
                    }
                }
            }
        }

        /** Element {@code i} of this type stored in a ByteBuffer (in the buffer's order), boxed. */
        Object getFromBytes(ByteBuffer bb, int i) {
            return switch (this) {
                case BYTE -> bb.get(i);
                case CHAR -> bb.getChar(i * 2);
                case SHORT -> bb.getShort(i * 2);
                case INT -> bb.getInt(i * 4);
                case LONG -> bb.getLong(i * 8);
                case FLOAT -> bb.getFloat(i * 4);
                case DOUBLE -> bb.getDouble(i * 8);
                case BOOLEAN -> throw new IllegalArgumentException("the byte form of a boolean is not specified");
            };
        }

        /** Element count of a message of about 40 KiB: beyond the default eager threshold. */
        int rendezvousCount() {
            return 40 * 1024 / bytes;
        }

        /** An eager size above the small-message copy (Tunables.SMALL_COPY_BYTES): a pooled stash. */
        int stashedCount() {
            return 4096 / bytes;
        }
    }

    /** Where the elements live. */
    enum Container {
        ARRAY, HEAP_BUFFER, DIRECT_BUFFER;

        Object create(Elem e, int n) {
            return switch (this) {
                case ARRAY -> e.array(n);
                case HEAP_BUFFER -> e.buffer(n, false);
                case DIRECT_BUFFER -> e.buffer(n, true);
            };
        }
    }

    /** Which calls move the message. */
    enum Calls {
        MPIJAVA_BLOCKING, MPIJAVA_NONBLOCKING, OPENMPI_BLOCKING, OPENMPI_NONBLOCKING;

        boolean mpiJava() {
            return this == MPIJAVA_BLOCKING || this == MPIJAVA_NONBLOCKING;
        }
    }

    static Stream<Arguments> elementsContainersCalls() {
        return Stream.of(Elem.values()).flatMap(e -> Stream.of(Container.values())
            .filter(c -> e != Elem.BOOLEAN || c == Container.ARRAY)
            .flatMap(c -> Stream.of(Calls.values()).flatMap(calls -> Stream.of(MatchingKind.values())
                .map(k -> Arguments.of(e, c, calls, k)))));
    }

    @ParameterizedTest(name = "{0} in {1}, {2}, {3}")
    @MethodSource("elementsContainersCalls")
    @DisplayName("every element type and container, eager (5 elements, 4 KiB) and rendezvous (40 KiB) sizes")
    void everyTypeAndContainer(Elem e, Container c, Calls calls, MatchingKind kind) {
        new World(2, kind, Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            for (int n : new int[] {5, e.stashedCount(), e.rendezvousCount()}) {
                // mpiJava addresses arrays with an offset; NIO buffers from index 0 whatever their
                // position; Open MPI sends a slice (there is none of boolean[]) and receives at 0.
                boolean useOffset = calls.mpiJava() && c == Container.ARRAY;
                boolean sliced = !calls.mpiJava() && e != Elem.BOOLEAN;
                int sendFrom = useOffset || sliced ? OFF : 0;
                int recvAt = useOffset ? OFF : 0;
                if (rank() == 0) {
                    Object out = c.create(e, n + OFF);
                    e.fill(out, n + OFF, n);
                    if (out instanceof Buffer b) {
                        b.position(1);
                    }
                    send(calls, out, useOffset ? OFF : 0, n, e.type(), sliced);
                } else {
                    Object in = c.create(e, n + 2 * OFF);
                    if (in instanceof Buffer b) {
                        b.position(2);
                    }
                    Status s = recv(calls, in, recvAt, n, e.type());
                    assertEquals(0, s.source);
                    assertEquals(TAG, s.tag);
                    assertEquals(n, s.Get_count(e.type()));
                    Object untouched = e.get(c.create(e, 1), 0);
                    for (int i = 0; i < n + 2 * OFF; i++) {
                        boolean inMessage = i >= recvAt && i < recvAt + n;
                        Object expected = inMessage ? e.value(n, sendFrom + i - recvAt) : untouched;
                        assertEquals(expected, e.get(in, i), "n=" + n + ", element " + i);
                    }
                }
            }
            return null;
        });
    }

    static Stream<Arguments> elementsContainers() {
        return Stream.of(Elem.values()).flatMap(e -> Stream.of(Container.values())
            .filter(c -> e != Elem.BOOLEAN || c == Container.ARRAY)
            .flatMap(c -> Stream.of(MatchingKind.values()).map(k -> Arguments.of(e, c, k))));
    }

    @ParameterizedTest(name = "{0} in {1}, {2}")
    @MethodSource("elementsContainers")
    @DisplayName("an eager send takes a copy: the sender overwrites its buffer before the receive is posted")
    void eagerSendTakesACopy(Elem e, Container c, MatchingKind kind) {
        // Around the small-message copy's limit (1 KiB) and one pooled size; the data message waits
        // unexpected while rank 1 first receives the marker sent after the overwrite.
        int[] sizes = {1, 1023 / e.bytes, 1024 / e.bytes, 1024 / e.bytes + 1, 8192 / e.bytes};
        new World(2, kind, Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            for (int round = 0; round < sizes.length; round++) {
                int n = sizes[round];
                if (rank() == 0) {
                    Object out = c.create(e, n);
                    e.fill(out, n, round);
                    MPI.COMM_WORLD.Send(out, 0, n, e.type(), 1, TAG);
                    e.fill(out, n, round + 100);
                    MPI.COMM_WORLD.Send(new int[] {round}, 0, 1, MPI.INT, 1, TAG + 1);
                } else {
                    int[] marker = new int[1];
                    MPI.COMM_WORLD.Recv(marker, 0, 1, MPI.INT, 0, TAG + 1);
                    assertEquals(round, marker[0]);
                    Object in = c.create(e, n);
                    Status s = MPI.COMM_WORLD.Recv(in, 0, n, e.type(), 0, TAG);
                    assertEquals(n, s.Get_count(e.type()));
                    for (int i = 0; i < n; i++) {
                        assertEquals(e.value(round, i), e.get(in, i), "n=" + n + ", element " + i);
                    }
                }
            }
            return null;
        });
    }

    /** A ByteBuffer of each kind: direct native-order, direct and heap in either byte order. */
    enum Bytes {
        DIRECT_NATIVE, DIRECT_BIG_ENDIAN, HEAP_BIG_ENDIAN, HEAP_LITTLE_ENDIAN;

        ByteBuffer create(int n) {
            return switch (this) {
                case DIRECT_NATIVE -> MPI.newByteBuffer(n);
                case DIRECT_BIG_ENDIAN -> ByteBuffer.allocateDirect(n).order(ByteOrder.BIG_ENDIAN);
                case HEAP_BIG_ENDIAN -> ByteBuffer.allocate(n).order(ByteOrder.BIG_ENDIAN);
                case HEAP_LITTLE_ENDIAN -> ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
            };
        }
    }

    static Stream<Arguments> elementsInByteBuffers() {
        return Stream.of(Elem.values()).flatMap(e -> Stream.of(Bytes.values())
            .flatMap(b -> Stream.of(MatchingKind.values()).map(k -> Arguments.of(e, b, k))));
    }

    @ParameterizedTest(name = "{0} in {1}, {2}")
    @MethodSource("elementsInByteBuffers")
    @DisplayName("a ByteBuffer carries any element type, in its own byte order, both ways")
    void byteBufferCarriesAnyType(Elem e, Bytes kindOfBuffer, MatchingKind kind) {
        new World(2, kind, Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            int[] sizes = {6, e.stashedCount(), e.rendezvousCount()};
            for (int round = 0; round < sizes.length; round++) {
                int n = sizes[round];
                if (rank() == 0) {
                    Object out = e.array(n);
                    e.fill(out, n, round);
                    MPI.COMM_WORLD.Send(out, 0, n, e.type(), 1, TAG);
                    Object back = e.array(n);
                    Status s = MPI.COMM_WORLD.Recv(back, 0, n, e.type(), 1, TAG);
                    assertEquals(n, s.Get_count(e.type()));
                    for (int i = 0; i < n; i++) {
                        assertEquals(e.value(round, i), e.get(back, i), "round trip, element " + i);
                    }
                } else {
                    ByteBuffer bb = kindOfBuffer.create(n * e.bytes);
                    Status s = MPI.COMM_WORLD.recv(bb, n, e.type(), 0, TAG);
                    assertEquals(n, s.getCount(e.type()));
                    if (e != Elem.BOOLEAN) {
                        for (int i = 0; i < n; i++) {
                            assertEquals(e.value(round, i), e.getFromBytes(bb, i), "element " + i + " in the buffer");
                        }
                    }
                    MPI.COMM_WORLD.send(bb, n, e.type(), 0, TAG);
                }
            }
            return null;
        });
    }

    private static void send(Calls calls, Object buf, int offset, int n, Datatype type, boolean sliced) {
        switch (calls) {
            case MPIJAVA_BLOCKING -> MPI.COMM_WORLD.Send(buf, offset, n, type, 1, TAG);
            case MPIJAVA_NONBLOCKING -> MPI.COMM_WORLD.Isend(buf, offset, n, type, 1, TAG).Wait();
            case OPENMPI_BLOCKING -> MPI.COMM_WORLD.send(sliced ? slice(buf, OFF) : buf, n, type, 1, TAG);
            case OPENMPI_NONBLOCKING -> MPI.COMM_WORLD.iSend(sliced ? slice(buf, OFF) : buf, n, type, 1, TAG).waitFor();
        }
    }

    private static Status recv(Calls calls, Object buf, int offset, int n, Datatype type) {
        return switch (calls) {
            case MPIJAVA_BLOCKING -> MPI.COMM_WORLD.Recv(buf, offset, n, type, 0, TAG);
            case MPIJAVA_NONBLOCKING -> MPI.COMM_WORLD.Irecv(buf, offset, n, type, 0, TAG).Wait();
            case OPENMPI_BLOCKING -> MPI.COMM_WORLD.recv(buf, n, type, 0, TAG);
            case OPENMPI_NONBLOCKING -> MPI.COMM_WORLD.iRecv(buf, n, type, 0, TAG).waitStatus();
        };
    }

    /** {@code MPI.slice} of whichever array or NIO buffer {@code buf} is. */
    private static Buffer slice(Object buf, int off) {
        if (buf instanceof byte[] a) {
            return MPI.slice(a, off);
        } else if (buf instanceof char[] a) {
            return MPI.slice(a, off);
        } else if (buf instanceof short[] a) {
            return MPI.slice(a, off);
        } else if (buf instanceof int[] a) {
            return MPI.slice(a, off);
        } else if (buf instanceof long[] a) {
            return MPI.slice(a, off);
        } else if (buf instanceof float[] a) {
            return MPI.slice(a, off);
        } else if (buf instanceof double[] a) {
            return MPI.slice(a, off);
        } else if (buf instanceof ByteBuffer b) {
            return MPI.slice(b, off);
        } else if (buf instanceof CharBuffer b) {
            return MPI.slice(b, off);
        } else if (buf instanceof ShortBuffer b) {
            return MPI.slice(b, off);
        } else if (buf instanceof IntBuffer b) {
            return MPI.slice(b, off);
        } else if (buf instanceof LongBuffer b) {
            return MPI.slice(b, off);
        } else if (buf instanceof FloatBuffer b) {
            return MPI.slice(b, off);
        } else if (buf instanceof DoubleBuffer b) {
            return MPI.slice(b, off);
        }
        throw new IllegalArgumentException("MPI.slice has no overload for " + buf.getClass().getSimpleName());
    }
}
