/*
 * The LTTng-UST peer of producer_cost's dfx variants: one tracepoint, dfx_bench:event, whose payload is the same
 * 32 bytes a dfx user-event record stores (four 64-bit words: time, type and name, value, argument key). LTTng adds
 * its own event header and reads its own clock for it. Built only with -DDFX_BENCH_LTTNG (see producer_cost.c).
 */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER dfx_bench

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./lttng_tp.h"

#if !defined(DFX_BENCH_LTTNG_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define DFX_BENCH_LTTNG_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

TRACEPOINT_EVENT(dfx_bench, event,
    TP_ARGS(uint64_t, time, uint64_t, meta, uint64_t, value, uint64_t, key),
    TP_FIELDS(
        ctf_integer(uint64_t, time, time)
        ctf_integer(uint64_t, meta, meta)
        ctf_integer(uint64_t, value, value)
        ctf_integer(uint64_t, key, key)))

#endif

#include <lttng/tracepoint-event.h>
