/*
 * wake_latency: how long a producer in another process waits for a host that went idle (the host polls such
 * producers at most every 4 ms: they cannot ring its doorbell). Recorded with one buffer per lane, every buffer
 * switch waits at the pop gate until the host has drained the full buffer and handed it back, and each such wait
 * is a stall window in run.json (with --stall-threshold 1ns).
 *
 *   wake_latency ROUNDS RECORDS GAP_US
 *
 * Each round writes RECORDS events (one buffer with --pool user=1xRECORDS), then sleeps GAP_US microseconds: with a
 * gap the host has parked by the next round, whose first event waits for it; with GAP_US 0 the host is awake.
 *   ./dfx record --pool user=1x16 --stall-threshold 1ns -o /tmp/wl/gap -- ./wake_latency 300 16 20000
 */
#include "dfx.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s ROUNDS RECORDS GAP_US\n", argv[0]);
        return 2;
    }
    long rounds = atol(argv[1]);
    long records = atol(argv[2]);
    long gap = atol(argv[3]);
    for (long r = 0; r < rounds; r++) {
        for (long i = 0; i < records; i++) {
            dfx_instant_arg("tick", "round", r);
        }
        if (gap > 0) {
            struct timespec ts = {gap / 1000000, (gap % 1000000) * 1000};
            nanosleep(&ts, NULL);
        }
    }
    printf("%s\n", dfx_enabled() ? "recorded" : "not recorded");
    return 0;
}
