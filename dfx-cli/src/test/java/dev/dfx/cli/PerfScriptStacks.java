package dev.dfx.cli;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the samples and callchains out of {@code perf script}'s default text, as stackcollapse-perf.pl does (its
 * event-start and stack-line patterns): the thread name and tid of each sample, its event, and its frames as
 * {@code SYMBOL (DSO)}, offsets stripped. Names, perf's bytes, are decoded here as UTF-8 keeping the longest valid
 * prefix (a name the kernel cut mid-character), as dfx documents for its exports. Test helper; stateless.
 */
final class PerfScriptStacks {
    /** A frame as perf script prints it: the symbol ({@code [unknown]} when unknown) and the DSO. */
    record Frame(String func, String mod) {
        /** @return the name flame-graph tools give it: the symbol, else {@code [DSO base name]} or {@code [unknown]} */
        String name() {
            if (!func.equals("[unknown]")) {
                return func;
            }
            return mod.equals("[unknown]") ? "[unknown]" : "[" + mod.substring(mod.lastIndexOf('/') + 1) + "]";
        }
    }

    /** One sample: its thread, event and frames, outermost first. */
    record Stack(String comm, int tid, String event, List<Frame> frames) {
    }

    private static final Pattern START = Pattern.compile("^(\\S+\\s*?\\S*?)\\s+(\\d+)\\s+[\\d.]+:\\s+\\d+\\s+(\\S+):");
    private static final Pattern FRAME = Pattern.compile("^\\s*(\\w+)\\s*(.+) \\((\\S*)\\)$");
    private static final Pattern OFFSET = Pattern.compile("\\+0x[\\da-f]+$");

    private PerfScriptStacks() {
    }

    /** @param script perf script's output, bytes held one char per byte */
    static List<Stack> parse(String script) throws CharacterCodingException {
        List<Stack> out = new ArrayList<>();
        String comm = null;
        int tid = 0;
        String event = null;
        List<Frame> frames = new ArrayList<>();
        for (String line : (script + "\n").split("\n", -1)) {
            Matcher start = START.matcher(line);
            Matcher frame = FRAME.matcher(line);
            if (line.isEmpty()) {
                if (comm != null) {
                    out.add(new Stack(comm, tid, event, List.copyOf(frames.reversed())));
                }
                comm = null;
                frames.clear();
            } else if (start.find()) {
                comm = validPrefix(start.group(1));
                tid = Integer.parseInt(start.group(2));
                event = start.group(3);
            } else if (frame.find()) {
                String func = OFFSET.matcher(frame.group(2)).replaceFirst("");
                frames.add(new Frame(validPrefix(func), validPrefix(frame.group(3))));
            } else {
                throw new IllegalArgumentException("unrecognized perf script line: " + line);
            }
        }
        return out;
    }

    /** @return the longest prefix of {@code held}'s bytes that is valid UTF-8, decoded */
    static String validPrefix(String held) throws CharacterCodingException {
        byte[] bytes = held.getBytes(StandardCharsets.ISO_8859_1);
        for (int n = bytes.length; ; n--) {
            try {
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Arrays.copyOf(bytes, n))).toString();
            } catch (CharacterCodingException e) {
                if (n == 0) {
                    throw e;
                }
            }
        }
    }
}
