package dev.dfx.cli;

import dev.dfx.perf.data.Endian;
import dev.dfx.perf.text.TextSink;

/**
 * Builds, on a background thread, what a command's first reads of perf.data would otherwise build on its main thread:
 * the var handles of the reader's value layouts and the method-handle classes the JVM spins for them ({@link
 * Endian#prepareReads()}). In a fresh JVM that is some 5-10 ms, which no AOT cache keeps; started before the command
 * line is parsed, it runs while the main thread builds and parses the command tree, on the machine's other CPU. A
 * main thread that gets to a read first waits for the class initialisation under way, no longer than it would have
 * taken itself. Only for the commands that read perf.data or a run directory ({@code script}, {@code dump}, {@code
 * report}, {@code export}); the thread is a daemon and holds no lock the command needs after it ends.
 */
final class ReadPreparation {
    private ReadPreparation() {
    }

    /**
     * Starts the preparation when {@code args} names a command that reads recorded data.
     *
     * @param args the command line after {@code dfx}
     */
    static void startFor(String[] args) {
        if (args.length == 0) {
            return;
        }
        switch (args[0]) {
            case "script", "dump", "report", "export" -> {
                Thread t = new Thread(ReadPreparation::prepare, "dfx-prepare-reads");
                t.setDaemon(true);
                t.start();
            }
            default -> {
            }
        }
    }

    private static void prepare() {
        try {
            Endian.prepareReads();
            TextSink.prepareReads();
        } catch (RuntimeException e) {
            // the command's own first read meets the same failure and reports it where it belongs
        }
    }
}
