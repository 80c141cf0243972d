package dev.dfx.cli;

import dev.dfx.perf.filter.CpuList;
import dev.dfx.perf.filter.SampleFilter;
import dev.dfx.perf.filter.ThreadFilter;
import dev.dfx.perf.session.PerfSession;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * perf's sample filter options, shared by {@code dfx script} and {@code dfx report}: {@code --time},
 * {@code -C/--cpu}, {@code --pid}, {@code --tid}, {@code -c/--comms} ({@link SampleFilter}). A value that is not
 * a time range, cpu list or list of ids is a usage error, named before any recording is read.
 */
final class SampleFilterOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--time", paramLabel = "START,STOP",
        description = "Only samples in this time span, as perf: START,STOP in seconds (either may be left out;"
            + " several spans separated by spaces) or shares of the recording: 10%%/2 (the second tenth),"
            + " 0%%-10%%,30%%-40%%, 50%%")
    String time;

    @Option(names = {"-C", "--cpu"}, paramLabel = "CPUS",
        description = "Only records of these cpus, e.g. 0-3,8 (the recording must sample the cpu)")
    String cpu;

    @Option(names = "--pid", paramLabel = "PID[,PID...]", description = "Only samples of these processes")
    String pid;

    @Option(names = "--tid", paramLabel = "TID[,TID...]", description = "Only samples of these threads")
    String tid;

    @Option(names = {"-c", "--comms", "--comm"}, paramLabel = "COMM[,COMM...]",
        description = "Only samples of threads of these names (their name when the sample was taken)")
    String comms;

    /**
     * @return the thread filter, after checking every value's syntax
     * @throws ParameterException (a usage error) for a value that cannot be read
     */
    ThreadFilter check() {
        if (time != null) {
            read("--time", () -> {
                SampleFilter.checkTime(time);
                return null;
            });
        }
        if (cpu != null) {
            read("--cpu", () -> CpuList.parse(cpu));
        }
        return new ThreadFilter(comms == null ? null : read("--comms", () -> ThreadFilter.names(raw(comms), "comm")),
            pid == null ? null : read("--pid", () -> ThreadFilter.numbers(pid, "pid")),
            tid == null ? null : read("--tid", () -> ThreadFilter.numbers(tid, "tid")));
    }

    /** @return what {@code parse} reads; its IllegalArgumentException becomes a usage error naming {@code option} */
    private <T> T read(String option, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), "Invalid value for option '" + option + "': "
                + e.getMessage());
        }
    }

    /**
     * @return the filters checked against {@code session}
     * @throws dev.dfx.error.BadInputException when the recording cannot be filtered so
     */
    SampleFilter bind(PerfSession session) {
        return bind(session, false);
    }

    /**
     * @param relativeTimes {@code --reltime}: the {@code --time} ranges count from the recording's first sample
     * @return the filters checked against {@code session}
     * @throws dev.dfx.error.BadInputException when the recording cannot be filtered so
     */
    SampleFilter bind(PerfSession session, boolean relativeTimes) {
        return SampleFilter.of(session, time, cpu, check(), relativeTimes);
    }

    /** @return {@code s} as the recording holds names: its UTF-8 bytes, one char per byte */
    static String raw(String s) {
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }
}
