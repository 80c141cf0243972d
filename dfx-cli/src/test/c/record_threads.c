/*
 * Test program for `dfx record -- COMMAND` (RecordProgramTest), written with include/dfx.h.
 *   record_threads threads N M STATUS  N threads each write a slice "thread" holding M slices "step" (argument
 *                                      i = 0..M-1), main writes a counter "threads" = N and exits with STATUS
 *   record_threads fork M              main writes a slice "parent", forks and exits at once; the child waits
 *                                      300 ms (after its parent's end), writes M slices "child-step" and exits 0
 *   record_threads forks N             main forks N children that each write a slice "child" and exit at once
 *                                      (before dfx looks at them), waits for them and exits 0
 *   record_threads interrupt           prints "ready" once its SIGINT handler is in place, writes slices "tick"
 *                                      until SIGINT, then an instant "interrupted", and exits 3
 *   record_threads killed M            writes M instants "before" (argument i) and kills itself with SIGKILL, its
 *                                      lane still holding its current buffer
 *   record_threads named               a thread named "wörker-線" (dfx_thread_name) writes a slice "schritt-ü" with
 *                                      argument "zähler" = 7: names outside ASCII, UTF-8 as the program wrote them
 * Prints "recorded" or "not recorded" (dfx_enabled) before it ends.
 */
#include "dfx.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long steps;
static volatile sig_atomic_t interrupted;

static void *thread_main(void *arg) {
    (void)arg;
    dfx_slice_begin("thread");
    for (long i = 0; i < steps; i++) {
        dfx_slice_begin_arg("step", "i", i);
        dfx_slice_end();
    }
    dfx_slice_end();
    return NULL;
}

static int threads(int n, int status) {
    pthread_t t[64];
    if (n < 1 || n > 64) {
        return 2;
    }
    for (int i = 0; i < n; i++) {
        pthread_create(&t[i], NULL, thread_main, NULL);
    }
    for (int i = 0; i < n; i++) {
        pthread_join(t[i], NULL);
    }
    dfx_counter("threads", n);
    return status;
}

static int forked(void) {
    dfx_slice_begin("parent");
    dfx_slice_end();
    pid_t pid = fork();
    if (pid < 0) {
        return 2;
    }
    if (pid == 0) {
        usleep(300 * 1000);
        for (long i = 0; i < steps; i++) {
            dfx_slice_begin_arg("child-step", "i", i);
            dfx_slice_end();
        }
        printf("child %s\n", dfx_enabled() ? "recorded" : "not recorded");
        return 0;
    }
    return 0;
}

static int short_lived_children(int n) {
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            return 2;
        }
        if (pid == 0) {
            dfx_slice_begin("child");
            dfx_slice_end();
            _exit(0);
        }
    }
    while (wait(NULL) > 0) {
    }
    return 0;
}

static void on_sigint(int sig) {
    (void)sig;
    interrupted = 1;
}

static int interrupt(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    printf("ready\n");
    fflush(stdout);
    while (!interrupted) {
        dfx_slice_begin("tick");
        usleep(1000);
        dfx_slice_end();
    }
    dfx_instant("interrupted");
    return 3;
}

static void *named_main(void *arg) {
    (void)arg;
    dfx_thread_name("w\xc3\xb6rker-\xe7\xb7\x9a");
    dfx_slice_begin_arg("schritt-\xc3\xbc", "z\xc3\xa4hler", 7);
    dfx_slice_end();
    return NULL;
}

static int named(void) {
    pthread_t t;
    pthread_create(&t, NULL, named_main, NULL);
    pthread_join(t, NULL);
    return 0;
}

static int killed(void) {
    for (long i = 0; i < steps; i++) {
        dfx_instant_arg("before", "i", i);
    }
    fflush(stdout);
    kill(getpid(), SIGKILL);
    return 2;
}

int main(int argc, char **argv) {
    int status = 2;
    if (argc == 5 && strcmp(argv[1], "threads") == 0) {
        steps = atol(argv[3]);
        status = threads(atoi(argv[2]), atoi(argv[4]));
    } else if (argc == 3 && strcmp(argv[1], "fork") == 0) {
        steps = atol(argv[2]);
        status = forked();
    } else if (argc == 3 && strcmp(argv[1], "forks") == 0) {
        status = short_lived_children(atoi(argv[2]));
    } else if (argc == 3 && strcmp(argv[1], "killed") == 0) {
        steps = atol(argv[2]);
        status = killed();
    } else if (argc == 2 && strcmp(argv[1], "named") == 0) {
        status = named();
    } else if (argc == 2 && strcmp(argv[1], "interrupt") == 0) {
        status = interrupt();
    } else {
        fprintf(stderr, "usage: %s threads N M STATUS | fork M | forks N | named | interrupt | killed M\n", argv[0]);
        return 2;
    }
    printf("%s\n", dfx_enabled() ? "recorded" : "not recorded");
    return status;
}
