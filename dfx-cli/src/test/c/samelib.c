/* samelib.c: a shared library for ReportSymbolsLiveTest, built three times (SAME_ENTRY names the exported entry
 * of each copy, one copy stripped): each copy has a static same_work, so a profile holds functions of one name in
 * several DSOs, and in the stripped one no name at all. */
#include <stdint.h>

#ifndef SAME_ENTRY
#define SAME_ENTRY same_entry
#endif

uint64_t SAME_ENTRY(uint64_t n);

__attribute__((noinline)) static uint64_t same_work(uint64_t n) {
    uint64_t a = 1;
    for (uint64_t i = 0; i < n; i++) {
        a = a * 2862933555777941757ULL + i;
    }
    return a;
}

uint64_t SAME_ENTRY(uint64_t n) {
    return same_work(n) + 1;
}
