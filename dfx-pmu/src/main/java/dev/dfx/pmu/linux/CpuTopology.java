package dev.dfx.pmu.linux;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a CPU sits: its socket ({@code physical_package_id}), die and core, from
 * {@code /sys/devices/system/cpu/cpuN/topology} (kernel {@code Documentation/admin-guide/cputopology.rst}), as perf
 * stat's {@code --per-socket} and {@code --per-core} group CPUs ({@code cpu__get_socket_id}, {@code cpu__get_die_id},
 * {@code cpu__get_core_id}: -1 where the file cannot be read). Immutable.
 *
 * @param cpu    the CPU number
 * @param socket its socket
 * @param die    its die in the socket
 * @param core   its core in the die
 */
public record CpuTopology(int cpu, int socket, int die, int core) {
    private static final Path CPUS = Path.of("/sys/devices/system/cpu");

    /** @return the topology of {@code cpu} as this machine's sysfs gives it */
    public static CpuTopology read(int cpu) {
        Path dir = CPUS.resolve("cpu" + cpu).resolve("topology");
        return new CpuTopology(cpu, id(dir.resolve("physical_package_id")), id(dir.resolve("die_id")),
            id(dir.resolve("core_id")));
    }

    private static int id(Path file) {
        try {
            return Integer.parseInt(Files.readString(file).strip());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }
}
