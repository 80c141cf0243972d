package dev.dfx.perf.trace;

/**
 * Resolves kernel addresses to function names for {@code %ps}/{@code %pS} conversions (perf installs
 * {@code machine__resolve_kernel_addr} as libtraceevent's function resolver). Implementations must be safe
 * to call from the printing thread.
 */
public interface KernelSymbols {
    /** A resolver that knows no symbol: every {@code %ps} prints as {@code 0x...}. */
    KernelSymbols NONE = addr -> null;

    /**
     * @param addr a kernel address
     * @return the symbol containing {@code addr}, or {@code null}
     */
    Symbol find(long addr);

    /**
     * A resolved symbol.
     *
     * @param name  function name
     * @param start the function's start address
     */
    record Symbol(String name, long start) {
    }
}
