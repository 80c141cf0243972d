/* namework.c: calls, in order, every function of a table the test assembles (namework-names.s, written by
 * NameProgram), each a loop of some million turns under a symbol name of the test's choosing (Rust v0, OCaml,
 * Java, ... names no C compiler would give a function), so a cpu-clock profile has samples in each of them.
 * Argument: how many rounds over the table (default 1). */
#include <stdlib.h>

extern void (*const namework_fns[])(void);
extern const int namework_count;

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < namework_count; i++) {
            namework_fns[i]();
        }
    }
    return 0;
}
