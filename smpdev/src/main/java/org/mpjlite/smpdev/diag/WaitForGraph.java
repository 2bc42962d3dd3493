package org.mpjlite.smpdev.diag;

import java.util.BitSet;
import java.util.List;

/** Finds a cycle in the wait-for graph of a stuck job, for its report. Stateless. */
final class WaitForGraph {
    private WaitForGraph() {
    }

    /**
     * A cycle {@code rank 0 -> rank 1 -> rank 0} among the ranks, where {@code waitsFor.get(i)} are
     * the ranks rank i waits for; null if there is none (ranks waiting on finished ranks).
     */
    static String cycle(List<BitSet> waitsFor) {
        int n = waitsFor.size();
        int[] state = new int[n]; // 0 unvisited, 1 on the current path, 2 done
        int[] next = new int[n];
        for (int start = 0; start < n; start++) {
            int found = dfs(start, waitsFor, state, next);
            if (found >= 0) {
                StringBuilder s = new StringBuilder("rank ").append(found);
                for (int r = next[found]; r != found; r = next[r]) {
                    s.append(" -> rank ").append(r);
                }
                return s.append(" -> rank ").append(found).toString();
            }
        }
        return null;
    }

    /** Depth-first search; returns a rank on a cycle (with {@code next} linking the cycle) or -1. */
    private static int dfs(int r, List<BitSet> waitsFor, int[] state, int[] next) {
        if (state[r] == 2) {
            return -1;
        }
        state[r] = 1;
        BitSet out = waitsFor.get(r);
        for (int s = out.nextSetBit(0); s >= 0; s = out.nextSetBit(s + 1)) {
            next[r] = s;
            if (state[s] == 1) {
                return s;
            }
            int found = dfs(s, waitsFor, state, next);
            if (found >= 0) {
                return found;
            }
        }
        state[r] = 2;
        return -1;
    }
}
