/* dwarfwork.c: a CPU-bound program for the DWARF unwinding tests (--call-graph dwarf): time in a leaf under
 * recursion (caller frames that push registers), under a frame with alloca (the CFA moves to rbp), in callbacks a
 * shared library (dwarflib.c) makes into this program, and in a signal handler (frames through the sigreturn
 * trampoline); now and then a recursion deeper than perf's 127 frames and than the 8 KiB stack copy. Built by the
 * tests with and without frame pointers and stripped. Argument: milliseconds to run (default 300). */
#define _GNU_SOURCE
#include <alloca.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

uint64_t dwarflib_apply(uint64_t (*f)(uint64_t), uint64_t n, int times);

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t spin(uint64_t n) {
    uint64_t a = 0;
    for (uint64_t i = 0; i < n; i++) {
        a += i * i ^ (a >> 3);
    }
    return a;
}

__attribute__((noinline)) static uint64_t recurse(int depth, uint64_t n) {
    if (depth <= 0) {
        return spin(n);
    }
    uint64_t r = recurse(depth - 1, n);
    sink += r;
    return r ^ (uint64_t) depth;
}

__attribute__((noinline)) static uint64_t with_alloca(size_t k, uint64_t n) {
    volatile uint64_t *buf = alloca(k * sizeof *buf);
    for (size_t i = 0; i < k; i++) {
        buf[i] = i;
    }
    return spin(n) + buf[k - 1];
}

__attribute__((noinline)) static uint64_t callback(uint64_t n) {
    return spin(n) + 1;
}

static void on_alarm(int sig) {
    (void) sig;
    sink += spin(30000);
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    double ms = argc > 1 ? atof(argv[1]) : 300;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 2000}, {0, 2000}};
    setitimer(ITIMER_REAL, &it, NULL);
    double end = now_ms() + ms;
    for (int round = 0; now_ms() < end; round++) {
        sink += recurse(round % 16 == 15 ? 200 : 12, 20000);
        sink += with_alloca(64 + round % 32, 20000);
        sink += dwarflib_apply(callback, 10000, 2);
    }
    return 0;
}
