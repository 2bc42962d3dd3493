package org.mpjlite.smpdev.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.data.TypeMap;

/**
 * The reuse of receive requests: a request is handed out again only once freed, never while its
 * receive may still be reached; a loop of blocking receives reuses one request, windows of
 * non-blocking ones the same ring; other threads neither take from nor give to it.
 */
class RecyclerTest {
    private static final TypeMap INTS = TypeMap.of(BasicType.INT);
    private Rank rank;
    private Recycler recycler;

    @BeforeEach
    void setUp() {
        rank = Job.create(JobConfig.builder().ranks(1).build()).rank(0);
        recycler = rank.endpoint().recycler();
    }

    private RecvRequest take(int tag) {
        return recycler.receive(rank, 0, 0, tag, new int[1], 0, 1, INTS, "Irecv");
    }

    private static void complete(RecvRequest r) {
        r.complete(0, r.tag(), 1, BasicType.INT);
    }

    @Test
    void aLoopOfBlockingReceivesReusesOneRequest() {
        RecvRequest first = take(1);
        complete(first);
        recycler.recycle(first);
        for (int i = 2; i < 200; i++) {
            RecvRequest r = take(i);
            assertSame(first, r, "the request freed last is taken again");
            assertFalse(r.isComplete(), "a reused request is pending again");
            assertEquals(i, r.tag());
            complete(r);
            recycler.recycle(r);
        }
    }

    @Test
    void windowsOfReceivesGoRoundTheRingWithoutNewRequests() {
        int window = Tunables.RECYCLED_RECEIVES;
        RecvRequest[] first = takeWindow(window);
        Set<RecvRequest> ring = identitySet(first);
        assertEquals(window, ring.size(), "no request is handed out twice while pending");
        freeAll(first);
        for (int round = 0; round < 10; round++) {
            RecvRequest[] next = takeWindow(window);
            Set<RecvRequest> taken = identitySet(next);
            assertEquals(window, taken.size());
            assertEquals(ring, taken, "round " + round + " reuses the same requests");
            freeAll(next);
        }
    }

    @Test
    void aLongerWindowMakesNewRequestsAndNeverHandsOutAPendingOne() {
        int window = 3 * Tunables.RECYCLED_RECEIVES + 5;
        for (int round = 0; round < 5; round++) {
            RecvRequest[] taken = takeWindow(window);
            assertEquals(window, identitySet(taken).size(), "round " + round);
            freeAll(taken);
        }
    }

    @Test
    void aRequestLeftPendingIsNotTakenAgain() {
        RecvRequest kept = take(-1);
        Set<RecvRequest> seen = identitySet();
        for (int i = 0; i < 5 * Tunables.RECYCLED_RECEIVES; i++) {
            RecvRequest r = take(i);
            assertNotSame(kept, r, "receive " + i);
            seen.add(r);
            complete(r);
            recycler.recycle(r);
        }
        assertFalse(kept.isComplete());
        assertTrue(seen.size() <= 2, "the loop reuses what it frees: " + seen.size() + " requests");
    }

    @Test
    void otherThreadsNeitherTakeNorFree() throws InterruptedException {
        RecvRequest mine = take(1);
        complete(mine);
        AtomicReference<RecvRequest> theirs = new AtomicReference<>();
        Thread other = new Thread(() -> {
            recycler.recycle(mine);
            theirs.set(take(2));
        });
        other.start();
        other.join();
        assertNotSame(mine, theirs.get(), "another thread makes its own request");
        assertNotSame(mine, take(3), "a free from another thread does not free the request");
    }

    private RecvRequest[] takeWindow(int n) {
        RecvRequest[] out = new RecvRequest[n];
        for (int i = 0; i < n; i++) {
            out[i] = take(i);
        }
        return out;
    }

    private void freeAll(RecvRequest[] requests) {
        for (RecvRequest r : requests) {
            complete(r);
            recycler.recycle(r);
        }
    }

    private static Set<RecvRequest> identitySet(RecvRequest... requests) {
        Set<RecvRequest> s = Collections.newSetFromMap(new IdentityHashMap<>());
        Collections.addAll(s, requests);
        return s;
    }
}
