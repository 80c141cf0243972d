package dev.dfx.perf.vpadtl;

/**
 * The dispatch and preempt reason names of a dtl entry, as perf's {@code powerpc-vpadtl.c} tables spell them
 * ({@code dispatch_reasons[11]}, {@code preempt_reasons[10]}). perf indexes its tables without a bounds check;
 * here a code past the end reads {@code unknown(N)}. Stateless and thread-safe.
 */
public final class DtlReasons {
    private static final String[] DISPATCH = {"external_interrupt", "firmware_internal_event", "H_PROD",
        "decrementer_interrupt", "system_reset", "firmware_internal_event", "conferred_cycles", "time_slice",
        "virtual_memory_page_fault", "expropriated_adjunct", "priv_doorbell"};
    private static final String[] PREEMPT = {"unused", "firmware_internal_event", "H_CEDE", "H_CONFER",
        "time_slice", "migration_hibernation_page_fault", "virtual_memory_page_fault", "H_CONFER_ADJUNCT",
        "hcall_adjunct", "HDEC_adjunct"};
    private static final String[] UNKNOWN = new String[256];

    static {
        for (int i = 0; i < UNKNOWN.length; i++) {
            UNKNOWN[i] = "unknown(" + i + ")";
        }
    }

    private DtlReasons() {
    }

    /**
     * @param code u8 dispatch reason, 0..255
     * @return its name
     */
    public static String dispatch(int code) {
        return code < DISPATCH.length ? DISPATCH[code] : UNKNOWN[code];
    }

    /**
     * @param code u8 preempt reason, 0..255
     * @return its name
     */
    public static String preempt(int code) {
        return code < PREEMPT.length ? PREEMPT[code] : UNKNOWN[code];
    }
}
