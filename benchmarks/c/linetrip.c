/*
 * The round trip of one cache line between two cores: two threads pass a counter back and forth
 * through two lines (each thread writes one and polls the other), as a ping-pong of messages
 * passes its lines, with no MPI and no JVM. On a virtual machine the host may move the virtual
 * cores between physical ones at any moment, and this time then changes several-fold (on this
 * project's 2-vCPU guest: about 55, 130 or 580 ns), and with it every small-message number;
 * benchmarks/interleave runs this before and after each comparison to show whether the cores
 * stayed put.
 *
 *   cc -O2 -pthread -o linetrip linetrip.c
 *   ./linetrip [-n ROUND_TRIPS] [-r REPEATS]
 *
 * Prints the median over REPEATS (default 5) of the mean round trip of ROUND_TRIPS (default
 * 200000) round trips, in ns, as one number.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Each counter alone in a 128-byte block: neither shares a line (or an adjacent-line prefetch
 * pair) with the other or with anything else. */
static _Alignas(128) atomic_long ping;
static _Alignas(128) atomic_long pong;
static _Alignas(128) long round_trips = 200000;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *answer(void *unused) {
    (void) unused;
    for (long i = 1; i <= round_trips; i++) {
        while (atomic_load_explicit(&ping, memory_order_acquire) != i) {
        }
        atomic_store_explicit(&pong, i, memory_order_release);
    }
    return NULL;
}

static double measure(void) {
    atomic_store(&ping, 0);
    atomic_store(&pong, 0);
    pthread_t peer;
    if (pthread_create(&peer, NULL, answer, NULL) != 0) {
        perror("linetrip: pthread_create");
        exit(1);
    }
    double start = now();
    for (long i = 1; i <= round_trips; i++) {
        atomic_store_explicit(&ping, i, memory_order_release);
        while (atomic_load_explicit(&pong, memory_order_acquire) != i) {
        }
    }
    double end = now();
    pthread_join(peer, NULL);
    return (end - start) / round_trips * 1e9;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int repeats = 5;
    for (int a = 1; a < argc; a++) {
        if (a + 1 < argc && strcmp(argv[a], "-n") == 0) {
            round_trips = atol(argv[++a]);
        } else if (a + 1 < argc && strcmp(argv[a], "-r") == 0) {
            repeats = atoi(argv[++a]);
        } else {
            fprintf(stderr, "usage: linetrip [-n ROUND_TRIPS] [-r REPEATS]\n");
            return 2;
        }
    }
    if (round_trips < 1 || repeats < 1 || repeats > 1000) {
        fprintf(stderr, "linetrip: -n and -r take positive counts (-r at most 1000)\n");
        return 2;
    }
    double times[1000];
    for (int r = 0; r < repeats; r++) {
        times[r] = measure();
    }
    qsort(times, repeats, sizeof times[0], by_value);
    printf("%.0f\n", repeats % 2 ? times[repeats / 2] : (times[repeats / 2 - 1] + times[repeats / 2]) / 2);
    return 0;
}
