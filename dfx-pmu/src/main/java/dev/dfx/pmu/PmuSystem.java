package dev.dfx.pmu;

import dev.dfx.pmu.accel.AccelPmu;
import dev.dfx.pmu.accel.ActivityModel;
import dev.dfx.pmu.accel.Architecture;
import dev.dfx.pmu.jvm.JvmPmu;
import dev.dfx.pmu.linux.LinuxSyscalls;
import dev.dfx.pmu.linux.SymbolicEvents;
import dev.dfx.pmu.linux.TracefsTracepoints;
import dev.dfx.pmu.sim.SimPmu;
import dev.dfx.pmu.sysfs.FileSystemDirectory;
import dev.dfx.pmu.sysfs.PmuDirectory;
import dev.dfx.pmu.sysfs.SysfsPmuReader;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * The PMUs of one dfx process, together: the Linux PMUs found under {@code /sys/bus/event_source/devices} (or a
 * fake tree), the symbolic and tracepoint events, the simulated accelerator PMU {@code accel} with its activity
 * model, and the {@code jvm} PMU. Entry point for {@code dfx list}, {@code dfx stat} and the runtime's per-task
 * counters ({@link dev.dfx.pmu.task.TaskCounters}).
 *
 * <p>Immutable after construction; thread-safe (the activity model takes concurrent {@code onTask} calls).
 */
public final class PmuSystem {
    private final PmuCatalog catalog;
    private final AccelPmu accel;
    private final JvmPmu jvm;
    private final boolean linuxAvailable;

    private PmuSystem(List<PmuDescriptor> linuxPmus, TracepointLookup tracepoints, Architecture arch, boolean linuxAvailable) {
        this.accel = new AccelPmu(new ActivityModel(arch));
        this.jvm = new JvmPmu();
        this.linuxAvailable = linuxAvailable;
        List<PmuDescriptor> all = new ArrayList<>(linuxPmus);
        all.add(accel.descriptor());
        all.add(jvm.descriptor());
        List<SymbolicEvent> symbolic = linuxAvailable ? SymbolicEvents.all() : List.of();
        this.catalog = new PmuCatalog(all, symbolic, tracepoints);
    }

    /**
     * This machine: Linux PMUs from sysfs and tracefs when perf_event_open is callable, plus accel and jvm.
     *
     * @param arch the simulated accelerator's architecture
     * @return the system
     * @throws dev.dfx.error.BadInputException when a sysfs file is malformed (naming it)
     */
    public static PmuSystem host(Architecture arch) {
        boolean linux = LinuxSyscalls.available() && Files.isDirectory(FileSystemDirectory.LINUX_DEVICES);
        List<PmuDescriptor> pmus = linux
                ? SysfsPmuReader.readAll(new FileSystemDirectory(FileSystemDirectory.LINUX_DEVICES), PmuFamily.LINUX)
                : List.of();
        return new PmuSystem(pmus, linux ? TracefsTracepoints.system() : TracepointLookup.NONE, arch, linux);
    }

    /**
     * A system over a given Linux tree (e.g. a fake sysfs in test resources).
     *
     * @param linuxDevices a tree shaped like {@code /sys/bus/event_source/devices}
     * @param tracepoints  the tracepoint lookup
     * @param arch         the simulated accelerator's architecture
     * @return the system
     */
    public static PmuSystem of(PmuDirectory linuxDevices, TracepointLookup tracepoints, Architecture arch) {
        return new PmuSystem(SysfsPmuReader.readAll(linuxDevices, PmuFamily.LINUX), tracepoints, arch,
                LinuxSyscalls.available());
    }

    /** @return the catalog to resolve specs against */
    public PmuCatalog catalog() {
        return catalog;
    }

    /** @return the simulated accelerator PMU */
    public AccelPmu accel() {
        return accel;
    }

    /** @return the accelerator's activity model (the runtime calls {@code onTask} on it) */
    public ActivityModel accelModel() {
        return accel.model();
    }

    /** @return the JVM PMU */
    public JvmPmu jvm() {
        return jvm;
    }

    /** @return whether Linux events can be opened here */
    public boolean linuxAvailable() {
        return linuxAvailable;
    }

    /**
     * @param event a resolved event of the accel or jvm family
     * @return the simulated PMU that counts it
     * @throws IllegalArgumentException for a Linux event
     */
    public SimPmu simPmu(ResolvedEvent event) {
        return switch (event.family()) {
            case ACCEL -> accel;
            case JVM -> jvm;
            case LINUX -> throw new IllegalArgumentException(event.name() + " is a Linux event");
            case TOOL -> throw new IllegalArgumentException(event.name() + " is a tool event");
        };
    }
}
