/* samework.c: the program of ReportSymbolsLiveTest. It calls the three copies of samelib.c (each with a static
 * same_work), a same_work of its own, and code under a data-object symbol (blob, STT_OBJECT: perf's report prints
 * such a symbol with an offset), which also calls a function so blob is on callchains too. Argument: milliseconds
 * to run (default 300). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

uint64_t same_entry_a(uint64_t n);
uint64_t same_entry_b(uint64_t n);
uint64_t same_entry_c(uint64_t n);
uint64_t blob(uint64_t n);
uint64_t blob_callee(uint64_t n);

__asm__(".text\n"
        ".globl blob\n"
        ".type blob, @object\n"
        "blob:\n"
        "  push %rbp\n"
        "  mov %rsp, %rbp\n"
        "  push %rbx\n"
        "  push %rdi\n"
        "  mov %rdi, %rax\n"
        "1: imul $3, %rax, %rax\n"
        "  add $1, %rax\n"
        "  dec %rdi\n"
        "  jnz 1b\n"
        "  mov %rax, %rbx\n"
        "  pop %rdi\n"
        "  call blob_callee\n"
        "  add %rbx, %rax\n"
        "  pop %rbx\n"
        "  pop %rbp\n"
        "  ret\n"
        ".size blob, .-blob\n");

static volatile uint64_t sink;

__attribute__((noinline)) uint64_t blob_callee(uint64_t n) {
    uint64_t a = 5;
    for (uint64_t i = 0; i < n; i++) {
        a = a * 1442695040888963407ULL + i;
    }
    return a;
}

__attribute__((noinline)) static uint64_t same_work(uint64_t n) {
    uint64_t a = 3;
    for (uint64_t i = 0; i < n; i++) {
        a = a * 6364136223846793005ULL + i;
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
    uint64_t n = 20000 + (uint64_t)argc;
    double end = now_ms() + ms;
    while (now_ms() < end) {
        sink += same_entry_a(n) + same_entry_b(n) + same_entry_c(n) + same_work(n) + blob(n);
    }
    return 0;
}
