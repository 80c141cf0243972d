/* symwork.c: a CPU-bound program for the symbol tests: spins in its own functions, in a shared library
 * (symlib.c) and in system calls (write to /dev/null), so a cpu-clock profile has user, library and kernel
 * frames. Argument: milliseconds to run (default 300). */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

uint64_t symlib_spin(uint64_t n);

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t leaf_work(uint64_t n) {
    uint64_t a = 0;
    for (uint64_t i = 0; i < n; i++) {
        a += i * i ^ (a >> 3);
    }
    return a;
}

__attribute__((noinline)) uint64_t middle_work(uint64_t n) {
    return leaf_work(n) + leaf_work(n / 2);
}

__attribute__((noinline)) static void syscall_work(int fd) {
    static char buf[4096];
    for (int i = 0; i < 64; i++) {
        if (write(fd, buf, sizeof buf) < 0) {
            perror("write");
            exit(1);
        }
    }
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    double ms = argc > 1 ? atof(argv[1]) : 300;
    int fd = open("/dev/null", O_WRONLY);
    if (fd < 0) {
        perror("/dev/null");
        return 1;
    }
    double end = now_ms() + ms;
    while (now_ms() < end) {
        sink += middle_work(20000);
        sink += symlib_spin(20000);
        syscall_work(fd);
    }
    close(fd);
    return 0;
}
