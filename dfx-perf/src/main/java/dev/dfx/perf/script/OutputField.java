package dev.dfx.perf.script;

/**
 * The fields {@code perf script -F} accepts ({@code builtin-script.c all_output_options}), in perf's order.
 * Each constant is one bit of a field set.
 */
public enum OutputField {
    COMM("comm"), TID("tid"), PID("pid"), TIME("time"), CPU("cpu"), EVNAME("event"), TRACE("trace"), IP("ip"),
    SYM("sym"), DSO("dso"), ADDR("addr"), SYMOFFSET("symoff"), SRCLINE("srcline"), PERIOD("period"),
    IREGS("iregs"), UREGS("uregs"), BRSTACK("brstack"), BRSTACKSYM("brstacksym"), DATA_SRC("data_src"),
    WEIGHT("weight"), BPF_OUTPUT("bpf-output"), CALLINDENT("callindent"), INSN("insn"), INSNLEN("insnlen"),
    BRSTACKINSN("brstackinsn"), BRSTACKOFF("brstackoff"), SYNTH("synth"), PHYS_ADDR("phys_addr"),
    METRIC("metric"), MISC("misc"), SRCCODE("srccode"), IPC("ipc"), TOD("tod"), DATA_PAGE_SIZE("data_page_size"),
    CODE_PAGE_SIZE("code_page_size"), INS_LAT("ins_lat"), BRSTACKINSNLEN("brstackinsnlen"),
    MACHINE_PID("machine_pid"), VCPU("vcpu"), CGROUP("cgroup");

    private final String label;

    OutputField(String label) {
        this.label = label;
    }

    /** @return the name used on the command line */
    public String label() {
        return label;
    }

    /** @return this field's bit */
    public long bit() {
        return 1L << ordinal();
    }

    /** @return the field named {@code s}, or {@code null} */
    public static OutputField byLabel(String s) {
        for (OutputField f : values()) {
            if (f.label.equals(s)) {
                return f;
            }
        }
        return null;
    }

    /** @return the set of the given fields */
    static long set(OutputField... fields) {
        long v = 0;
        for (OutputField f : fields) {
            v |= f.bit();
        }
        return v;
    }
}
