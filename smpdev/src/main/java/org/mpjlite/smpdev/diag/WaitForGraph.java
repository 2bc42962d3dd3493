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
        int[] path = new int[n];
        for (int start = 0; start < n; start++) {
            int found = dfs(start, waitsFor, state, next, path);
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

    /**
     * Depth-first search from {@code start}; returns a rank on a cycle (with {@code next} linking the
     * cycle) or -1. Iterative, with the path in {@code path}: a wait chain through ten thousand
     * ranks is as deep as that.
     */
    private static int dfs(int start, List<BitSet> waitsFor, int[] state, int[] next, int[] path) {
        if (state[start] == 2) {
            return -1;
        }
        int depth = 0;
        path[0] = start;
        state[start] = 1;
        next[start] = -1;
        while (depth >= 0) {
            int r = path[depth];
            int s = waitsFor.get(r).nextSetBit(next[r] + 1);
            if (s < 0) {
                state[r] = 2;
                depth--;
                continue;
            }
            next[r] = s;
            if (state[s] == 1) {
                return s;
            }
            if (state[s] == 0) {
                state[s] = 1;
                next[s] = -1;
                path[++depth] = s;
            }
        }
        return -1;
    }
}
