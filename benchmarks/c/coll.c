/*
 * Collective loops for native MPI in OMB's collective output format (the format of MPJ Lite's
 * benchmarks/osu/src/main/java/bench/OSUAllreduce.java, OSUBcast.java, OSUGatherv.java, ...), so
 * benchmarks/compare can put them side by side.
 *
 *   mpicc -O2 -o coll coll.c
 *   mpirun -np N ./coll -t TEST [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-s SEGMENTS] [-b]
 *
 * allreduce:      MPI_Allreduce of MPI_FLOAT elements with MPI_SUM (sizes from 4 B, as in OMB).
 * bcast:          MPI_Bcast of bytes from rank 0.
 * reduce:         MPI_Reduce of MPI_FLOAT elements with MPI_SUM to rank 0 (sizes from 4 B, as in OMB).
 * barrier:        MPI_Barrier (sizes do not apply: give one, -m 8:8, as OSUBarrier accepts them).
 * gatherv, scatterv, allgatherv, alltoallv: SIZE bytes per rank (per pair for alltoallv), block r
 *                 at displacement r * SIZE, root 0 (as OMB's osu_gatherv and the others).
 * reduce_scatter: MPI_Reduce_scatter of SIZE / 4 MPI_FLOAT elements with MPI_SUM, split as OMB's
 *                 osu_reduce_scatter splits them (equal shares, the remainder to the first ranks).
 * Each rank times each call, with a barrier after it (outside the time), as OMB and the Java
 * programs do; rank 0 prints the average, minimum and maximum over ranks of the mean time per call. Defaults as in OMB-J: sizes up to 1 MB, 1000/10000 warm-up/timed iterations
 * (100/500 above 8 KB).
 * -s SEGMENTS: after the warm-up, SEGMENTS timed loops of ITERATIONS calls, one line per segment:
 * size, rank 0's start and end (CLOCK_MONOTONIC, ns) and the average over ranks of the mean time
 * per call, as OSUAllreduce and OSUBcast print them with -s (benchmarks/interleave).
 * -b: back to back, no barrier between the calls, one after each loop of ITERATIONS (outside the
 * time), as OSUBcast -b and OSUReduce -b: a rank's time is its loop's time per call.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LARGE_MESSAGE 8192

static long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

int main(int argc, char **argv)
{
    int me, ranks;
    const char *test = NULL;
    long min = 1, max = 1L << 20;
    int warmup = -1, iterations = -1, series = 0, back_to_back = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    int ok = 1;
    for (int a = 1; a < argc && ok; a += 2) {
        if (strcmp(argv[a], "-b") == 0) {
            back_to_back = 1;
            a--; /* a flag: no value */
        } else if (a + 1 >= argc) {
            ok = 0;
        } else if (strcmp(argv[a], "-t") == 0) {
            test = argv[a + 1];
        } else if (strcmp(argv[a], "-m") == 0) {
            char *colon = strchr(argv[a + 1], ':');
            if (colon) {
                min = atol(argv[a + 1]);
            }
            max = atol(colon ? colon + 1 : argv[a + 1]);
        } else if (strcmp(argv[a], "-x") == 0) {
            warmup = atoi(argv[a + 1]);
        } else if (strcmp(argv[a], "-i") == 0) {
            iterations = atoi(argv[a + 1]);
        } else if (strcmp(argv[a], "-s") == 0) {
            series = atoi(argv[a + 1]);
        } else {
            ok = 0;
        }
    }
    static const char *const tests[] = {"allreduce", "bcast", "barrier", "gatherv", "scatterv", "allgatherv", "alltoallv",
        "reduce_scatter", "reduce"};
    static const char *const titles[] = {"Allreduce", "Broadcast", "Barrier", "Gatherv", "Scatterv", "Allgatherv",
        "All-to-Allv Personalized Exchange", "Reduce_scatter", "Reduce"};
    enum { ALLREDUCE, BCAST, BARRIER, GATHERV, SCATTERV, ALLGATHERV, ALLTOALLV, REDUCE_SCATTER, REDUCE, TESTS };
    int t = 0;
    while (ok && test && t < TESTS && strcmp(test, tests[t]) != 0) {
        t++;
    }
    if (!ok || !test || t == TESTS || min < 1 || max < min || series < 0) {
        if (me == 0) {
            fputs("Usage: coll -t allreduce|bcast|barrier|gatherv|scatterv|allgatherv|alltoallv|reduce_scatter|reduce"
                  " [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-s SEGMENTS] [-b]\n", stderr);
        }
        MPI_Finalize();
        return 2;
    }
    /* Room for one block per rank: the v forms move SIZE bytes per rank. */
    char *sbuf = calloc(max * ranks, 1);
    char *rbuf = calloc(max * ranks, 1);
    int *counts = calloc(ranks, sizeof(int));
    int *displs = calloc(ranks, sizeof(int));
    if (me == 0) {
        printf("# OSU MPI %s Latency Test%s\n", titles[t], back_to_back ? " (back to back)" : "");
        printf("%s\n", series > 0 ? "# Size [B]\tStart [ns]\tEnd [ns]\tLat Avg[us]"
            : "# Size\t\tLat Avg[us]\t\tLat Min[us]\t\tLat Max[us]");
    }
    int segments = series > 0 ? series : 1;
    double *totals = malloc(sizeof(double) * segments);
    double *sums = malloc(sizeof(double) * segments);
    long *marks = malloc(sizeof(long) * (segments + 1));
    int floats = t == ALLREDUCE || t == REDUCE_SCATTER || t == REDUCE;
    long first = floats ? 4 : 1;
    while (first < min) {
        first *= 2;
    }
    for (long size = first; size <= max; size *= 2) {
        int skip = warmup >= 0 ? warmup : size > LARGE_MESSAGE ? 100 : 1000;
        int iters = iterations > 0 ? iterations : size > LARGE_MESSAGE ? 500 : 10000;
        int n = (int) size, elements = (int) (size / 4);
        for (int r = 0; r < ranks; r++) {
            counts[r] = t == REDUCE_SCATTER ? elements / ranks + (r < elements % ranks) : n;
            displs[r] = r * n;
        }
        memset(totals, 0, sizeof(double) * segments);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < skip + iters * segments; i++) {
            if (i == skip && series > 0) {
                if (me == 0) {
                    printf("# Warm-up done, %d segments follow\n", series);
                    fflush(stdout);
                }
                MPI_Barrier(MPI_COMM_WORLD);
            }
            if (i >= skip && (i - skip) % iters == 0) {
                marks[(i - skip) / iters] = now_ns();
            }
            double start = MPI_Wtime();
            switch (t) {
            case ALLREDUCE:
                MPI_Allreduce(sbuf, rbuf, elements, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
                break;
            case BCAST:
                MPI_Bcast(sbuf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
                break;
            case BARRIER:
                MPI_Barrier(MPI_COMM_WORLD);
                break;
            case GATHERV:
                MPI_Gatherv(sbuf, n, MPI_BYTE, rbuf, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
                break;
            case SCATTERV:
                MPI_Scatterv(sbuf, counts, displs, MPI_BYTE, rbuf, n, MPI_BYTE, 0, MPI_COMM_WORLD);
                break;
            case ALLGATHERV:
                MPI_Allgatherv(sbuf, n, MPI_BYTE, rbuf, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
                break;
            case ALLTOALLV:
                MPI_Alltoallv(sbuf, counts, displs, MPI_BYTE, rbuf, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
                break;
            case REDUCE:
                MPI_Reduce(sbuf, rbuf, elements, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
                break;
            default:
                MPI_Reduce_scatter(sbuf, rbuf, counts, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
                break;
            }
            if (i >= skip) {
                totals[(i - skip) / iters] += MPI_Wtime() - start;
            }
            /* Back to back: a barrier only where a loop of ITERATIONS (or the warm-up) ends. */
            if (!back_to_back || i + 1 == skip || (i >= skip && (i + 1 - skip) % iters == 0)) {
                MPI_Barrier(MPI_COMM_WORLD);
            }
        }
        marks[segments] = now_ns();
        if (series > 0) {
            MPI_Reduce(totals, sums, segments, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            for (int k = 0; me == 0 && k < segments; k++) {
                printf("%ld\t%ld\t%ld\t%.3f\n", size, marks[k], marks[k + 1], sums[k] * 1e6 / iters / ranks);
            }
            fflush(stdout);
            continue;
        }
        double mean = totals[0] * 1e6 / iters, avg, lo, hi;
        MPI_Reduce(&mean, &avg, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(&mean, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(&mean, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (me == 0) {
            printf("%ld\t\t\t%.2f\t\t\t%.2f\t\t\t%.2f\n", size, avg / ranks, lo, hi);
            fflush(stdout);
        }
    }
    free(totals);
    free(sums);
    free(marks);
    free(sbuf);
    free(rbuf);
    free(counts);
    free(displs);
    MPI_Finalize();
    return 0;
}
