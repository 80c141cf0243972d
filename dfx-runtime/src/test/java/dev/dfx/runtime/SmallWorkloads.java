package dev.dfx.runtime;

import dev.dfx.runtime.workload.Attention;
import dev.dfx.runtime.workload.Decoder;
import dev.dfx.runtime.workload.Flood;
import dev.dfx.runtime.workload.Gemm;
import dev.dfx.runtime.workload.Scoped;
import dev.dfx.runtime.workload.Workload;
import java.util.List;
import java.util.function.Supplier;

/** Small instances of every workload, quick enough to run many times in tests. */
public final class SmallWorkloads {
    private SmallWorkloads() {
    }

    /** Every workload name. */
    public static final List<String> NAMES = List.of("flood", "scoped", "gemm", "attention", "decoder");

    /** @return a fresh small instance of workload {@code name} per call */
    public static Supplier<Workload> named(String name) {
        return switch (name) {
            case "flood" -> () -> new Flood(3000, 16);
            case "scoped" -> () -> new Scoped(12, 40, 16);
            case "gemm" -> () -> new Gemm(96, 16);
            case "attention" -> () -> new Attention(new int[] {100, 300, 64, 33}, 3, 16, 32, 3);
            case "decoder" -> () -> new Decoder(6, 4, 4, 32);
            default -> throw new IllegalArgumentException(name);
        };
    }
}
