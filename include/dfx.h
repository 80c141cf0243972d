/*
 * dfx.h - the dfx producer library for C (header-only, C11 with GCC or Clang, Linux on x86-64 or AArch64).
 *
 * Records a program's own events (slices, instants, counters, flows) into the shared-memory region of a
 * `dfx record -- COMMAND` run, losslessly: a thread waits at a gate when the collector is behind (BLOCK, the
 * default) instead of dropping, for at most one backstop per wait; every record is counted, so the run's
 * reconcile (collected + dropped == total) holds. Without DFX_REGION in the environment every call is a cheap
 * no-op, so a program built with dfx runs normally outside dfx.
 *
 *     #include "dfx.h"
 *     dfx_slice_begin("load");  ...  dfx_slice_end();
 *     dfx_counter("queue depth", depth);
 *     dfx_instant_arg("retry", "attempt", n);
 *
 * Build: cc -std=c11 -O2 -pthread -I path/to/dfx/include prog.c
 *
 * Names and argument keys are interned per thread by pointer: pass string literals or strings that live (and do
 * not change) for the whole run. Timestamps are CLOCK_MONOTONIC ns; after dfx_use_tsc(1) (or DFX_CLOCK=tsc) the
 * implicit timestamps are TSC ticks, which dfx converts exactly to ns at collection.
 *
 * Threads: one lane per thread, claimed on its first event and kept for its life; a thread's lane is flushed when
 * the thread ends (pthread key destructor) and the calling thread's at exit (atexit). A lane carries its thread's
 * name (the name Linux keeps for it when the lane is claimed and when it ends, or the one given to
 * dfx_thread_name). A child made by fork() is registered as a process of its own at the fork and its threads claim
 * lanes of their own. Any translation unit may include this file: the library's state is one per process (weak
 * symbols).
 *
 * The region layout (ABI version 3) is documented byte by byte in docs/region-abi.md.
 */
#ifndef DFX_H
#define DFX_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- ABI constants (docs/region-abi.md) ---- */
#define DFX_ABI_VERSION 3u
#define DFX_MAGIC 0x50584644u
#define DFX_BYTE_ORDER_MARK 0x01020304u
#define DFX_HEADER_BYTES 256u
#define DFX_PAD 128u
#define DFX_ENTRY_BYTES 32u
#define DFX_MAX_BLOCKS 4096u
#define DFX_NO_STRING 0xFFFFFFFFu
#define DFX_STRINGS_START 8u
#define DFX_LANE_ENTRY_BYTES 32u
#define DFX_THREAD_NAME_BYTES 16u
#define DFX_STALL_RING_WINDOWS 32u

#define DFX_H_MAGIC 0
#define DFX_H_VERSION 4
#define DFX_H_PRODUCERS 8
#define DFX_H_LANES 12
#define DFX_H_KINDS 16
#define DFX_H_READY_QUEUE_SIZE 20
#define DFX_H_SLOT_COUNT 24
#define DFX_H_MAX_BLOCKS 28
#define DFX_H_KIND_TABLE 32
#define DFX_H_LANE_TABLE 40
#define DFX_H_BLOCK_TABLE 48
#define DFX_H_READY_QUEUES 56
#define DFX_H_LANE_STATES 64
#define DFX_H_REGION_BYTES 72
#define DFX_H_BLOCK_COUNT 80
#define DFX_H_FLAGS 84
#define DFX_H_BYTE_ORDER 88
#define DFX_H_HEADER_BYTES 92
#define DFX_H_CREATOR_PID 96
#define DFX_H_CLOCK_ID 100
#define DFX_H_BACKSTOP_NS 104
#define DFX_H_STALL_THRESHOLD_NS 112
#define DFX_H_READY_QUEUE_STRIDE 120
#define DFX_H_LANE_STRIDE 128
#define DFX_H_STRING_TABLES 136
#define DFX_H_STRING_TABLE_BYTES 144
#define DFX_H_PROCESS_SLOTS 148
#define DFX_H_PROCESS_TABLE 152
#define DFX_H_FILE_BYTES 160
#define DFX_H_TSC_STATE 168
#define DFX_H_TSC_TICKS0 176
#define DFX_H_TSC_NS0 184
#define DFX_H_TSC_TICKS1 192
#define DFX_H_TSC_NS1 200
#define DFX_H_UNLANED_DROPPED 208

#define DFX_K_RECORD_SIZE 0
#define DFX_K_RECORDS_PER_BUFFER 4
#define DFX_K_BUFFERS_PER_LANE 8
#define DFX_K_POLICY 12
#define DFX_T_KIND 0
#define DFX_T_PRODUCER 4
#define DFX_T_OWNER 8
#define DFX_T_NAME 16
#define DFX_B_BASE 0
#define DFX_B_BYTES 8
#define DFX_B_KIND 16
#define DFX_B_BUFFERS 20
#define DFX_B_BUFFER_BYTES 24
#define DFX_P_PID 0
#define DFX_P_STATE 4
#define DFX_P_ATTACH_NS 8
#define DFX_RQ_HEAD 0
#define DFX_RQ_TAIL 128
#define DFX_RQ_MAX_DEPTH 136
#define DFX_RQ_ENTRIES 256
#define DFX_E_LANE 0
#define DFX_E_KIND 4
#define DFX_E_HANDLE 8
#define DFX_E_SEQ 16
#define DFX_E_COUNT 24
#define DFX_L_CURRENT 0
#define DFX_L_SEQ 8
#define DFX_L_TOTAL 16
#define DFX_L_PUBLISHED 24
#define DFX_L_DROPPED 32
#define DFX_L_DROPPED_PUSH 40
#define DFX_L_DROPPED_POP 48
#define DFX_L_DROPPED_DEGRADED 56
#define DFX_L_EXPIRIES 64
#define DFX_L_STALL_COUNT 72
#define DFX_L_STALL_TOTAL 80
#define DFX_L_STALL_LONGEST 88
#define DFX_L_MIN_FREE 96
#define DFX_L_DEGRADED 104
#define DFX_L_ATTACH 108
#define DFX_L_COMMITTED 112
#define DFX_L_STALL_WINDOWS 120
#define DFX_L_STALL_RING 128
#define DFX_L_FQ_HEAD 640
#define DFX_L_FQ_TAIL 768
#define DFX_L_FQ_SLOTS 896

/* User-event types (record byte 8) and flags (byte 9). */
enum dfx_event_type {
    DFX_SLICE_BEGIN = 1,
    DFX_SLICE_END = 2,
    DFX_SLICE_COMPLETE = 3,
    DFX_INSTANT = 4,
    DFX_COUNTER = 5,
    DFX_FLOW_BEGIN = 6,
    DFX_FLOW_STEP = 7,
    DFX_FLOW_END = 8
};
#define DFX_FLAG_TSC 1u
#define DFX_FLAG_F64 2u

#if defined(__GNUC__)
#define DFX__WEAK __attribute__((weak))
#define DFX__LIKELY(x) __builtin_expect(!!(x), 1)
#define DFX__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define DFX__NOINLINE __attribute__((noinline))
#else
#error "dfx.h needs GCC or Clang (weak symbols)"
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "dfx regions are little-endian; this target is not"
#endif

/* One user-event record, exactly as stored (32 bytes, little-endian). */
struct dfx_record {
    uint64_t time;
    uint8_t type;
    uint8_t flags;
    uint16_t reserved0;
    uint32_t name;
    uint64_t value;
    uint32_t arg_key;
    uint32_t reserved1;
};
_Static_assert(sizeof(struct dfx_record) == 32, "user-event records are 32 bytes");

/* A lane: the calling thread's stream into the region. Owned by one thread; not for users to touch. */
struct dfx__intern {
    const char *ptr;
    uint32_t id;
};

struct dfx__lane {
    /* hot: the current buffer */
    unsigned char *buf;
    uint32_t count;
    uint32_t limit; /* capacity while a buffer is held, else 0 */
    uint64_t total;
    unsigned char *head; /* the lane's state (active head first) */
    /* interning, by pointer; the last name looked up first (a loop writes one name over and over) */
    const char *last_name;
    uint32_t last_id;
    struct dfx__intern *intern;
    uint32_t intern_mask;
    uint32_t intern_n;
    /* cold */
    uint32_t lane, kind, producer, capacity, record_size, rq_size, slots, rq_tail;
    unsigned char *rq;
    unsigned char *strings;
    uint64_t str_used, str_bytes;
    uint64_t handle, seq, published, dropped, dropped_push, dropped_pop, dropped_degraded;
    uint64_t expiries, stalls, stall_total, stall_longest, free_head, free_tail_seen, min_free, max_depth;
    int degraded, drop_policy, closed;
    int named; /* the name came from dfx_thread_name: the lane's end does not take the thread's name again */
    unsigned char *table_entry; /* the lane's lane-table entry (its owner and thread name) */
};

struct dfx__proc {
    _Atomic int state; /* 0 not attached, 1 attaching, 2 attached, -1 disabled */
    /* 1 once the region's TSC calibration is published (released before this is set): TSC timestamps from then on */
    _Atomic int use_tsc;
    pid_t pid;
    int proc_slot;
    unsigned char *base;
    uint64_t size;
    uint32_t producers, lanes, kinds, rq_size, slots, str_bytes, proc_slots;
    uint64_t kind_table, lane_table, block_table, proc_table, strings, rqs, rq_stride, lane_states, lane_stride;
    uint64_t backstop_ns, stall_ns;
    pthread_key_t key;
    int key_made;
    int hooks_made;
};

DFX__WEAK struct dfx__proc dfx__p;
DFX__WEAK _Thread_local struct dfx__lane *dfx__tls;
/* 0: the thread has not looked for a lane; 1: it has one; 2: none was free (it counts unlaned drops) */
DFX__WEAK _Thread_local int dfx__tls_state;
/* The pool (kind) the thread claims its lane in: 0, the user-event pool, unless dfx_thread_pool chose another. */
DFX__WEAK _Thread_local uint32_t dfx__tls_pool;
/* A name given to dfx_thread_name before the thread had a lane (empty: none), applied when it claims one. */
DFX__WEAK _Thread_local char dfx__tls_name[DFX_THREAD_NAME_BYTES];

/* ---- memory access ---- */
#define DFX__A64(p) ((_Atomic uint64_t *)(void *)(p))
#define DFX__A32(p) ((_Atomic uint32_t *)(void *)(p))

static inline uint64_t dfx__ld64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline uint32_t dfx__ld32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline void dfx__relaxed64(unsigned char *p, uint64_t v) {
    atomic_store_explicit(DFX__A64(p), v, memory_order_relaxed);
}

/* ---- clocks ---- */
static inline uint64_t dfx_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t dfx__ticks(void) {
#if defined(__x86_64__) || defined(__i386__)
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    return dfx_now_ns();
#endif
}

/* ---- slow paths (weak, one copy per process) ---- */
struct dfx__lane *dfx__thread_lane(void);
uint32_t dfx__intern_slow(struct dfx__lane *l, const char *s);
void dfx__switch(struct dfx__lane *l, const uint64_t *record);

/* ---- the hot path ---- */
static inline uint32_t dfx__intern_id(struct dfx__lane *l, const char *s) {
    if (s == NULL) {
        return DFX_NO_STRING;
    }
    if (DFX__LIKELY(s == l->last_name)) {
        return l->last_id;
    }
    uint32_t i = (uint32_t)(((uintptr_t)s * 0x9E3779B97F4A7C15ull) >> 40) & l->intern_mask;
    for (;;) {
        const char *p = l->intern[i].ptr;
        if (DFX__LIKELY(p == s)) {
            l->last_name = s;
            l->last_id = l->intern[i].id;
            return l->last_id;
        }
        if (p == NULL) {
            return dfx__intern_slow(l, s);
        }
        i = (i + 1) & l->intern_mask;
    }
}

/*
 * Writes one user event. time_ns == 0 with implicit set means "now" in the process's clock (CLOCK_MONOTONIC ns, or
 * TSC ticks after dfx_use_tsc(1)). Counts the event in the lane's total first; a full buffer is published (push
 * gate) before a replacement is claimed (pop gate).
 */
static inline void dfx__emit(uint8_t type, uint8_t flags, const char *name, int implicit, uint64_t time,
        uint64_t value, const char *key) {
    struct dfx__lane *l = dfx__tls;
    if (DFX__UNLIKELY(l == NULL)) {
        if (atomic_load_explicit(&dfx__p.state, memory_order_relaxed) == -1) {
            return; /* not recording: the whole cost of a call */
        }
        l = dfx__thread_lane();
        if (l == NULL) {
            return;
        }
    }
    uint64_t name_id = dfx__intern_id(l, name);
    uint64_t key_id = dfx__intern_id(l, key);
    if (implicit) {
        if (atomic_load_explicit(&dfx__p.use_tsc, memory_order_acquire)) {
            time = dfx__ticks();
            flags |= DFX_FLAG_TSC;
        } else {
            time = dfx_now_ns();
        }
    }
    /* The record as four little-endian words: time; type, flags, reserved, name; value; arg key, reserved. Stored
       straight into the slot (a record built on the stack and copied would cost a store-forwarding stall). */
    uint64_t w1 = (uint64_t)type | (uint64_t)flags << 8 | name_id << 32;
    uint64_t t = l->total + 1; /* total is counted first */
    l->total = t;
    dfx__relaxed64(l->head + DFX_L_TOTAL, t);
    uint32_t c = l->count;
    if (DFX__LIKELY(c < l->limit)) {
        unsigned char *slot = l->buf + (size_t)c * 32u;
        memcpy(slot, &time, 8);
        memcpy(slot + 8, &w1, 8);
        memcpy(slot + 16, &value, 8);
        memcpy(slot + 24, &key_id, 8);
        l->count = c + 1;
        atomic_store_explicit(DFX__A64(l->head + DFX_L_COMMITTED), (uint64_t)c + 1, memory_order_release);
        return;
    }
    uint64_t words[4] = {time, w1, value, key_id};
    dfx__switch(l, words);
}

/* ---- the API ---- */

/** Begins a slice on the calling thread (Perfetto 'B'). */
static inline void dfx_slice_begin(const char *name) {
    dfx__emit(DFX_SLICE_BEGIN, 0, name, 1, 0, 0, NULL);
}

/** Begins a slice with one integer argument. */
static inline void dfx_slice_begin_arg(const char *name, const char *key, int64_t value) {
    dfx__emit(DFX_SLICE_BEGIN, 0, name, 1, 0, (uint64_t)value, key);
}

/** Ends the calling thread's innermost open slice (Perfetto 'E'). */
static inline void dfx_slice_end(void) {
    dfx__emit(DFX_SLICE_END, 0, NULL, 1, 0, 0, NULL);
}

/** A whole slice with explicit CLOCK_MONOTONIC start and duration, ns (Perfetto 'X'). */
static inline void dfx_slice_complete(const char *name, uint64_t start_ns, uint64_t duration_ns) {
    dfx__emit(DFX_SLICE_COMPLETE, 0, name, 0, start_ns, duration_ns, NULL);
}

/** An instant on the calling thread. */
static inline void dfx_instant(const char *name) {
    dfx__emit(DFX_INSTANT, 0, name, 1, 0, 0, NULL);
}

/** An instant with one integer argument. */
static inline void dfx_instant_arg(const char *name, const char *key, int64_t value) {
    dfx__emit(DFX_INSTANT, 0, name, 1, 0, (uint64_t)value, key);
}

/** A counter sample. */
static inline void dfx_counter(const char *name, int64_t value) {
    dfx__emit(DFX_COUNTER, 0, name, 1, 0, (uint64_t)value, NULL);
}

/** A counter sample as a double. */
static inline void dfx_counter_f64(const char *name, double value) {
    uint64_t bits;
    memcpy(&bits, &value, 8);
    dfx__emit(DFX_COUNTER, DFX_FLAG_F64, name, 1, 0, bits, NULL);
}

/** A flow (an arrow between slices, across threads or processes) begins, passes, ends here; id names the flow. */
static inline void dfx_flow_begin(const char *name, uint64_t id) {
    dfx__emit(DFX_FLOW_BEGIN, 0, name, 1, 0, id, NULL);
}

static inline void dfx_flow_step(const char *name, uint64_t id) {
    dfx__emit(DFX_FLOW_STEP, 0, name, 1, 0, id, NULL);
}

static inline void dfx_flow_end(const char *name, uint64_t id) {
    dfx__emit(DFX_FLOW_END, 0, name, 1, 0, id, NULL);
}

/**
 * Any event with an explicit CLOCK_MONOTONIC timestamp in ns (the caller read the clock, or has a time of its own
 * on that base): type is a dfx_event_type, value and key as in the record layout (key may be NULL).
 */
static inline void dfx_event_at(enum dfx_event_type type, const char *name, uint64_t time_ns, uint64_t value,
        const char *key) {
    dfx__emit((uint8_t)type, 0, name, 0, time_ns, value, key);
}

/** An instant at an explicit CLOCK_MONOTONIC time, ns. */
static inline void dfx_instant_at(const char *name, uint64_t time_ns, int64_t value) {
    dfx__emit(DFX_INSTANT, 0, name, 0, time_ns, (uint64_t)value, NULL);
}

/** @return 1 when this process records into a region (DFX_REGION is set and the region is sound), else 0 */
int dfx_enabled(void);

/**
 * Use the TSC (1) or CLOCK_MONOTONIC (0, the default) for implicit timestamps, process-wide. The TSC is used only
 * once the region's calibration is published (this call calibrates, about 10 ms, or waits for the process that
 * does); without one it stays on CLOCK_MONOTONIC.
 */
void dfx_use_tsc(int on);

/**
 * Chooses the pool (the region's buffer kind, 0 by default) the calling thread records into, before its first event:
 * a pool has a backpressure policy of its own (BLOCK or DROP), so a subsystem that may lose records writes into a DROP
 * pool beside one that must not. @return 0, or -1 when the thread already has a lane, or this process records into a
 * region without such a pool of user events (then the thread keeps pool 0)
 */
int dfx_thread_pool(uint32_t pool);

/**
 * Names the calling thread in the trace (at most 15 bytes of UTF-8 are kept, as Linux keeps a thread's name),
 * instead of the name Linux has for it; the thread's own name (pthread_setname_np) is not changed.
 */
void dfx_thread_name(const char *name);

/** Publishes the calling thread's partly filled buffer (one push-gate wait at most). */
void dfx_flush(void);

/* ====================================================================================================== */
/* Implementation: weak definitions, so every translation unit may include this file and one copy is kept. */

DFX__WEAK void dfx__warn(const char *path, const char *what) {
    fprintf(stderr, "dfx: %s: %s; not recording\n", path, what);
}

static inline uint64_t dfx__align(uint64_t v, uint64_t a) {
    return (v + a - 1) / a * a;
}

/* Checks the header the way docs/region-abi.md "Attaching" says, and keeps the layout. 0 when sound. */
DFX__WEAK int dfx__check(const char *path, const unsigned char *h, uint64_t file_size) {
    char m[256];
    if (file_size < 4 || dfx__ld32(h + DFX_H_MAGIC) != DFX_MAGIC) {
        snprintf(m, sizeof m, "not a dfx region (field magic, byte 0: expected 0x50584644 \"DFXP\")");
        dfx__warn(path, m);
        return -1;
    }
    if (file_size < 8 || dfx__ld32(h + DFX_H_VERSION) != DFX_ABI_VERSION) {
        snprintf(m, sizeof m, "region ABI version %u (field version, byte 4); this dfx.h writes version %u",
                file_size < 8 ? 0u : dfx__ld32(h + DFX_H_VERSION), DFX_ABI_VERSION);
        dfx__warn(path, m);
        return -1;
    }
    if (file_size < DFX_HEADER_BYTES) {
        snprintf(m, sizeof m, "region too small: %llu bytes, the header alone is %u",
                (unsigned long long)file_size, DFX_HEADER_BYTES);
        dfx__warn(path, m);
        return -1;
    }
    if (dfx__ld32(h + DFX_H_BYTE_ORDER) != DFX_BYTE_ORDER_MARK) {
        snprintf(m, sizeof m, "byte order mark 0x%08x (field byteOrder, byte 88), expected 0x01020304",
                dfx__ld32(h + DFX_H_BYTE_ORDER));
        dfx__warn(path, m);
        return -1;
    }
    if (dfx__ld32(h + DFX_H_HEADER_BYTES) != DFX_HEADER_BYTES || dfx__ld32(h + DFX_H_MAX_BLOCKS) != DFX_MAX_BLOCKS) {
        dfx__warn(path, "field headerBytes (byte 92) or maxBlocks (byte 28) is not this ABI's (256, 4096)");
        return -1;
    }
    struct dfx__proc *p = &dfx__p;
    p->producers = dfx__ld32(h + DFX_H_PRODUCERS);
    p->lanes = dfx__ld32(h + DFX_H_LANES);
    p->kinds = dfx__ld32(h + DFX_H_KINDS);
    p->rq_size = dfx__ld32(h + DFX_H_READY_QUEUE_SIZE);
    p->slots = dfx__ld32(h + DFX_H_SLOT_COUNT);
    p->str_bytes = dfx__ld32(h + DFX_H_STRING_TABLE_BYTES);
    p->proc_slots = dfx__ld32(h + DFX_H_PROCESS_SLOTS);
    if (p->producers < 1 || p->producers > (1u << 20) || p->lanes < 1 || p->lanes > (1u << 20) || p->kinds < 1
            || p->kinds > (1u << 16) || p->rq_size < 2 || p->rq_size > (1u << 24) || p->slots < 1 || p->slots > 4096
            || p->str_bytes % DFX_PAD != 0 || p->proc_slots > 65536) {
        dfx__warn(path, "a count in the header (producers, lanes, kinds, readyQueueSize, slotCount, "
                        "stringTableBytes or processSlots, bytes 8..28 and 144..151) is out of range");
        return -1;
    }
    /* The layout the counts give (RegionLayout): every offset in the header must be exactly this. */
    uint64_t kind_table = DFX_HEADER_BYTES;
    uint64_t lane_table = kind_table + 16ull * p->kinds;
    uint64_t block_table = dfx__align(lane_table + (uint64_t)DFX_LANE_ENTRY_BYTES * p->lanes, 64);
    uint64_t proc_table = block_table + 32ull * DFX_MAX_BLOCKS;
    uint64_t strings = dfx__align(proc_table + 16ull * p->proc_slots, DFX_PAD);
    uint64_t rqs = dfx__align(strings + (uint64_t)p->str_bytes * p->lanes, DFX_PAD);
    uint64_t rq_stride = dfx__align(DFX_RQ_ENTRIES + 32ull * p->rq_size, DFX_PAD);
    uint64_t lane_states = rqs + rq_stride * p->producers;
    uint64_t lane_stride = DFX_L_FQ_SLOTS + dfx__align(8ull * p->slots, DFX_PAD);
    uint64_t region_bytes = dfx__align(lane_states + lane_stride * p->lanes, 4096);
    static const struct {
        unsigned at;
        const char *name;
    } fields[] = {{DFX_H_KIND_TABLE, "kindTableOffset"}, {DFX_H_LANE_TABLE, "laneTableOffset"},
            {DFX_H_BLOCK_TABLE, "blockTableOffset"}, {DFX_H_PROCESS_TABLE, "processTableOffset"},
            {DFX_H_STRING_TABLES, "stringTablesOffset"}, {DFX_H_READY_QUEUES, "readyQueuesOffset"},
            {DFX_H_READY_QUEUE_STRIDE, "readyQueueStride"}, {DFX_H_LANE_STATES, "laneStatesOffset"},
            {DFX_H_LANE_STRIDE, "laneStride"}, {DFX_H_REGION_BYTES, "regionBytes"}};
    uint64_t want[] = {kind_table, lane_table, block_table, proc_table, strings, rqs, rq_stride, lane_states,
            lane_stride, region_bytes};
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        uint64_t v = dfx__ld64(h + fields[i].at);
        if (v != want[i]) {
            snprintf(m, sizeof m, "field %s (byte %u) is %llu, the layout of the header's counts puts it at %llu",
                    fields[i].name, fields[i].at, (unsigned long long)v, (unsigned long long)want[i]);
            dfx__warn(path, m);
            return -1;
        }
    }
    uint64_t file_bytes = atomic_load_explicit(DFX__A64((void *)(h + DFX_H_FILE_BYTES)), memory_order_acquire);
    if (file_size < region_bytes || file_bytes < region_bytes || file_size < file_bytes) {
        snprintf(m, sizeof m, "region too small: the file has %llu bytes; field regionBytes (byte 72) needs %llu "
                              "and field fileBytes (byte 160) %llu",
                (unsigned long long)file_size, (unsigned long long)region_bytes, (unsigned long long)file_bytes);
        dfx__warn(path, m);
        return -1;
    }
    p->kind_table = kind_table;
    p->lane_table = lane_table;
    p->block_table = block_table;
    p->proc_table = proc_table;
    p->strings = strings;
    p->rqs = rqs;
    p->rq_stride = rq_stride;
    p->lane_states = lane_states;
    p->lane_stride = lane_stride;
    p->size = file_bytes;
    p->backstop_ns = dfx__ld64(h + DFX_H_BACKSTOP_NS);
    p->stall_ns = dfx__ld64(h + DFX_H_STALL_THRESHOLD_NS);
    return 0;
}

DFX__WEAK void dfx__process_exit(void);
DFX__WEAK void dfx__thread_exit(void *lane);
DFX__WEAK void dfx__after_fork_child(void);
DFX__WEAK int dfx__calibrate_tsc(void);

/* Claims a process-table entry for this process (a full table loses only the entry). */
DFX__WEAK void dfx__register_process(void) {
    struct dfx__proc *p = &dfx__p;
    p->proc_slot = -1;
    for (uint32_t i = 0; i < p->proc_slots; i++) {
        unsigned char *e = p->base + p->proc_table + 16ull * i;
        uint32_t zero = 0;
        if (atomic_compare_exchange_strong(DFX__A32(e + DFX_P_PID), &zero, (uint32_t)p->pid)) {
            dfx__relaxed64(e + DFX_P_ATTACH_NS, dfx_now_ns());
            atomic_store_explicit(DFX__A32(e + DFX_P_STATE), 1u, memory_order_release);
            p->proc_slot = (int)i;
            return;
        }
    }
}

/* Maps the region named by DFX_REGION and checks it; sets state 2 (attached) or -1 (disabled). */
DFX__WEAK void dfx__attach(void) {
    struct dfx__proc *p = &dfx__p;
    const char *path = getenv("DFX_REGION");
    if (p->base != NULL) { /* a forked child: the mapping is inherited, only the process is new */
        p->pid = getpid();
        dfx__register_process();
        atomic_store_explicit(&p->state, 2, memory_order_release);
        return;
    }
    if (path == NULL || path[0] == '\0') {
        atomic_store_explicit(&p->state, -1, memory_order_release);
        return;
    }
    int fd = open(path, O_RDWR | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        dfx__warn(path, strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        atomic_store_explicit(&p->state, -1, memory_order_release);
        return;
    }
    unsigned char head[DFX_HEADER_BYTES];
    memset(head, 0, sizeof head);
    ssize_t got = pread(fd, head, sizeof head, 0);
    if (got < 0 || dfx__check(path, head, (uint64_t)st.st_size < (uint64_t)got ? (uint64_t)got
                                                                              : (uint64_t)st.st_size) != 0) {
        close(fd);
        atomic_store_explicit(&p->state, -1, memory_order_release);
        return;
    }
    void *m = mmap(NULL, p->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        dfx__warn(path, strerror(errno));
        atomic_store_explicit(&p->state, -1, memory_order_release);
        return;
    }
    p->base = (unsigned char *)m;
    p->pid = getpid();
    if (!p->key_made) {
        p->key_made = pthread_key_create(&p->key, dfx__thread_exit) == 0;
    }
    if (!p->hooks_made) {
        p->hooks_made = 1;
        atexit(dfx__process_exit);
        pthread_atfork(NULL, NULL, dfx__after_fork_child);
    }
    dfx__register_process();
    const char *clock = getenv("DFX_CLOCK");
    if (clock != NULL && strcmp(clock, "tsc") == 0 && dfx__calibrate_tsc()) {
        atomic_store_explicit(&p->use_tsc, 1, memory_order_release);
    }
    atomic_store_explicit(&p->state, 2, memory_order_release);
}

/* Attaches once per process; concurrent first calls wait for the one attaching. @return 1 when attached */
DFX__WEAK int dfx__ensure_attached(void) {
    struct dfx__proc *p = &dfx__p;
    for (;;) {
        int s = atomic_load_explicit(&p->state, memory_order_acquire);
        if (s == 2) {
            return 1;
        }
        if (s == -1) {
            return 0;
        }
        int zero = 0;
        if (s == 0 && atomic_compare_exchange_strong(&p->state, &zero, 1)) {
            dfx__attach();
        } else {
            sched_yield();
        }
    }
}

DFX__WEAK int dfx_enabled(void) {
    return dfx__ensure_attached();
}

/* Resolves a handle the host put in the free queue; NULL when it is not a buffer of the kind in the mapping. */
DFX__WEAK unsigned char *dfx__resolve(uint64_t handle, uint32_t kind, uint32_t record_bytes) {
    struct dfx__proc *p = &dfx__p;
    uint64_t block = (handle >> 32) - 1;
    uint32_t index = (uint32_t)handle;
    uint32_t blocks = atomic_load_explicit(DFX__A32(p->base + DFX_H_BLOCK_COUNT), memory_order_acquire);
    if ((handle >> 32) == 0 || block >= blocks || block >= DFX_MAX_BLOCKS) {
        return NULL;
    }
    unsigned char *e = p->base + p->block_table + 32ull * block;
    uint64_t base = dfx__ld64(e + DFX_B_BASE);
    uint64_t stride = dfx__ld64(e + DFX_B_BUFFER_BYTES);
    if (dfx__ld32(e + DFX_B_KIND) != kind || index >= dfx__ld32(e + DFX_B_BUFFERS) || stride < record_bytes) {
        return NULL;
    }
    uint64_t at = base + (uint64_t)index * stride;
    if (base > p->size || at < base || at > p->size || p->size - at < record_bytes) {
        return NULL;
    }
    return p->base + at;
}

/*
 * Writes a lane's thread name into its lane-table entry: `name` (zero-padded, at most 15 bytes), or when NULL the
 * calling thread's name as Linux keeps it (prctl PR_GET_NAME, as pthread_getname_np reads it). Two 8-byte stores: the
 * host reads the bytes opaquely.
 */
DFX__WEAK void dfx__name_lane(struct dfx__lane *l, const char *name) {
    char b[DFX_THREAD_NAME_BYTES + 1];
    memset(b, 0, sizeof b);
    if (name != NULL) {
        strncpy(b, name, DFX_THREAD_NAME_BYTES - 1);
    } else if (prctl(PR_GET_NAME, b, 0, 0, 0) != 0) {
        b[0] = '\0';
    }
    b[DFX_THREAD_NAME_BYTES - 1] = '\0';
    uint64_t w0, w1;
    memcpy(&w0, b, 8);
    memcpy(&w1, b + 8, 8);
    dfx__relaxed64(l->table_entry + DFX_T_NAME, w0);
    dfx__relaxed64(l->table_entry + DFX_T_NAME + 8, w1);
    if (name != NULL && name == dfx__tls_name) {
        l->named = 1;
    }
}

/* Claims the first free lane of the calling thread's pool (dfx_thread_pool; 0 by default). */
DFX__WEAK struct dfx__lane *dfx__claim_lane(void) {
    uint32_t kind = dfx__tls_pool;
    struct dfx__proc *p = &dfx__p;
    uint64_t owner = ((uint64_t)(uint32_t)p->pid << 32) | (uint32_t)syscall(SYS_gettid);
    for (uint32_t lane = 0; lane < p->lanes; lane++) {
        unsigned char *t = p->base + p->lane_table + (uint64_t)DFX_LANE_ENTRY_BYTES * lane;
        if (dfx__ld32(t + DFX_T_KIND) != kind) {
            continue;
        }
        uint64_t zero = 0;
        if (atomic_load_explicit(DFX__A64(t + DFX_T_OWNER), memory_order_relaxed) != 0
                || !atomic_compare_exchange_strong(DFX__A64(t + DFX_T_OWNER), &zero, owner)) {
            continue;
        }
        uint32_t producer = dfx__ld32(t + DFX_T_PRODUCER);
        unsigned char *k = p->base + p->kind_table + 16ull * kind;
        struct dfx__lane *l = (struct dfx__lane *)calloc(1, sizeof *l);
        struct dfx__intern *in = (struct dfx__intern *)calloc(1024, sizeof *in);
        if (l == NULL || in == NULL || producer >= p->producers || dfx__ld32(k + DFX_K_RECORD_SIZE) != 32
                || dfx__ld32(k + DFX_K_RECORDS_PER_BUFFER) < 1) {
            free(l);
            free(in);
            return NULL; /* the lane stays claimed, unwritten: its total is 0 */
        }
        l->intern = in;
        l->intern_mask = 1023;
        l->table_entry = t;
        dfx__name_lane(l, dfx__tls_name[0] != '\0' ? dfx__tls_name : NULL);
        l->lane = lane;
        l->kind = kind;
        l->producer = producer;
        l->record_size = 32;
        l->capacity = dfx__ld32(k + DFX_K_RECORDS_PER_BUFFER);
        l->drop_policy = dfx__ld32(k + DFX_K_POLICY) == 1;
        l->rq_size = p->rq_size;
        l->slots = p->slots;
        l->head = p->base + p->lane_states + p->lane_stride * lane;
        l->rq = p->base + p->rqs + p->rq_stride * producer;
        l->rq_tail = atomic_load_explicit(DFX__A32(l->rq + DFX_RQ_TAIL), memory_order_relaxed) % p->rq_size;
        l->strings = p->str_bytes >= 128 ? p->base + p->strings + (uint64_t)p->str_bytes * lane : NULL;
        l->str_bytes = p->str_bytes;
        l->str_used = DFX_STRINGS_START;
        l->free_head = dfx__ld64(l->head + DFX_L_FQ_HEAD);
        l->free_tail_seen = atomic_load_explicit(DFX__A64(l->head + DFX_L_FQ_TAIL), memory_order_acquire);
        l->min_free = l->free_tail_seen - l->free_head;
        dfx__relaxed64(l->head + DFX_L_MIN_FREE, l->min_free);
        uint32_t idle = 0; /* a lane is claimed once, so it is idle; anything else is the host's or corrupt */
        if (!atomic_compare_exchange_strong(DFX__A32(l->head + DFX_L_ATTACH), &idle, 1u)) {
            l->closed = 1;
        }
        return l;
    }
    return NULL;
}

DFX__WEAK struct dfx__lane *dfx__thread_lane(void) {
    if (dfx__tls_state == 2) {
        if (dfx__ensure_attached()) {
            atomic_fetch_add_explicit(DFX__A64(dfx__p.base + DFX_H_UNLANED_DROPPED), 1, memory_order_relaxed);
        }
        return NULL;
    }
    if (!dfx__ensure_attached()) {
        return NULL;
    }
    struct dfx__lane *l = dfx__claim_lane();
    if (l == NULL) {
        dfx__tls_state = 2;
        atomic_fetch_add_explicit(DFX__A64(dfx__p.base + DFX_H_UNLANED_DROPPED), 1, memory_order_relaxed);
        return NULL;
    }
    dfx__tls = l;
    dfx__tls_state = 1;
    if (dfx__p.key_made) {
        pthread_setspecific(dfx__p.key, l);
    }
    return l;
}

DFX__WEAK uint32_t dfx__intern_slow(struct dfx__lane *l, const char *s) {
    uint32_t id = DFX_NO_STRING;
    size_t n = strlen(s);
    uint64_t need = 4 + ((n + 3) & ~(size_t)3);
    if (l->strings != NULL && n <= 0xFFFFFFFFu && l->str_used + need <= l->str_bytes) {
        uint32_t len = (uint32_t)n;
        memcpy(l->strings + l->str_used, &len, 4);
        memcpy(l->strings + l->str_used + 4, s, n);
        memset(l->strings + l->str_used + 4 + n, 0, need - 4 - n);
        id = (uint32_t)l->str_used;
        l->str_used += need;
        /* The entry before the used count: a record naming it is written (and published) after this. */
        atomic_store_explicit(DFX__A64(l->strings), l->str_used, memory_order_release);
    }
    if (l->intern_n * 2 >= l->intern_mask) {
        return id; /* the pointer cache is full: later calls append again (the table bounds it) */
    }
    uint32_t i = (uint32_t)(((uintptr_t)s * 0x9E3779B97F4A7C15ull) >> 40) & l->intern_mask;
    while (l->intern[i].ptr != NULL) {
        i = (i + 1) & l->intern_mask;
    }
    l->intern[i].ptr = s;
    l->intern[i].id = id;
    l->intern_n++;
    return id;
}

/* ---- gates ---- */
enum dfx__cause { DFX__OK = 0, DFX__PUSH = 1, DFX__POP = 2, DFX__DEGRADED = 3 };

DFX__WEAK int dfx__push_ready(struct dfx__lane *l) {
    uint32_t head = atomic_load_explicit(DFX__A32(l->rq + DFX_RQ_HEAD), memory_order_acquire);
    uint32_t next = l->rq_tail + 1 == l->rq_size ? 0 : l->rq_tail + 1;
    return next != head;
}

DFX__WEAK int dfx__pop_ready(struct dfx__lane *l) {
    l->free_tail_seen = atomic_load_explicit(DFX__A64(l->head + DFX_L_FQ_TAIL), memory_order_acquire);
    return l->free_tail_seen != l->free_head;
}

DFX__WEAK void dfx__set_degraded(struct dfx__lane *l, int d) {
    if (l->degraded != d) {
        l->degraded = d;
        atomic_store_explicit(DFX__A32(l->head + DFX_L_DEGRADED), (uint32_t)d, memory_order_relaxed);
    }
}

DFX__WEAK void dfx__pause(unsigned step) {
    if (step < 64) {
#if defined(__x86_64__) || defined(__i386__)
        __asm__ __volatile__("pause");
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
    } else if (step < 128) {
        sched_yield();
    } else {
        unsigned shift = step - 128 < 5 ? step - 128 : 5;
        struct timespec ts = {0, (long)(50000u << shift)}; /* 50 us, doubling to 1.6 ms */
        nanosleep(&ts, NULL);
    }
}

DFX__WEAK void dfx__waited(struct dfx__lane *l, uint64_t start, uint64_t end) {
    uint64_t d = end - start;
    if (d > dfx__p.stall_ns) {
        /* the window first, then its count (release): the host copies windows up to the count it acquires */
        unsigned char *w = l->head + DFX_L_STALL_RING + 16ull * (l->stalls % DFX_STALL_RING_WINDOWS);
        dfx__relaxed64(w, start);
        dfx__relaxed64(w + 8, end);
        atomic_store_explicit(DFX__A64(l->head + DFX_L_STALL_WINDOWS), l->stalls + 1, memory_order_release);
        dfx__relaxed64(l->head + DFX_L_STALL_COUNT, ++l->stalls);
        dfx__relaxed64(l->head + DFX_L_STALL_TOTAL, l->stall_total += d);
        if (d > l->stall_longest) {
            dfx__relaxed64(l->head + DFX_L_STALL_LONGEST, l->stall_longest = d);
        }
    }
}

/* One gate: passes at once, or (BLOCK, not degraded) waits against one deadline taken before the loop. */
DFX__WEAK int dfx__gate(struct dfx__lane *l, int (*ready)(struct dfx__lane *), int cause) {
    if (ready(l)) {
        dfx__set_degraded(l, 0);
        return DFX__OK;
    }
    if (l->degraded) {
        return DFX__DEGRADED;
    }
    if (l->drop_policy) {
        return cause;
    }
    uint64_t start = dfx_now_ns();
    uint64_t deadline = start + dfx__p.backstop_ns;
    for (unsigned step = 0;; step++) {
        dfx__pause(step);
        if (ready(l)) {
            dfx__waited(l, start, dfx_now_ns());
            return DFX__OK;
        }
        uint64_t now = dfx_now_ns();
        if ((int64_t)(now - deadline) >= 0) {
            dfx__waited(l, start, now);
            dfx__relaxed64(l->head + DFX_L_EXPIRIES, ++l->expiries);
            dfx__set_degraded(l, 1);
            return cause;
        }
    }
}

DFX__WEAK void dfx__drop(struct dfx__lane *l, uint64_t n, int cause) {
    if (n == 0) {
        return;
    }
    dfx__relaxed64(l->head + DFX_L_DROPPED, l->dropped += n);
    if (cause == DFX__PUSH) {
        dfx__relaxed64(l->head + DFX_L_DROPPED_PUSH, l->dropped_push += n);
    } else if (cause == DFX__POP) {
        dfx__relaxed64(l->head + DFX_L_DROPPED_POP, l->dropped_pop += n);
    } else {
        dfx__relaxed64(l->head + DFX_L_DROPPED_DEGRADED, l->dropped_degraded += n);
    }
}

/* Push gate, entry, tail release; on failure the buffer's records are dropped and the buffer kept. 1: published */
DFX__WEAK int dfx__publish(struct dfx__lane *l) {
    int c = dfx__gate(l, dfx__push_ready, DFX__PUSH);
    if (c != DFX__OK) {
        dfx__drop(l, l->count, c);
        l->count = 0;
        atomic_store_explicit(DFX__A64(l->head + DFX_L_COMMITTED), 0, memory_order_release);
        return 0;
    }
    unsigned char *e = l->rq + DFX_RQ_ENTRIES + 32ull * l->rq_tail;
    uint32_t lane = l->lane, kind = l->kind, count = l->count, zero = 0;
    memcpy(e + DFX_E_LANE, &lane, 4);
    memcpy(e + DFX_E_KIND, &kind, 4);
    memcpy(e + DFX_E_HANDLE, &l->handle, 8);
    memcpy(e + DFX_E_SEQ, &l->seq, 8);
    memcpy(e + DFX_E_COUNT, &count, 4);
    memcpy(e + 28, &zero, 4);
    l->rq_tail = l->rq_tail + 1 == l->rq_size ? 0 : l->rq_tail + 1;
    atomic_store_explicit(DFX__A32(l->rq + DFX_RQ_TAIL), l->rq_tail, memory_order_release);
    /* current and committed first: a host finding current still set knows the buffer by its seq */
    dfx__relaxed64(l->head + DFX_L_CURRENT, 0);
    atomic_store_explicit(DFX__A64(l->head + DFX_L_COMMITTED), 0, memory_order_release);
    dfx__relaxed64(l->head + DFX_L_PUBLISHED, l->published += count);
    dfx__relaxed64(l->head + DFX_L_SEQ, ++l->seq);
    uint32_t head = atomic_load_explicit(DFX__A32(l->rq + DFX_RQ_HEAD), memory_order_relaxed);
    uint64_t depth = (l->rq_tail + l->rq_size - head % l->rq_size) % l->rq_size;
    if (depth > l->max_depth) {
        dfx__relaxed64(l->rq + DFX_RQ_MAX_DEPTH, l->max_depth = depth);
    }
    l->handle = 0;
    l->buf = NULL;
    l->limit = 0;
    l->count = 0;
    return 1;
}

DFX__WEAK void dfx__observe_free(struct dfx__lane *l, uint64_t depth) {
    if (depth < l->min_free) {
        dfx__relaxed64(l->head + DFX_L_MIN_FREE, l->min_free = depth);
    }
}

/* Pop gate, then takes the slot at the free-queue head. @return a cause, or DFX__OK with a buffer held */
DFX__WEAK int dfx__pop(struct dfx__lane *l) {
    if (!dfx__pop_ready(l)) {
        dfx__observe_free(l, 0);
    }
    int c = dfx__gate(l, dfx__pop_ready, DFX__POP);
    if (c != DFX__OK) {
        return c;
    }
    uint64_t h = l->free_head;
    uint64_t handle = dfx__ld64(l->head + DFX_L_FQ_SLOTS + 8ull * (h % l->slots));
    l->free_head = h + 1;
    atomic_store_explicit(DFX__A64(l->head + DFX_L_FQ_HEAD), h + 1, memory_order_release);
    dfx__observe_free(l, l->free_tail_seen - (h + 1));
    unsigned char *b = dfx__resolve(handle, l->kind, l->capacity * 32u);
    if (b == NULL) {
        return DFX__POP; /* a corrupt slot is no buffer; the host sees the lane's seq go on */
    }
    atomic_store_explicit(DFX__A64(l->head + DFX_L_COMMITTED), 0, memory_order_relaxed);
    dfx__relaxed64(l->head + DFX_L_CURRENT, handle);
    l->buf = b;
    l->handle = handle;
    l->limit = l->capacity;
    l->count = 0;
    return DFX__OK;
}

/* The current buffer is full (or there is none): publish it first, then claim a replacement; total is counted. */
DFX__WEAK void dfx__switch(struct dfx__lane *l, const uint64_t *r) {
    if (!l->closed && atomic_load_explicit(DFX__A32(l->head + DFX_L_ATTACH), memory_order_acquire) >= 3u) {
        l->closed = 1; /* the host closed or revoked the lane at its stop */
    }
    if (l->closed) {
        dfx__drop(l, 1, DFX__DEGRADED);
        return;
    }
    if (l->handle != 0 && !dfx__publish(l)) {
        /* the buffer was dropped and is reused: this record goes first in it */
        memcpy(l->buf, r, 32);
        l->count = 1;
        atomic_store_explicit(DFX__A64(l->head + DFX_L_COMMITTED), 1, memory_order_release);
        return;
    }
    int c = dfx__pop(l);
    if (c != DFX__OK) {
        dfx__drop(l, 1, c);
        return;
    }
    memcpy(l->buf, r, 32);
    l->count = 1;
    atomic_store_explicit(DFX__A64(l->head + DFX_L_COMMITTED), 1, memory_order_release);
}

DFX__WEAK void dfx__flush_lane(struct dfx__lane *l) {
    if (l != NULL && l->handle != 0 && l->count > 0) {
        dfx__publish(l);
    }
}

DFX__WEAK void dfx_flush(void) {
    dfx__flush_lane(dfx__tls);
}

/* Ends a lane: publishes its records and marks it closed; nothing more is written to it. */
DFX__WEAK void dfx__close_lane(struct dfx__lane *l) {
    if (l == NULL || l->closed) {
        return;
    }
    dfx__flush_lane(l);
    if (!l->named) {
        dfx__name_lane(l, NULL); /* the name the thread has now: a thread named after its first event */
    }
    l->closed = 1;
    uint32_t attached = 1; /* the host may have closed or revoked it at stop: then it keeps its word */
    atomic_compare_exchange_strong(DFX__A32(l->head + DFX_L_ATTACH), &attached, 2u);
}

DFX__WEAK void dfx__thread_exit(void *lane) {
    struct dfx__lane *l = (struct dfx__lane *)lane;
    if (l == NULL || l != dfx__tls) {
        return; /* not this process's lane (the key was inherited over fork) */
    }
    dfx__close_lane(l);
    dfx__tls = NULL;
    dfx__tls_state = 0;
    free(l->intern);
    free(l);
}

DFX__WEAK void dfx__process_exit(void) {
    struct dfx__proc *p = &dfx__p;
    if (atomic_load_explicit(&p->state, memory_order_acquire) != 2) {
        return;
    }
    dfx__close_lane(dfx__tls);
    if (p->proc_slot >= 0) {
        unsigned char *e = p->base + p->proc_table + 16ull * (uint32_t)p->proc_slot;
        atomic_store_explicit(DFX__A32(e + DFX_P_STATE), 2u, memory_order_release);
    }
}

DFX__WEAK void dfx__after_fork_child(void) {
    /* The child has only the forking thread; the parent's lanes are the parent's: the thread claims a lane of its own
       at its next event. The child is a process of its own from now: it takes a process-table entry at once, so the
       host knows it even before it writes (only async-signal-safe calls here: CAS, clock_gettime, getpid). */
    dfx__tls = NULL;
    dfx__tls_state = 0;
    if (dfx__p.key_made) {
        pthread_setspecific(dfx__p.key, NULL);
    }
    int s = atomic_load_explicit(&dfx__p.state, memory_order_relaxed);
    if (s == 2) {
        dfx__p.pid = getpid();
        dfx__register_process();
    } else if (s == 1) {
        /* another thread of the parent was attaching: it does not exist here, so this thread attaches anew */
        atomic_store_explicit(&dfx__p.state, 0, memory_order_relaxed);
    }
}

/* One (ticks, ns) pair: the TSC read between the two closest of five CLOCK_MONOTONIC pairs. */
DFX__WEAK void dfx__tsc_point(uint64_t *ticks, uint64_t *ns) {
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 5; i++) {
        uint64_t a = dfx_now_ns();
        uint64_t t = dfx__ticks();
        uint64_t b = dfx_now_ns();
        if (b - a < best) {
            best = b - a;
            *ticks = t;
            *ns = a + (b - a) / 2;
        }
    }
}

/*
 * Publishes the region's TSC calibration once (the first process or thread to ask does it: two points >= 10 ms apart)
 * or waits for the one that does. @return 1 once the calibration is published (acquired), 0 when there is none: no
 * region, or the one calibrating never finished within a second (it died: then no process uses the TSC).
 */
DFX__WEAK int dfx__calibrate_tsc(void) {
    unsigned char *h = dfx__p.base;
    uint32_t zero = 0;
    if (h == NULL) {
        return 0;
    }
    if (!atomic_compare_exchange_strong(DFX__A32(h + DFX_H_TSC_STATE), &zero, 1u)) {
        uint64_t deadline = dfx_now_ns() + 1000000000ull;
        while (atomic_load_explicit(DFX__A32(h + DFX_H_TSC_STATE), memory_order_acquire) != 2u) {
            if ((int64_t)(dfx_now_ns() - deadline) >= 0) {
                return 0;
            }
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
        return 1;
    }
    uint64_t t0, n0, t1, n1;
    dfx__tsc_point(&t0, &n0);
    struct timespec ts = {0, 10000000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    dfx__tsc_point(&t1, &n1);
    dfx__relaxed64(h + DFX_H_TSC_TICKS0, t0);
    dfx__relaxed64(h + DFX_H_TSC_NS0, n0);
    dfx__relaxed64(h + DFX_H_TSC_TICKS1, t1);
    dfx__relaxed64(h + DFX_H_TSC_NS1, n1);
    atomic_store_explicit(DFX__A32(h + DFX_H_TSC_STATE), 2u, memory_order_release);
    return 1;
}

DFX__WEAK void dfx_use_tsc(int on) {
    int use = on && dfx__ensure_attached() && dfx__calibrate_tsc();
    atomic_store_explicit(&dfx__p.use_tsc, use, memory_order_release);
}

DFX__WEAK int dfx_thread_pool(uint32_t pool) {
    if (dfx__tls != NULL || dfx__tls_state != 0 || !dfx__ensure_attached() || pool >= dfx__p.kinds) {
        return -1;
    }
    unsigned char *k = dfx__p.base + dfx__p.kind_table + 16ull * pool;
    if (dfx__ld32(k + DFX_K_RECORD_SIZE) != 32 || dfx__ld32(k + DFX_K_RECORDS_PER_BUFFER) < 1) {
        return -1;
    }
    dfx__tls_pool = pool;
    return 0;
}

DFX__WEAK void dfx_thread_name(const char *name) {
    if (name == NULL) {
        return;
    }
    size_t n = strlen(name);
    if (n > DFX_THREAD_NAME_BYTES - 1) {
        n = DFX_THREAD_NAME_BYTES - 1;
        while (n > 0 && ((unsigned char)name[n] & 0xC0u) == 0x80u) {
            n--; /* not inside a UTF-8 sequence */
        }
    }
    struct dfx__lane *l = dfx__tls;
    if (l != NULL) {
        char b[DFX_THREAD_NAME_BYTES] = {0};
        memcpy(b, name, n);
        dfx__name_lane(l, b);
        l->named = 1;
    } else {
        memset(dfx__tls_name, 0, sizeof dfx__tls_name);
        memcpy(dfx__tls_name, name, n);
    }
}

#ifdef __cplusplus
}
#endif

#endif /* DFX_H */
