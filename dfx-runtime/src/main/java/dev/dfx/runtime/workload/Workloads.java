package dev.dfx.runtime.workload;

import dev.dfx.error.BadInputException;
import dev.dfx.error.UsageException;
import java.util.List;

/** The workloads by {@code -w} name, at their default sizes. */
public final class Workloads {
    /** All names, in the order the baseline lists them. */
    public static final List<String> NAMES = List.of("flood", "scoped", "gemm", "attention", "decoder");

    private Workloads() {
    }

    /**
     * @param name a {@code -w} name in any case (every enum-like option value of dfx is read in any case)
     * @return the workload's name as {@link #NAMES} spells it, or {@code name} as it is when it names none
     */
    public static String canonical(String name) {
        return NAMES.stream().filter(n -> n.equalsIgnoreCase(name)).findFirst().orElse(name);
    }

    /**
     * @param name a {@code -w} name, in any case
     * @return a fresh instance with its data generated (seeded, so every run computes the same)
     * @throws BadInputException naming the known workloads when {@code name} is none of them
     */
    public static Workload create(String name) {
        return switch (canonical(name)) {
            case "flood" -> new Flood();
            case "scoped" -> new Scoped();
            case "gemm" -> new Gemm();
            case "attention" -> new Attention();
            case "decoder" -> new Decoder();
            default -> throw new UsageException("unknown workload '" + name + "' (-w); expected one of "
                    + String.join(", ", NAMES));
        };
    }
}
