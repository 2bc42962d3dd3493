/*
 * Collective loops for native MPI in OMB's collective output format (the format of MPJ Lite's
 * bench/OSUAllreduce.java and OSUBcast.java), so bench/compare can put them side by side.
 *
 *   mpicc -O2 -o coll coll.c
 *   mpirun -np N ./coll -t allreduce|bcast [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS]
 *
 * allreduce: MPI_Allreduce of MPI_FLOAT elements with MPI_SUM (sizes from 4 B, as in OMB).
 * bcast:     MPI_Bcast of bytes from rank 0.
 * Each rank times each call, with a barrier after it (outside the time), as OMB and the Java
 * programs do; rank 0 prints the average, minimum and maximum over ranks of the mean time per call. Defaults as in OMB-J: sizes up to 1 MB, 1000/10000 warm-up/timed iterations
 * (100/500 above 8 KB).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LARGE_MESSAGE 8192

int main(int argc, char **argv)
{
    int me, ranks;
    const char *test = NULL;
    long min = 1, max = 1L << 20;
    int warmup = -1, iterations = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    int ok = 1;
    for (int a = 1; a < argc && ok; a += 2) {
        if (a + 1 >= argc) {
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
        } else {
            ok = 0;
        }
    }
    int allreduce = ok && test && strcmp(test, "allreduce") == 0;
    if (!ok || !test || (!allreduce && strcmp(test, "bcast") != 0) || min < 1 || max < min) {
        if (me == 0) {
            fputs("Usage: coll -t allreduce|bcast [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS]\n", stderr);
        }
        MPI_Finalize();
        return 2;
    }
    char *sbuf = calloc(max, 1);
    char *rbuf = calloc(max, 1);
    if (me == 0) {
        printf("%s\n", allreduce ? "# OSU MPI Allreduce Latency Test" : "# OSU MPI Broadcast Latency Test");
        printf("# Size\t\tLat Avg[us]\t\tLat Min[us]\t\tLat Max[us]\n");
    }
    long first = allreduce ? 4 : 1;
    while (first < min) {
        first *= 2;
    }
    for (long size = first; size <= max; size *= 2) {
        int skip = warmup >= 0 ? warmup : size > LARGE_MESSAGE ? 100 : 1000;
        int iters = iterations > 0 ? iterations : size > LARGE_MESSAGE ? 500 : 10000;
        double total = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < skip + iters; i++) {
            double start = MPI_Wtime();
            if (allreduce) {
                MPI_Allreduce(sbuf, rbuf, (int) (size / 4), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
            } else {
                MPI_Bcast(sbuf, (int) size, MPI_BYTE, 0, MPI_COMM_WORLD);
            }
            if (i >= skip) {
                total += MPI_Wtime() - start;
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
        double mean = total * 1e6 / iters, avg, lo, hi;
        MPI_Reduce(&mean, &avg, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(&mean, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(&mean, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (me == 0) {
            printf("%ld\t\t\t%.2f\t\t\t%.2f\t\t\t%.2f\n", size, avg / ranks, lo, hi);
            fflush(stdout);
        }
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
