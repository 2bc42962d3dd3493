/*
 * Point-to-point micro-benchmarks for native MPI, printing exactly what MPJ Lite's OSU programs print
 * (benchmarks/osu/src/main/java/bench/OSULatency.java, OSUBandwidth.java, OSUBiBandwidth.java,
 * LatencyPercentiles.java) with
 * the same loops and options, so benchmarks/compare can put the two side by side.
 *
 *   mpicc -O2 -o pt2pt pt2pt.c
 *   mpirun -np 2 ./pt2pt -t latency|percentiles|bw|bibw [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-W WINDOW]
 *                        [-s SEGMENTS]
 *
 * latency: blocking ping-pong, rank 1 sends back what it received; one-way = half the round trip.
 * percentiles: the same ping-pong, each round trip timed: mean, median, 90th, 99th, 99.9th
 *          percentile and maximum of the one-way time, and the share of the time spent in round
 *          trips longer than ten times the median.
 * bw:      rank 0 sends a window of MPI_Isend, rank 1 receives with MPI_Irecv, then a 4-byte ack.
 * bibw:    both ranks post a window of receives and of sends to each other.
 * -s:      latency and bw only: after the warm-up, SEGMENTS timed loops of ITERATIONS each, one line
 *          per segment: size, start and end (CLOCK_MONOTONIC, ns) and the segment's latency or
 *          bandwidth, as OSULatency and OSUBandwidth print them with -s (benchmarks/interleave).
 * Defaults as in OMB-J: sizes 1 B to 4 MB, 1000/10000 warm-up/timed iterations (100/500 above
 * 8 KB), window 64.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TAG 1
#define ACK_TAG 2
#define LARGE_MESSAGE 8192
#define MAX_WINDOW 1024

static const char *usage =
    "Usage: pt2pt -t latency|percentiles|bw|bibw [-m [MIN:]MAX] [-x WARMUP] [-i ITERATIONS] [-W WINDOW]"
    " [-s SEGMENTS]\n";

struct options {
    const char *test;
    long min, max;
    int warmup, iterations, window, segments;
};

static int parse(int argc, char **argv, struct options *o)
{
    o->test = NULL;
    o->min = 1;
    o->max = 4L << 20;
    o->warmup = -1;
    o->iterations = -1;
    o->window = 64;
    o->segments = 0;
    for (int a = 1; a < argc; a++) {
        if (a + 1 >= argc) {
            return 0;
        }
        const char *v = argv[++a];
        if (strcmp(argv[a - 1], "-t") == 0) {
            o->test = v;
        } else if (strcmp(argv[a - 1], "-m") == 0) {
            const char *colon = strchr(v, ':');
            if (colon) {
                o->min = atol(v);
                v = colon + 1;
            }
            o->max = atol(v);
        } else if (strcmp(argv[a - 1], "-x") == 0) {
            o->warmup = atoi(v);
        } else if (strcmp(argv[a - 1], "-i") == 0) {
            o->iterations = atoi(v);
        } else if (strcmp(argv[a - 1], "-W") == 0) {
            o->window = atoi(v);
        } else if (strcmp(argv[a - 1], "-s") == 0) {
            o->segments = atoi(v);
        } else {
            return 0;
        }
    }
    return o->test != NULL && o->min >= 1 && o->max >= o->min && o->iterations != 0
        && o->window >= 1 && o->window <= MAX_WINDOW && o->segments >= 0;
}

static int skip_of(const struct options *o, long size)
{
    return o->warmup >= 0 ? o->warmup : size > LARGE_MESSAGE ? 100 : 1000;
}

static int iters_of(const struct options *o, long size)
{
    return o->iterations > 0 ? o->iterations : size > LARGE_MESSAGE ? 500 : 10000;
}

static long now_ns(void);

/*
 * At the top of iteration i of a loop timed in segments: says when the warm-up ends (rank 0, with
 * -s) and notes the start of each segment in marks.
 */
static void mark(int me, int i, int skip, int iters, int series, long *marks)
{
    if (i == skip && series > 0 && me == 0) {
        printf("# Warm-up done, %d segments follow\n", series);
        fflush(stdout);
    }
    if (i >= skip && (i - skip) % iters == 0) {
        marks[(i - skip) / iters] = now_ns();
    }
}

/*
 * The ping-pong: skip warm-up round trips, then the segments of -s (one without it) of iters timed
 * ones; marks gets each segment's start and, last, the end (CLOCK_MONOTONIC, ns).
 */
static void latency(int me, char *sbuf, char *rbuf, int size, int skip, int iters, int series, long *marks)
{
    int segments = series > 0 ? series : 1;
    for (int i = 0; i < skip + iters * segments; i++) {
        mark(me, i, skip, iters, series, marks);
        if (me == 0) {
            MPI_Send(sbuf, size, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(rbuf, size, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(rbuf, size, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(rbuf, size, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
        }
    }
    marks[segments] = now_ns();
}

static long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static int compare_long(const void *a, const void *b)
{
    long x = *(const long *) a, y = *(const long *) b;
    return x < y ? -1 : x > y;
}

/* The nearest-rank p-th percentile of sorted[0..n). */
static long percentile(const long *sorted, int n, double p)
{
    long rank = (long) ((p / 100 * n) + 0.999999999);
    rank = rank < 1 ? 1 : rank > n ? n : rank;
    return sorted[rank - 1];
}

/* The ping-pong of latency(), each round trip timed; rank 0 prints its distribution. */
static void percentiles(int me, char *sbuf, char *rbuf, int size, int skip, int iters)
{
    long *rt = malloc(sizeof(long) * iters);
    for (int i = 0; i < skip + iters; i++) {
        long start = now_ns();
        if (me == 0) {
            MPI_Send(sbuf, size, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(rbuf, size, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(rbuf, size, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(rbuf, size, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
        }
        if (i >= skip) {
            rt[i - skip] = now_ns() - start;
        }
    }
    if (me == 0) {
        long total = 0, slow = 0;
        for (int i = 0; i < iters; i++) {
            total += rt[i];
        }
        qsort(rt, iters, sizeof(long), compare_long);
        long median = percentile(rt, iters, 50);
        for (int i = 0; i < iters; i++) {
            if (rt[i] > 10 * median) {
                slow += rt[i];
            }
        }
        printf("%d\t\t%.2f\t\t%.2f\t\t%.2f\t\t%.2f\t\t%.2f\t\t%.2f\t\t%.1f\n", size, total / 2e3 / iters,
            median / 2e3, percentile(rt, iters, 90) / 2e3, percentile(rt, iters, 99) / 2e3,
            percentile(rt, iters, 99.9) / 2e3, rt[iters - 1] / 2e3, total == 0 ? 0.0 : 100.0 * slow / total);
    }
    free(rt);
}

/* The stream of windows, timed as latency() times its round trips. */
static void bandwidth(int me, char *sbuf, char *rbuf, int size, int skip, int iters, int window, int series,
                      long *marks)
{
    MPI_Request requests[MAX_WINDOW];
    char ack[4] = {0};
    int segments = series > 0 ? series : 1;
    for (int i = 0; i < skip + iters * segments; i++) {
        mark(me, i, skip, iters, series, marks);
        if (me == 0) {
            for (int w = 0; w < window; w++) {
                MPI_Isend(sbuf, size, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &requests[w]);
            }
            MPI_Waitall(window, requests, MPI_STATUSES_IGNORE);
            MPI_Recv(ack, 4, MPI_BYTE, 1, ACK_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (int w = 0; w < window; w++) {
                MPI_Irecv(rbuf, size, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &requests[w]);
            }
            MPI_Waitall(window, requests, MPI_STATUSES_IGNORE);
            MPI_Send(ack, 4, MPI_BYTE, 0, ACK_TAG, MPI_COMM_WORLD);
        }
    }
    marks[segments] = now_ns();
}

static double bibandwidth(int me, char *sbuf, char *rbuf, int size, int skip, int iters, int window)
{
    MPI_Request requests[2 * MAX_WINDOW];
    int peer = 1 - me;
    double start = 0;
    for (int i = 0; i < skip + iters; i++) {
        if (i == skip) {
            start = MPI_Wtime();
        }
        for (int w = 0; w < window; w++) {
            MPI_Irecv(rbuf, size, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &requests[w]);
        }
        for (int w = 0; w < window; w++) {
            MPI_Isend(sbuf, size, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &requests[window + w]);
        }
        MPI_Waitall(2 * window, requests, MPI_STATUSES_IGNORE);
    }
    return MPI_Wtime() - start;
}

int main(int argc, char **argv)
{
    int me, ranks;
    struct options o;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (!parse(argc, argv, &o)) {
        if (me == 0) {
            fputs(usage, stderr);
        }
        MPI_Finalize();
        return 2;
    }
    if (ranks != 2) {
        if (me == 0) {
            printf("This test requires exactly two processes (ranks); run with -np 2.\n");
        }
        MPI_Finalize();
        return 0;
    }
    int is_latency = strcmp(o.test, "latency") == 0;
    int is_percentiles = strcmp(o.test, "percentiles") == 0;
    int is_bw = strcmp(o.test, "bw") == 0;
    int is_bibw = strcmp(o.test, "bibw") == 0;
    if (!is_latency && !is_percentiles && !is_bw && !is_bibw) {
        if (me == 0) {
            fputs(usage, stderr);
        }
        MPI_Finalize();
        return 2;
    }
    char *sbuf = malloc(o.max);
    char *rbuf = malloc(o.max);
    memset(sbuf, 'a', o.max);
    memset(rbuf, 'b', o.max);
    if (me == 0 && is_percentiles) {
        printf("# Open MPI latency percentiles (one-way, half a round trip)\n");
        printf("# Size [B]\tMean [us]\tMedian [us]\tP90 [us]\tP99 [us]\tP99.9 [us]\tMax [us]\tSlow share [%%]\n");
    } else if (me == 0) {
        printf("%s\n", is_latency ? "# OSU Latency Test" : is_bw ? "# OSU Bandwidth Test"
            : "# OSU Bi-Directional Bandwidth Test");
        if (o.segments > 0 && (is_latency || is_bw)) {
            printf("# Size [B]\tStart [ns]\tEnd [ns]\t%s\n", is_latency ? "Latency [us]" : "Bandwidth [MB/s]");
        } else {
            printf("%s\n", is_latency ? "# Size [B]\t\tLatency [us]\tBandwidth [Gb/s]"
                : "# Size [B]\t\tBandwidth [MB/s]\tBandwidth [Gb/s]");
        }
    }
    int segments = o.segments > 0 ? o.segments : 1;
    long *marks = malloc(sizeof(long) * (segments + 1));
    long first = 1;
    while (first < o.min) {
        first *= 2;
    }
    for (long size = first; size <= o.max; size *= 2) {
        int skip = skip_of(&o, size);
        int iters = iters_of(&o, size);
        MPI_Barrier(MPI_COMM_WORLD);
        if (is_percentiles) {
            percentiles(me, sbuf, rbuf, (int) size, skip, iters);
        } else if (is_latency || is_bw) {
            if (is_latency) {
                latency(me, sbuf, rbuf, (int) size, skip, iters, o.segments, marks);
            } else {
                bandwidth(me, sbuf, rbuf, (int) size, skip, iters, o.window, o.segments, marks);
            }
            for (int seg = 0; me == 0 && seg < segments; seg++) {
                double ns = (double) (marks[seg + 1] - marks[seg]);
                double value = is_latency ? ns / 1e3 / (2.0 * iters) : (double) size * o.window * iters * 1e3 / ns;
                if (o.segments > 0) {
                    printf("%ld\t%ld\t%ld\t%.3f\n", size, marks[seg], marks[seg + 1], value);
                } else {
                    printf("%ld\t\t\t%.2f\t\t\t%.2f\n", size, value,
                        is_latency ? size * 8 / (value * 1e3) : value * 8 / 1e3);
                }
            }
        } else {
            double seconds = bibandwidth(me, sbuf, rbuf, (int) size, skip, iters, o.window);
            double mbps = 2.0 * size * o.window * iters / 1e6 / seconds;
            if (me == 0) {
                printf("%ld\t\t\t%.2f\t\t\t%.2f\n", size, mbps, mbps * 8 / 1e3);
            }
        }
        fflush(stdout);
    }
    free(marks);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
