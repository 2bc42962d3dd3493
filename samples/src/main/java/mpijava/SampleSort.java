package mpijava;

import java.util.Arrays;
import java.util.Locale;
import mpi.MPI;

/**
 * Sorts N pseudo-random ints (default 200,000) spread evenly over the ranks, by sample sort:
 * each rank sorts its share and picks a regular sample of it; all ranks gather all samples
 * (Allgather) and pick the same splitters from them, which cut the range of keys into one bucket
 * per rank; each rank tells every other how many keys it sends it (Alltoall of the counts), so
 * that all of them can lay out their receive buffers; then the keys themselves go to their
 * buckets' ranks (Alltoallv) and each rank sorts what it received. Rank r then holds the r-th run
 * of the sorted keys. Rank 0 gathers the runs (Gather of the counts, Gatherv of the keys), checks
 * them against the keys sorted alone and prints a checksum and the largest run (the load
 * balance); a mismatch ends the job with an exception (non-zero exit). mpiJava 1.2 dialect.
 *
 * <pre>./mpjrun -np 4 samples/src/main/java/mpijava/SampleSort.java [N]</pre>
 */
public class SampleSort {
    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        int total = rest.length > 0 ? Integer.parseInt(rest[0]) : 200_000;
        int me = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int[] keys = keys(first(total, size, me), first(total, size, me + 1));
        Arrays.sort(keys);

        // Regular sampling: size samples from each rank, the same splitters on every rank.
        int[] samples = new int[size];
        for (int i = 0; i < size; i++) {
            samples[i] = keys.length == 0 ? Integer.MAX_VALUE : keys[i * keys.length / size];
        }
        int[] allSamples = new int[size * size];
        MPI.COMM_WORLD.Allgather(samples, 0, size, MPI.INT, allSamples, 0, size, MPI.INT);
        Arrays.sort(allSamples);
        // Splitter b is in the middle of the (b + 1)-th group of size samples (the first samples are
        // every rank's smallest keys). Bucket b holds the keys k with splitter b - 1 < k <= splitter b.
        int[] sendCounts = new int[size];
        int[] sendDispls = new int[size];
        int start = 0;
        for (int b = 0; b < size; b++) {
            int end = b == size - 1 ? keys.length : upperBound(keys, start, allSamples[(b + 1) * size + size / 2 - 1]);
            sendDispls[b] = start;
            sendCounts[b] = end - start;
            start = end;
        }
        int[] recvCounts = new int[size];
        MPI.COMM_WORLD.Alltoall(sendCounts, 0, 1, MPI.INT, recvCounts, 0, 1, MPI.INT);
        int[] recvDispls = displacements(recvCounts);
        int[] mine = new int[recvDispls[size - 1] + recvCounts[size - 1]];
        MPI.COMM_WORLD.Alltoallv(keys, 0, sendCounts, sendDispls, MPI.INT, mine, 0, recvCounts, recvDispls, MPI.INT);
        Arrays.sort(mine);

        int[] runs = new int[size];
        MPI.COMM_WORLD.Gather(new int[] {mine.length}, 0, 1, MPI.INT, runs, 0, 1, MPI.INT, 0);
        int[] sorted = new int[me == 0 ? total : 0];
        MPI.COMM_WORLD.Gatherv(mine, 0, mine.length, MPI.INT, sorted, 0, runs, displacements(runs), MPI.INT, 0);
        if (me == 0) {
            int[] expected = keys(0, total);
            Arrays.sort(expected);
            System.out.printf(Locale.ROOT, "SampleSort: %d keys on %d ranks, largest run %d (%.2f x even): "
                + "checksum %016x (expected %016x)%n", total, size, Arrays.stream(runs).max().getAsInt(),
                Arrays.stream(runs).max().getAsInt() * (double) size / Math.max(1, total), checksum(sorted),
                checksum(expected));
            if (!Arrays.equals(sorted, expected)) {
                throw new IllegalStateException("the gathered runs differ from the keys sorted alone");
            }
        }
        MPI.Finalize();
    }

    /** Keys {@code from} (included) to {@code to} (excluded) of the whole, whatever the number of ranks. */
    private static int[] keys(int from, int to) {
        int[] keys = new int[to - from];
        for (int i = from; i < to; i++) {
            long z = (i + 1) * 0x9E3779B97F4A7C15L;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            keys[i - from] = (int) ((z ^ (z >>> 31)) >>> 32);
        }
        return keys;
    }

    /** The first index from {@code from} of sorted {@code keys} whose key is above {@code splitter}. */
    private static int upperBound(int[] keys, int from, int splitter) {
        int lo = from;
        int hi = keys.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (keys[mid] <= splitter) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Where each block starts when blocks of {@code counts} are laid end to end. */
    private static int[] displacements(int[] counts) {
        int[] displs = new int[counts.length];
        for (int i = 1; i < counts.length; i++) {
            displs[i] = displs[i - 1] + counts[i - 1];
        }
        return displs;
    }

    /** The first of the {@code n} keys that part {@code k} of {@code parts} holds. */
    private static int first(int n, int parts, int k) {
        return k * (n / parts) + Math.min(k, n % parts);
    }

    /** A hash of the keys in order. */
    private static long checksum(int[] keys) {
        long h = 1125899906842597L;
        for (int k : keys) {
            h = 31 * h + k;
        }
        return h;
    }
}
