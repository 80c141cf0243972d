package dev.dfx.perf.text;

/** perf's timestamp texts ({@code util/time-utils.c timestamp__scnprintf_usec}, {@code perf script --ns}). Stateless. */
public final class PerfTime {
    private PerfTime() {
    }

    /** @return {@code "SECS.USECS"} with six truncated sub-second digits; {@code t} is unsigned ns */
    public static String usec(long t) {
        long secs = Long.divideUnsigned(t, 1_000_000_000L);
        long usecs = Long.remainderUnsigned(t, 1_000_000_000L) / 1000;
        return secs + "." + pad(usecs, 6);
    }

    /** @return {@code "%5lu.%09llu"} */
    public static String nsec(long t) {
        long secs = Long.divideUnsigned(t, 1_000_000_000L);
        long nsecs = Long.remainderUnsigned(t, 1_000_000_000L);
        String s = Long.toString(secs);
        StringBuilder sb = new StringBuilder();
        for (int i = s.length(); i < 5; i++) {
            sb.append(' ');
        }
        return sb.append(s).append('.').append(pad(nsecs, 9)).toString();
    }

    /** Writes {@code "%Ns"} of {@link #usec(long)} without allocating. */
    public static void usec(long t, int width, TextSink out) {
        // a signed division by a constant is a multiplication; the unsigned one only for the top half
        long secs = t >= 0 ? t / 1_000_000_000L : Long.divideUnsigned(t, 1_000_000_000L);
        long usecs = (t - secs * 1_000_000_000L) / 1000;
        out.dec(secs, width - 7).put('.').decZero(usecs, 6);
    }

    /** Writes {@link #nsec(long)} without allocating. */
    public static void nsec(long t, TextSink out) {
        long secs = Long.divideUnsigned(t, 1_000_000_000L);
        long nsecs = Long.remainderUnsigned(t, 1_000_000_000L);
        out.dec(secs, 5).put('.').decZero(nsecs, 9);
    }

    private static String pad(long v, int digits) {
        String s = Long.toString(v);
        return "0".repeat(Math.max(0, digits - s.length())) + s;
    }
}
