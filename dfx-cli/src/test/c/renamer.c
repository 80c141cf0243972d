/* renamer.c: threads and processes that rename themselves with non-ASCII names while they page-fault and spin,
 * for the tests that compare dfx's perf.data exports and report with the real perf on a fresh recording.
 *   main "grüße-main" -> thread "thread-π", renamed "a日本語のスレッド" (19 bytes: the kernel keeps 15, cutting
 *   a character) -> child process (inherits "grüße-main", then "kind-ö") -> child process that execs /bin/true. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* One page fault per page: fresh anonymous pages, each written once. */
static __attribute__((noinline)) void fill_pages(int pages) {
    char *p = mmap(NULL, (size_t)pages * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        exit(2);
    }
    for (int i = 0; i < pages; i++) {
        ((volatile char *)p)[(size_t)i * 4096] = 1;
    }
    munmap(p, (size_t)pages * 4096);
}

static volatile uint64_t sink;

static __attribute__((noinline)) void spin_inner(long n) {
    for (long i = 0; i < n; i++) {
        sink += (uint64_t)i * 2654435761u;
    }
}

static __attribute__((noinline)) void spin_outer(long n) {
    spin_inner(n);
    spin_inner(n / 2);
}

static void rename_to(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

static void *worker(void *arg) {
    long n = *(long *)arg;
    rename_to("thread-π");
    fill_pages(8);
    spin_outer(n);
    rename_to("a日本語のスレッド");
    fill_pages(8);
    spin_inner(n);
    return NULL;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 20000000;
    rename_to("grüße-main");
    fill_pages(8);
    pthread_t t;
    pthread_create(&t, NULL, worker, &n);
    pthread_join(t, NULL);
    pid_t child = fork();
    if (child == 0) {
        fill_pages(4);
        rename_to("kind-ö");
        fill_pages(4);
        spin_outer(n / 4);
        _exit(0);
    }
    waitpid(child, NULL, 0);
    pid_t execer = fork();
    if (execer == 0) {
        execl("/bin/true", "true", (char *)NULL);
        _exit(127);
    }
    waitpid(execer, NULL, 0);
    spin_inner(n / 4);
    return 0;
}
