/* dwarflib.c: a shared library for the DWARF unwinding tests: calls back into the program, with a frame of its
 * own between. */
#include <stdint.h>

__attribute__((noinline)) uint64_t dwarflib_apply(uint64_t (*f)(uint64_t), uint64_t n, int times) {
    uint64_t acc = 0;
    for (int i = 0; i < times; i++) {
        acc = acc * 31 + f(n + (uint64_t) i);
    }
    return acc;
}
