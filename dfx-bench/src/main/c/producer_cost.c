/*
 * producer_cost: the cost of one 32-byte user event through include/dfx.h, per variant, in ns.
 *
 *   producer_cost VARIANT EVENTS BATCH
 *
 * Writes EVENTS events on one thread in batches of BATCH, timing each batch with CLOCK_MONOTONIC, and prints one
 * line: variant, events, batches, and the median, p99 and mean over batches of ns per event (a batch's time / BATCH;
 * a per-event clock read would cost more than the event). The region is whatever DFX_REGION names (unset: the
 * no-op path). The driver, dev.dfx.bench.region.CProducerCost, runs the variants side by side.
 *
 * Variants (add one: a function writing n events, and a row in VARIANTS):
 *   given      dfx_event_at with a timestamp the caller has (the loop counter): no clock read by dfx
 *   monotonic  dfx_counter: dfx reads CLOCK_MONOTONIC
 *   tsc        dfx_counter after dfx_use_tsc(1): dfx reads the TSC, converted to ns at collection
 *   clock      clock_gettime(CLOCK_MONOTONIC) alone, no event (the clock's own cost)
 *   rdtsc      the TSC read alone
 *   lttng      an LTTng-UST tracepoint (lttng_tp.h) with the same 32-byte payload; built only with
 *              -DDFX_BENCH_LTTNG and lttng_tp.c, -llttng-ust -ldl; the driver creates the session around the run
 *
 * The last field printed, enabled, says whether the variant's tracer was on: dfx_enabled() for the dfx variants,
 * tracepoint_enabled() for lttng (0 when no session had enabled dfx_bench:event before the run).
 */
#include "dfx.h"
#ifdef DFX_BENCH_LTTNG
#include "lttng_tp.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t sink;

static void given(long n, long base) {
    for (long i = 0; i < n; i++) {
        dfx_event_at(DFX_COUNTER, "bench", (uint64_t)(base + i), (uint64_t)i, NULL);
    }
}

static void monotonic(long n, long base) {
    for (long i = 0; i < n; i++) {
        dfx_counter("bench", base + i);
    }
}

static void clock_only(long n, long base) {
    uint64_t s = 0;
    for (long i = 0; i < n; i++) {
        s += dfx_now_ns();
    }
    sink = s + (uint64_t)base;
}

static void rdtsc_only(long n, long base) {
    uint64_t s = 0;
    for (long i = 0; i < n; i++) {
        s += dfx__ticks();
    }
    sink = s + (uint64_t)base;
}

#ifdef DFX_BENCH_LTTNG
/* The words of the record dfx_event_at(DFX_COUNTER, ...) stores: the caller's time, the type (byte 8; the name's id
   is left 0), the value and no argument key. LTTng reads its own clock for its event header besides. */
static void lttng(long n, long base) {
    for (long i = 0; i < n; i++) {
        tracepoint(dfx_bench, event, (uint64_t)(base + i), (uint64_t)DFX_COUNTER, (uint64_t)i,
                (uint64_t)DFX_NO_STRING);
    }
}

static int lttng_enabled(void) {
    return tracepoint_enabled(dfx_bench, event) ? 1 : 0;
}
#endif

static const struct {
    const char *name;
    void (*run)(long n, long base);
    int tsc;
    int (*enabled)(void);
} VARIANTS[] = {
    {"given", given, 0, dfx_enabled},
    {"monotonic", monotonic, 0, dfx_enabled},
    {"tsc", monotonic, 1, dfx_enabled},
    {"clock", clock_only, 0, dfx_enabled},
    {"rdtsc", rdtsc_only, 0, dfx_enabled},
#ifdef DFX_BENCH_LTTNG
    {"lttng", lttng, 0, lttng_enabled},
#endif
};

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s VARIANT EVENTS BATCH\n", argv[0]);
        return 2;
    }
    long events = atol(argv[2]);
    long batch = atol(argv[3]);
    for (size_t v = 0; v < sizeof VARIANTS / sizeof VARIANTS[0]; v++) {
        if (strcmp(argv[1], VARIANTS[v].name) != 0) {
            continue;
        }
        if (VARIANTS[v].tsc) {
            dfx_use_tsc(1);
        }
        VARIANTS[v].run(batch, 0); /* attach, claim the lane, intern the name: not counted */
        long batches = events / batch;
        double *ns = malloc(sizeof(double) * (size_t)batches);
        if (ns == NULL) {
            return 1;
        }
        for (long b = 0; b < batches; b++) {
            uint64_t t0 = dfx_now_ns();
            VARIANTS[v].run(batch, b * batch);
            ns[b] = (double)(dfx_now_ns() - t0) / (double)batch;
        }
        dfx_flush();
        double sum = 0;
        for (long b = 0; b < batches; b++) {
            sum += ns[b];
        }
        qsort(ns, (size_t)batches, sizeof(double), by_value);
        printf("variant=%s events=%ld batches=%ld median_ns=%.2f p99_ns=%.2f mean_ns=%.2f enabled=%d\n", argv[1],
                batches * batch, batches, ns[batches / 2], ns[(long)(batches * 0.99)], sum / (double)batches,
                VARIANTS[v].enabled());
        free(ns);
        return 0;
    }
    fprintf(stderr, "producer_cost: no variant %s\n", argv[1]);
    return 2;
}
