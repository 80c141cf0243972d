/* overlap.c: symbols that overlap one another, for the symbol-choice tests (LiveOverlapTest). Eight functions
 * each hold an assembler label (a global STT_NOTYPE symbol of size 0 inside a sized STT_FUNC, as hand-written
 * assembly and node's builtins have), and a hot loop calls the shared library overlib.c through the PLT, whose
 * entries perf's stretched _init covers. Argument: milliseconds to run (default 300). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

uint64_t overlib_step(uint64_t x);

static volatile uint64_t sink;

/* The label sits in the loop's body, so samples fall on both sides of it. */
#define LABELLED(NAME, LABEL)                                                                                 \
    __attribute__((noinline)) uint64_t NAME(uint64_t n) {                                                     \
        uint64_t a = 1;                                                                                       \
        for (uint64_t i = 0; i < n; i++) {                                                                    \
            a = a * 6364136223846793005ULL + i;                                                               \
            __asm__ volatile(".globl " #LABEL "\n" #LABEL ":" : "+r"(a));                                     \
            a ^= a >> 7;                                                                                      \
            a += i * 3;                                                                                       \
        }                                                                                                     \
        return a;                                                                                             \
    }

LABELLED(spin_0, label_0)
LABELLED(spin_1, label_1)
LABELLED(spin_2, label_2)
LABELLED(spin_3, label_3)
LABELLED(spin_4, label_4)
LABELLED(spin_5, label_5)
LABELLED(spin_6, label_6)
LABELLED(spin_7, label_7)

__attribute__((noinline)) static uint64_t plt_loop(uint64_t n) {
    uint64_t a = 0;
    for (uint64_t i = 0; i < n; i++) {
        a = overlib_step(a + i);
    }
    return a;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    double ms = argc > 1 ? atof(argv[1]) : 300;
    uint64_t n = 3000 + (uint64_t)argc;
    double end = now_ms() + ms;
    while (now_ms() < end) {
        sink += spin_0(n) + spin_1(n) + spin_2(n) + spin_3(n) + spin_4(n) + spin_5(n) + spin_6(n) + spin_7(n);
        sink += plt_loop(60000);
    }
    return 0;
}
