package dev.dfx.program;

/** Linux signal numbers and names (x86-64 and aarch64 share them for 1..31), for messages. Stateless. */
public final class Signals {
    /** SIGHUP. */
    public static final int SIGHUP = 1;
    /** SIGINT. */
    public static final int SIGINT = 2;
    /** SIGKILL. */
    public static final int SIGKILL = 9;
    /** SIGTERM. */
    public static final int SIGTERM = 15;

    private static final String[] NAMES = {null, "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL",
        "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU",
        "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"};

    private Signals() {
    }

    /** @return {@code SIGINT} for 2; {@code signal N} for a number without a name here */
    public static String name(int number) {
        return number > 0 && number < NAMES.length ? "SIG" + NAMES[number] : "signal " + number;
    }
}
