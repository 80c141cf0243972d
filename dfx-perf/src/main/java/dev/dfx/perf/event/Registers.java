package dev.dfx.perf.event;

/**
 * Register names of sampled register sets ({@code perf_reg_name}) for x86 and arm64, the architectures dfx
 * meets; others print {@code ??} as perf does for unknown ones. Stateless.
 */
public final class Registers {
    private static final String[] X86 = {"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
        "DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"};

    private Registers() {
    }

    /**
     * @param id   register number (bit of {@code sample_regs_user}/{@code sample_regs_intr})
     * @param arch the recording's ARCH feature, e.g. {@code x86_64}; {@code null} means x86
     * @return perf's register name
     */
    public static String name(int id, String arch) {
        if (arch == null || arch.startsWith("x86") || arch.equals("i386")) {
            if (id < X86.length) {
                return X86[id];
            }
            if (id >= 32 && id < 64) {
                return "XMM" + ((id - 32) / 2);
            }
            return "unknown";
        }
        if (arch.equals("aarch64") || arch.equals("arm64")) {
            if (id < 30) {
                return "x" + id;
            }
            return switch (id) {
                case 30 -> "lr";
                case 31 -> "sp";
                case 32 -> "pc";
                case 33 -> "vg";
                default -> "unknown";
            };
        }
        return "??";
    }
}
