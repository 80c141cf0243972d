/*
 * Test producer for the region tests: THREADS threads each write EVENTS sequence-numbered instants named "seq",
 * value (thread << 32) | i, through dfx.h.
 *   region_producer THREADS EVENTS [hold] [tsc] [events]
 * hold:   after writing, every thread waits; then "ready" is printed and the process waits to be killed (the
 *         SIGKILL test: no thread has ended, so every lane still holds its current buffer)
 * tsc:    implicit timestamps from the TSC
 * events: also write one event of every other type on thread 0 (after its sequence)
 * fork:   after the sequence, fork a child that writes EVENTS more as thread 100 and exits; the parent waits
 * forkquiet: after the sequence, fork a child that writes nothing and exits; the parent waits
 * pause:  after the sequence, print "half", wait for a line on stdin, then write EVENTS more on each thread
 * names:  thread t names itself before its first event: t % 3 == 1 with pthread_setname_np ("os-T"), t % 3 == 2
 *         with dfx_thread_name ("dfx-T"); t % 3 == 0 (t > 0) with pthread_setname_np after its last ("late-T");
 *         thread 0 (main) keeps the process's name
 * pools:  thread t records into pool t % 2 (dfx_thread_pool); exits 3 when the region refuses it
 * Prints "done enabled=N" and exits 0.
 */
#include "dfx.h"

#include <pthread.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long events;
static int hold, names, paused, pools;
static pthread_barrier_t written, halfway;

static void *writer(void *arg) {
    uint64_t t = (uint64_t)(uintptr_t)arg;
    char name[16];
    if (pools && dfx_thread_pool((uint32_t)(t % 2)) != 0) {
        fprintf(stderr, "thread %u: no pool %u\n", (unsigned)t, (unsigned)(t % 2));
        exit(3);
    }
    if (names && t % 3 == 1) {
        snprintf(name, sizeof name, "os-%u", (unsigned)t);
        pthread_setname_np(pthread_self(), name);
    } else if (names && t % 3 == 2) {
        snprintf(name, sizeof name, "dfx-%u", (unsigned)t);
        dfx_thread_name(name);
    }
    for (long i = 0; i < events; i++) {
        dfx_instant_arg("seq", "t", (int64_t)((t << 32) | (uint64_t)i));
    }
    if (paused) {
        pthread_barrier_wait(&halfway); /* main reads the line between these two */
        pthread_barrier_wait(&halfway);
        for (long i = events; i < 2 * events; i++) {
            dfx_instant_arg("seq", "t", (int64_t)((t << 32) | (uint64_t)i));
        }
    }
    if (names && t % 3 == 0 && t > 0) {
        snprintf(name, sizeof name, "late-%u", (unsigned)t);
        pthread_setname_np(pthread_self(), name);
    }
    if (hold) {
        pthread_barrier_wait(&written);
        if (t != 0) {
            for (;;) {
                pause();
            }
        }
    }
    return NULL;
}

/* With pause: once every writer wrote its first EVENTS, print "half" and let them go on after a line on stdin. */
static void *resume(void *arg) {
    (void)arg;
    pthread_barrier_wait(&halfway);
    printf("half\n");
    fflush(stdout);
    char line[16];
    if (fgets(line, sizeof line, stdin) == NULL) {
        /* stdin closed: go on as well */
    }
    pthread_barrier_wait(&halfway);
    return NULL;
}

static void every_type(void) {
    dfx_slice_begin("outer");
    dfx_slice_begin_arg("inner", "depth", 2);
    dfx_slice_end();
    dfx_slice_end();
    dfx_slice_complete("complete", 1000, 250);
    dfx_instant("tick");
    dfx_counter("queue depth", -7);
    dfx_counter_f64("ratio", 0.5);
    dfx_flow_begin("request", 42);
    dfx_flow_step("request", 42);
    dfx_flow_end("request", 42);
    dfx_instant_at("at", 123456789, 5);
    dfx_instant("名前");
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s THREADS EVENTS [hold] [tsc] [events]\n", argv[0]);
        return 2;
    }
    int threads = atoi(argv[1]);
    events = atol(argv[2]);
    int types = 0, forks = 0, quiet = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "hold") == 0) {
            hold = 1;
        } else if (strcmp(argv[i], "tsc") == 0) {
            dfx_use_tsc(1);
        } else if (strcmp(argv[i], "events") == 0) {
            types = 1;
        } else if (strcmp(argv[i], "fork") == 0) {
            forks = 1;
        } else if (strcmp(argv[i], "forkquiet") == 0) {
            forks = quiet = 1;
        } else if (strcmp(argv[i], "pause") == 0) {
            paused = 1;
        } else if (strcmp(argv[i], "names") == 0) {
            names = 1;
        } else if (strcmp(argv[i], "pools") == 0) {
            pools = 1;
        }
    }
    if (threads < 1 || threads > 256) {
        fprintf(stderr, "THREADS must be 1..256\n");
        return 2;
    }
    pthread_barrier_init(&written, NULL, (unsigned)threads);
    pthread_barrier_init(&halfway, NULL, (unsigned)threads + 1);
    if (paused) {
        pthread_t waiter;
        pthread_create(&waiter, NULL, resume, NULL);
        pthread_detach(waiter);
    }
    pthread_t tids[256];
    for (int t = 1; t < threads; t++) {
        pthread_create(&tids[t], NULL, writer, (void *)(uintptr_t)t);
    }
    writer((void *)(uintptr_t)0);
    if (types) {
        every_type();
    }
    if (forks) {
        pid_t child = fork();
        if (child == 0) {
            if (!quiet) {
                writer((void *)(uintptr_t)100); /* the child's own lane, not the parent's */
            }
            exit(0);
        }
        int status = 0;
        if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "child failed\n");
            return 1;
        }
    }
    if (hold) {
        printf("ready\n");
        fflush(stdout);
        for (;;) {
            pause();
        }
    }
    for (int t = 1; t < threads; t++) {
        pthread_join(tids[t], NULL);
    }
    printf("done enabled=%d\n", dfx_enabled());
    return 0;
}
