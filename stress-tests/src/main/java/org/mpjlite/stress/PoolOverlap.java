package org.mpjlite.stress;

import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import mpjbuf.Buffer;
import mpjbuf.BufferFactory;
import mpjbuf.PoolStrategy;
import mpjbuf.StorageKind;
import mpjbuf.Type;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The buffer pools never hand out overlapping blocks, under the device's pattern of cross-thread
 * frees: the sender allocates an eager stash, the receiver frees it. Two actors share one pool (for the
 * whole run, so its free lists have a long history); each allocates a buffer, fills it with a stamp
 * unique to that buffer, takes a buffer the other actor stamped earlier, checks it and frees it, and
 * only then hands its own over (a bounded queue, the "mailbox"). Sizes cycle through classes served by
 * the per-thread caches and classes that go to the pool (regions of 1 MiB, so large blocks split and
 * merge up to whole regions). The two actors allocate different size classes, so each frees buffers of a
 * class it does not allocate: its thread cache of that class overflows into the shared depot, and the
 * other actor, whose cache of it runs dry, takes them from there (a buffer the depot handed to both
 * would be stamped by both). The pool does not expose block offsets, so overlap shows as a buffer
 * whose stamp was overwritten while it was held.
 *
 * <p>Reported: (buffer actor A checked was intact, buffer actor B checked was intact); a side with
 * nothing to check yet reports intact. Only {@code 1, 1} is acceptable; {@code 0} is a corrupted block
 * (two live buffers over the same memory, or a free-list link written into a live block): FORBIDDEN.
 * An exception from the pool (a corrupted free list) fails the test as an error.
 */
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "Every buffer intact until freed.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A live buffer was overwritten: overlapping blocks.")
public abstract class PoolOverlap {
    private static final int REGION_BYTES = 1 << 20;
    private static final int[] SIZES = {64, 120, 1000, 4096, 20_000, 70_000, 300_000};
    private static final AtomicLong STAMPS = new AtomicLong(0x5EED_0000_0000L);

    /** One pool for the whole run and the two queues its buffers travel in. */
    static final class Shared {
        final BufferFactory factory;
        final BlockingQueue<Buffer> toA = new ArrayBlockingQueue<>(32);
        final BlockingQueue<Buffer> toB = new ArrayBlockingQueue<>(32);
        final AtomicInteger states = new AtomicInteger();

        Shared(PoolStrategy strategy, StorageKind storage) {
            factory = BufferFactory.create(strategy, storage, REGION_BYTES);
        }
    }

    private final Shared shared;
    private final int sizeA;
    private final int sizeB;

    PoolOverlap(Shared shared) {
        this.shared = shared;
        int i = shared.states.getAndIncrement() & Integer.MAX_VALUE;
        sizeA = SIZES[i % SIZES.length];
        sizeB = SIZES[(i + 3) % SIZES.length];
    }

    int actorA() {
        return exchange(sizeA, shared.toA, shared.toB);
    }

    int actorB() {
        return exchange(sizeB, shared.toB, shared.toA);
    }

    private int exchange(int bytes, BlockingQueue<Buffer> in, BlockingQueue<Buffer> out) {
        Buffer mine = stamped(bytes);
        Buffer theirs = in.poll();
        int intact = theirs == null || intactThenFree(theirs) ? 1 : 0;
        if (!out.offer(mine) && !intactThenFree(mine)) {
            intact = 0;
        }
        return intact;
    }

    private Buffer stamped(int bytes) {
        Buffer b = shared.factory.getBuffer(bytes);
        int n = (bytes - Buffer.SECTION_HEADER_BYTES) / Long.BYTES;
        long[] words = new long[n];
        Arrays.fill(words, STAMPS.incrementAndGet());
        b.putSectionHeader(Type.LONG);
        b.write(words, 0, n);
        b.commit();
        return b;
    }

    private static boolean intactThenFree(Buffer b) {
        int n = (b.capacity() - Buffer.SECTION_HEADER_BYTES) / Long.BYTES;
        boolean intact = b.getSectionHeader() == Type.LONG && b.getSectionSize() == n;
        if (intact && n > 0) {
            long[] words = new long[n];
            b.read(words, 0, n);
            for (long w : words) {
                intact &= w == words[0];
            }
        }
        b.free();
        return intact;
    }

    /** {@link PoolStrategy#BUDDY1} over heap memory. */
    @JCStressTest
    @State
    public static class Buddy1Heap extends PoolOverlap {
        private static final Shared SHARED = new Shared(PoolStrategy.BUDDY1, StorageKind.HEAP);

        public Buddy1Heap() {
            super(SHARED);
        }

        @Actor
        public void a(II_Result r) {
            r.r1 = actorA();
        }

        @Actor
        public void b(II_Result r) {
            r.r2 = actorB();
        }
    }

    /** {@link PoolStrategy#BUDDY1} over direct memory. */
    @JCStressTest
    @State
    public static class Buddy1Direct extends PoolOverlap {
        private static final Shared SHARED = new Shared(PoolStrategy.BUDDY1, StorageKind.DIRECT);

        public Buddy1Direct() {
            super(SHARED);
        }

        @Actor
        public void a(II_Result r) {
            r.r1 = actorA();
        }

        @Actor
        public void b(II_Result r) {
            r.r2 = actorB();
        }
    }

    /** {@link PoolStrategy#BUDDY2} over heap memory. */
    @JCStressTest
    @State
    public static class Buddy2Heap extends PoolOverlap {
        private static final Shared SHARED = new Shared(PoolStrategy.BUDDY2, StorageKind.HEAP);

        public Buddy2Heap() {
            super(SHARED);
        }

        @Actor
        public void a(II_Result r) {
            r.r1 = actorA();
        }

        @Actor
        public void b(II_Result r) {
            r.r2 = actorB();
        }
    }

    /** {@link PoolStrategy#BUDDY2} over direct memory. */
    @JCStressTest
    @State
    public static class Buddy2Direct extends PoolOverlap {
        private static final Shared SHARED = new Shared(PoolStrategy.BUDDY2, StorageKind.DIRECT);

        public Buddy2Direct() {
            super(SHARED);
        }

        @Actor
        public void a(II_Result r) {
            r.r1 = actorA();
        }

        @Actor
        public void b(II_Result r) {
            r.r2 = actorB();
        }
    }
}
