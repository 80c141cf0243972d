package dev.dfx.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A finished command: exit status, stdout, stderr. Test helper for running dfx in-process and perf as a process. */
record CliRun(int status, String out, String err) {

    /** Runs {@code dfx ARGS} in this JVM. */
    static CliRun dfx(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new CliRun(status, out.toString(), err.toString());
    }

    /** Runs {@code perf ARGS}; null when perf cannot be started. */
    static CliRun perf(String... args) {
        List<String> cmd = new ArrayList<>(List.of("perf"));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            byte[] err = p.getErrorStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return new CliRun(p.exitValue(), "", new String(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** @return whether {@code perf stat} works here (installed, and allowed to count task-clock) */
    static boolean perfWorks() {
        CliRun r = perf("stat", "-x,", "-e", "task-clock", "--", "true");
        return r != null && r.status() == 0 && r.err().contains("task-clock");
    }
}
