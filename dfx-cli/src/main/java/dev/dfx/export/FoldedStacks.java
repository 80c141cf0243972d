package dev.dfx.export;

import dev.dfx.perf.profile.ProfileFrame;
import dev.dfx.perf.profile.ProfileSample;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.text.Utf8Names;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Brendan Gregg's collapsed ("folded") stacks, what {@code perf script | stackcollapse-perf.pl} prints and
 * {@code flamegraph.pl}, speedscope and inferno read: one line per distinct stack,
 * {@code comm;outermost;...;innermost COUNT}, COUNT the number of samples, lines sorted by their UTF-8 bytes.
 * Following stackcollapse-perf.pl: only the samples of one event are counted, by default the first that has samples;
 * the name is the thread's at the sample, spaces replaced by {@code _}; a frame is its symbol's name without
 * offset, {@code [DSO base name]} where the symbol is unknown, {@code [unknown]} outside any mapping; names are
 * tidied ({@code ;} becomes {@code :}, quotes are dropped, and so is everything from the first {@code (}, except in a
 * Go method name such as {@code net/http.(*Client).Do}); for a thread named {@code java} a leading {@code L} of a
 * name with a {@code /} is dropped. Unlike stackcollapse-perf.pl, a sample without a callchain counts its own
 * address as its one frame (stackcollapse-perf.pl would count the bare name). Names are decoded as UTF-8
 * ({@link Utf8Names}). Holds the counts until {@link #write}; not thread-safe.
 */
public final class FoldedStacks {
    /** A Go method name, whose parentheses stay ({@code net/http.(*Client).Do}); compiled once, not per frame. */
    private static final Pattern GO_METHOD = Pattern.compile("(?s).*\\.\\(.*\\)\\..*");
    private final Map<String, Long> counts = new HashMap<>();
    private final String eventName;
    private Evsel event;
    private long skipped;

    /**
     * @param eventName the name of the event to count ({@code perf script}'s, as stackcollapse-perf.pl's
     *                  {@code --event-filter}), or null for the first event seen with samples
     */
    public FoldedStacks(String eventName) {
        this.eventName = eventName;
    }

    /** Counts {@code s} when it is of the event counted: the one named, else the first seen with samples. */
    public void add(ProfileSample s) {
        if (event == null && (eventName == null || eventName.equals(s.evsel().name()))) {
            event = s.evsel();
        } else if (event != s.evsel()) {
            skipped++;
            return;
        }
        String comm = Utf8Names.decodeComm(s.comm()).replace(' ', '_');
        StringBuilder line = new StringBuilder(comm);
        List<ProfileFrame> stack = s.stack();
        for (int i = stack.size() - 1; i >= 0; i--) {
            line.append(';').append(frameName(stack.get(i), comm));
        }
        counts.merge(line.toString(), 1L, Long::sum);
    }

    /** @return the event counted, or null before the first sample */
    public Evsel event() {
        return event;
    }

    /** @return samples of other events, left out */
    public long skipped() {
        return skipped;
    }

    /** @return distinct stacks so far */
    public int size() {
        return counts.size();
    }

    /** Writes the lines, sorted by their stacks' UTF-8 bytes (as Perl's {@code sort} orders the byte strings). */
    public void write(OutputStream out) throws IOException {
        byte[][] stacks = new byte[counts.size()][];
        int i = 0;
        for (String stack : counts.keySet()) {
            stacks[i++] = stack.getBytes(StandardCharsets.UTF_8);
        }
        Arrays.sort(stacks, Arrays::compareUnsigned);
        for (byte[] stack : stacks) {
            out.write(stack);
            out.write((" " + counts.get(new String(stack, StandardCharsets.UTF_8)) + "\n")
                .getBytes(StandardCharsets.US_ASCII));
        }
    }

    /** @return the frame's name as stackcollapse-perf.pl writes it */
    static String frameName(ProfileFrame f, String comm) {
        String name = tidy(FrameNames.of(f));
        if (comm.equals("java") && name.contains("/") && name.startsWith("L")) {
            name = name.substring(1);
        }
        return name;
    }

    private static String tidy(String func) {
        String f = func.replace(';', ':');
        if (!GO_METHOD.matcher(f).matches()) {
            int paren = f.indexOf('(');
            if (paren >= 0) {
                f = f.substring(0, paren);
            }
        }
        return f.replace("\"", "").replace("'", "");
    }
}
