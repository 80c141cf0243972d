/*
 * Test producer for the region tests: THREADS threads each write EVENTS sequence-numbered instants named "seq",
 * value (thread << 32) | i, through dfx.h.
 *   region_producer THREADS EVENTS [hold] [tsc] [events]
 * hold:   after writing, every thread waits; then "ready" is printed and the process waits to be killed (the
 *         SIGKILL test: no thread has ended, so every lane still holds its current buffer)
 * tsc:    implicit timestamps from the TSC
 * events: also write one event of every other type on thread 0 (after its sequence)
 * fork:   after the sequence, fork a child that writes EVENTS more as thread 100 and exits; the parent waits
 * Prints "done enabled=N" and exits 0.
 */
#include "dfx.h"

#include <pthread.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long events;
static int hold;
static pthread_barrier_t written;

static void *writer(void *arg) {
    uint64_t t = (uint64_t)(uintptr_t)arg;
    for (long i = 0; i < events; i++) {
        dfx_instant_arg("seq", "t", (int64_t)((t << 32) | (uint64_t)i));
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
    int types = 0, forks = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "hold") == 0) {
            hold = 1;
        } else if (strcmp(argv[i], "tsc") == 0) {
            dfx_use_tsc(1);
        } else if (strcmp(argv[i], "events") == 0) {
            types = 1;
        } else if (strcmp(argv[i], "fork") == 0) {
            forks = 1;
        }
    }
    if (threads < 1 || threads > 256) {
        fprintf(stderr, "THREADS must be 1..256\n");
        return 2;
    }
    pthread_barrier_init(&written, NULL, (unsigned)threads);
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
            writer((void *)(uintptr_t)100); /* the child's own lane, not the parent's */
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
