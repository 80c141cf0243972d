/* symlib.c: a shared library for the symbol tests: a function that spins in user space. */
#include <stdint.h>

uint64_t symlib_spin(uint64_t n);

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    return x ^ (x >> 29);
}

uint64_t symlib_spin(uint64_t n) {
    uint64_t acc = 1;
    for (uint64_t i = 0; i < n; i++) {
        acc = mix(acc + i);
    }
    return acc;
}
