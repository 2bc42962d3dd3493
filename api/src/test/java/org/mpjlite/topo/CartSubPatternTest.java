package org.mpjlite.topo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.IntStream;
import mpi.CartComm;
import mpi.CartParms;
import mpi.Cartcomm;
import mpi.MPI;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.p2p.Jobs.World;
import org.mpjlite.smpdev.Tunables;
import org.mpjlite.smpdev.MatchingKind;

/**
 * Open MPI's and mpiJava's usual pattern: dims from Dims_create, createCart, then sub with every
 * choice of kept dimensions, from one to four dimensions (at 8 ranks, four dimensions are 2x2x2x1).
 */
class CartSubPatternTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 6, 8})
    void subOfAGridFromDimsCreateKeepsTheChosenDimensions(int n) {
        List<String> out = new World(n, MatchingKind.LOCK_FREE, Tunables.DEFAULT_EAGER_THRESHOLD).run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            StringBuilder seen = new StringBuilder();
            for (int nd = 1; nd <= 4; nd++) {
                int[] dims = new int[nd];
                CartComm.createDims(n, dims);
                boolean[] periods = new boolean[nd];
                periods[nd - 1] = true;
                CartComm cart = MPI.COMM_WORLD.createCart(dims, periods, true);
                Cartcomm old = MPI.COMM_WORLD.Create_cart(dims, periods, true);
                assertEquals(nd, cart.getTopo().getDimCount());
                assertEquals(nd, old.Get().dims.length);
                for (int mask = 0; mask < (1 << nd); mask++) {
                    boolean[] remain = new boolean[nd];
                    int size = 1;
                    for (int d = 0; d < nd; d++) {
                        remain[d] = (mask & (1 << d)) != 0;
                        size *= remain[d] ? dims[d] : 1;
                    }
                    int kept = Integer.bitCount(mask);
                    CartComm sub = cart.sub(remain);
                    Cartcomm oldSub = old.Sub(remain);
                    CartParms p = sub.getTopo();
                    assertEquals(kept, p.getDimCount(), "dims of the slice");
                    assertEquals(size, sub.getSize());
                    assertEquals(size, oldSub.Size());
                    int[] keptDims = IntStream.range(0, nd).filter(d -> remain[d]).map(d -> dims[d]).toArray();
                    assertArrayEquals(keptDims, oldSub.Get().dims);
                    int[] sum = new int[1];
                    sub.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
                    assertEquals(size, sum[0]);
                    // A slice of a slice: keep its first dimension, if it has any.
                    if (kept > 0) {
                        boolean[] first = new boolean[kept];
                        first[0] = true;
                        assertEquals(keptDims[0], sub.sub(first).getSize());
                    }
                }
                seen.append(nd);
            }
            return me + ":" + seen;
        });
        for (int r = 0; r < n; r++) {
            assertEquals(r + ":1234", out.get(r));
        }
    }
}
