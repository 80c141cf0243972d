/*
 * Static functions inlined three levels deep (leaf into mid into top) into a recursive function, and a call into
 * a shared library with its own inlined function: the inline frames perf 6.1 adds to --call-graph dwarf callchains
 * (LiveInlineTest, DebugInfoTest). Argument: iterations.
 */
#include <stdlib.h>

long inlinelib_work(long x);

static volatile long sink;

static inline __attribute__((always_inline)) long leaf(long x) {
    long s = 0;
    for (long i = 0; i < x; i++) {
        s += (i * i) ^ sink;
    }
    return s;
}

static inline __attribute__((always_inline)) long mid(long x) {
    return leaf(x) + leaf(x / 2);
}

static inline __attribute__((always_inline)) long top(long x) {
    return mid(x) * 3;
}

__attribute__((noinline)) long recurse(long n, long x) {
    if (n == 0) {
        return top(x) + inlinelib_work(x);
    }
    return recurse(n - 1, x) + top(x / 4);
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 100;
    for (long i = 0; i < n; i++) {
        sink += recurse(5, 20000);
    }
    return 0;
}
