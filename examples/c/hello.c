/* hello.c: two worker threads record their own slices, a counter and flow arrows with dfx.h. */
#include "dfx.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_long items_done;

static void *worker(void *arg) {
    uint64_t id = (uint64_t)(uintptr_t)arg;
    dfx_slice_begin("worker");
    dfx_flow_end("handoff", id); /* the arrow from main's "start workers" slice ends here */
    for (int item = 0; item < 5; item++) {
        dfx_slice_begin_arg("work", "item", item); /* a slice on this thread's row, with an argument */
        volatile double x = 0;
        for (int k = 0; k < 1000000; k++) {
            x += k * 0.5;
        }
        dfx_slice_end();
        dfx_counter("items done", atomic_fetch_add(&items_done, 1) + 1);
    }
    dfx_slice_end();
    return NULL;
}

int main(void) {
    pthread_t threads[2];
    dfx_slice_begin("main");
    dfx_slice_begin("start workers");
    for (uintptr_t id = 0; id < 2; id++) {
        dfx_flow_begin("handoff", id);
        pthread_create(&threads[id], NULL, worker, (void *)id);
    }
    dfx_slice_end();
    for (int i = 0; i < 2; i++) {
        pthread_join(threads[i], NULL);
    }
    dfx_instant("all done");
    dfx_slice_end();
    printf("hello: %s\n", dfx_enabled() ? "recorded by dfx" : "not recorded (run it with ./dfx record -- ./example)");
    return 0;
}
