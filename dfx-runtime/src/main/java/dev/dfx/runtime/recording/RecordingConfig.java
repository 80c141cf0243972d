package dev.dfx.runtime.recording;

import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.record.Subsystem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * What {@code dfx record} was asked for, before validation ({@link RecordingPlan#of} checks it). Immutable.
 *
 * @param workload       workload name ({@code -w}), e.g. {@code attention}
 * @param subsystems     subsystems to record ({@code -s}); empty records nothing (the baseline run)
 * @param swimlaneLevel  1..4 ({@code --swimlane-level})
 * @param argsLevel      0..3 ({@code --args-level}; 0 turns args off)
 * @param policy         backpressure policy ({@code --backpressure})
 * @param backstop       budget of one gate wait ({@code --backstop})
 * @param stallThreshold a gate wait longer than this is a stall
 * @param pools          {@code --pool KIND=COUNTxRECORDS} values, in command-line order
 * @param pmuEvents      {@code -e} event list, or null for the default JVM counters
 * @param accelArch      simulated accelerator architecture for accel events ({@code gfx12}, {@code gfx9})
 * @param schedulers     runtime scheduler threads ({@code -S})
 * @param cores          runtime core threads ({@code -C})
 * @param output         the run directory ({@code -o}), or null for {@code ./dfx-runs/<timestamp>}
 * @param commandLine    the command line, for run.json
 */
public record RecordingConfig(String workload, Set<Subsystem> subsystems, int swimlaneLevel, int argsLevel,
                              BackpressurePolicy policy, Duration backstop, Duration stallThreshold, List<String> pools,
                              String pmuEvents, String accelArch, int schedulers, int cores, Path output,
                              List<String> commandLine) {
    /** Default workload. */
    public static final String DEFAULT_WORKLOAD = "attention";
    /** Default swimlane level: everything (core tasks, scheduler tasks and phases, orchestrator submits). */
    public static final int DEFAULT_SWIMLANE_LEVEL = 4;
    /** Default args level: marked arguments (the reference's bare {@code --dump-args}). */
    public static final int DEFAULT_ARGS_LEVEL = 1;

    /** Copies the collections. */
    public RecordingConfig {
        subsystems = Set.copyOf(subsystems);
        pools = List.copyOf(pools);
        commandLine = List.copyOf(commandLine);
    }

    /** @return the defaults of {@code dfx record}: attention, all subsystems, BLOCK, 30 s backstop, S=1, C=2 */
    public static RecordingConfig defaults() {
        return new RecordingConfig(DEFAULT_WORKLOAD, Set.of(Subsystem.values()), DEFAULT_SWIMLANE_LEVEL,
                DEFAULT_ARGS_LEVEL, BackpressurePolicy.BLOCK, Duration.ofSeconds(30), Duration.ofNanos(100_000),
                List.of(), null, "gfx12", 1, 2, null, List.of("dfx", "record"));
    }

    /** @return a copy recording workload {@code name} */
    public RecordingConfig withWorkload(String name) {
        return new RecordingConfig(name, subsystems, swimlaneLevel, argsLevel, policy, backstop, stallThreshold, pools,
                pmuEvents, accelArch, schedulers, cores, output, commandLine);
    }

    /** @return a copy recording these subsystems */
    public RecordingConfig withSubsystems(Set<Subsystem> s) {
        return new RecordingConfig(workload, s, swimlaneLevel, argsLevel, policy, backstop, stallThreshold, pools,
                pmuEvents, accelArch, schedulers, cores, output, commandLine);
    }

    /** @return a copy writing into {@code dir} */
    public RecordingConfig withOutput(Path dir) {
        return new RecordingConfig(workload, subsystems, swimlaneLevel, argsLevel, policy, backstop, stallThreshold,
                pools, pmuEvents, accelArch, schedulers, cores, dir, commandLine);
    }

    /** @return a copy with this policy and these pool overrides */
    public RecordingConfig withBackpressure(BackpressurePolicy p, List<String> poolOverrides) {
        return new RecordingConfig(workload, subsystems, swimlaneLevel, argsLevel, p, backstop, stallThreshold,
                poolOverrides, pmuEvents, accelArch, schedulers, cores, output, commandLine);
    }

    /** @return a copy with these levels */
    public RecordingConfig withLevels(int swimlane, int args) {
        return new RecordingConfig(workload, subsystems, swimlane, args, policy, backstop, stallThreshold, pools,
                pmuEvents, accelArch, schedulers, cores, output, commandLine);
    }

    /** @return a copy with these runtime threads */
    public RecordingConfig withThreads(int s, int c) {
        return new RecordingConfig(workload, subsystems, swimlaneLevel, argsLevel, policy, backstop, stallThreshold,
                pools, pmuEvents, accelArch, s, c, output, commandLine);
    }

    /** @return a copy counting these events in the pmu records */
    public RecordingConfig withPmuEvents(String events) {
        return new RecordingConfig(workload, subsystems, swimlaneLevel, argsLevel, policy, backstop, stallThreshold,
                pools, events, accelArch, schedulers, cores, output, commandLine);
    }
}
