/* Calls clock_gettime in a loop: nearly every sample of a cpu-clock profile lands in the vDSO. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>

/* the sum goes here so that the calls are not optimized away; perf record exits with the program's status */
volatile long sink;

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    struct timespec ts;
    long sum = 0;
    for (long i = 0; i < n; i++) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sum += ts.tv_nsec;
    }
    sink = sum;
    return 0;
}
