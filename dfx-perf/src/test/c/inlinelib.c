/* A shared library whose exported function has a static function inlined into it (LiveInlineTest). */
static volatile long lib_sink;

static inline __attribute__((always_inline)) long lib_mix(long x) {
    long s = 0;
    for (long i = 0; i < x; i++) {
        s += (i * 7) ^ lib_sink;
    }
    return s;
}

long inlinelib_work(long x) {
    return lib_mix(x) + lib_mix(x / 3);
}
