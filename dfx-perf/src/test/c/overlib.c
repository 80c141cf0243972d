/* overlib.c: the shared library of overlap.c: one short function, called through the PLT. */
#include <stdint.h>

uint64_t overlib_step(uint64_t x);

uint64_t overlib_step(uint64_t x) {
    return x ^ (x >> 3);
}
