package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.cli.PerfDataRegions.Kind;
import dev.dfx.cli.PerfDataRegions.Region;
import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Single-byte corruptions of every fixture: for each recording a seeded set of positions in the header, the
 * attrs and ids, the feature sections, record headers, record bodies and zstd payloads, each byte XORed with a
 * seeded non-zero value. {@code dfx script} (with the fields of the recording's script-F golden) and
 * {@code dfx dump} then either print exactly the golden output with exit 0 (the byte did not matter), or exit
 * non-zero with one line {@code dfx: FILE: ... byte offset N ...} (after any warnings), or exit 0 with warnings
 * {@code dfx: warning: FILE: byte offset N: ...} where dfx read past the damage as newer perf does (every record
 * still dumped, the script's lines all the golden's), or, where perf 6.1 itself accepts the damage (a tracepoint
 * format that cannot be parsed: its warning, and perf's {@code [FAILED TO PARSE]} lines),
 * print with exit 0 exactly what perf prints for the same corrupted file. That is checked by running perf where it
 * is installed, and elsewhere against {@code corruption-perf.tsv}: perf 6.1's exit status and the SHA-256 of its
 * stdout for each such corruption, written by this test on a machine with perf when run with
 * {@code -Ddfx.corruption.perfVerdicts=FILE} (and compared with the live perf whenever both are there).
 * Anything else (a shorter or different listing with exit 0, a crash, several error lines) fails.
 */
class CorruptionTest {
    private static final long DEFAULT_SEED = 0x5eed_dfL;
    private static final long SEED = Long.getLong("dfx.corruption.seed", DEFAULT_SEED);
    /** The perf to compare with ({@code -Ddfx.perf=...}; a path that does not exist acts as a machine without perf). */
    private static final String PERF = System.getProperty("dfx.perf", "perf");
    /** Where to write perf's verdicts for {@code corruption-perf.tsv} (appended), or {@code null}. */
    private static final String WRITE_VERDICTS = System.getProperty("dfx.corruption.perfVerdicts");
    /** perf's recorded verdicts, by {@link #key}. */
    private static final Map<String, Verdict> RECORDED = recordedVerdicts();
    private static final Map<Kind, Integer> POSITIONS_PER_KIND = new EnumMap<>(Map.of(
        Kind.HEADER, 3, Kind.ATTRS, 6, Kind.IDS, 2, Kind.FEATURES, 6, Kind.RECORD_HEADER, 12, Kind.RECORD_BODY, 12,
        Kind.COMPRESSED_PAYLOAD, 10, Kind.TRAILING, 4));

    private static final Pattern KERNEL_DSO =
        Pattern.compile("(?m)^ \\.\\.\\.\\.\\.\\. dso: (\\[[^\\]\n]*\\]|<not found>)$");

    @TempDir
    Path dir;

    /** @return (recording, golden, dfx script arguments): the first script-F golden of each recording */
    static Stream<Arguments> recordings() throws IOException {
        Map<String, Arguments> first = new LinkedHashMap<>();
        try (InputStream in = CorruptionTest.class.getResourceAsStream("/script-goldens.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] cols = line.split("\t");
                if (line.startsWith("#") || cols.length < 2 || !cols[0].contains(".script-F")) {
                    continue;
                }
                String recording = cols[0].substring(0, cols[0].indexOf(".script-F"));
                first.putIfAbsent(recording, Arguments.of(recording, cols[0], cols[1]));
            }
        }
        return first.values().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recordings")
    void eachCorruptionGivesTheGoldenOutputPerfsOutputOrOneErrorLineWithAnOffset(String recording, String golden,
                                                                              String scriptArgs) throws IOException {
        String data = recording + ".data";
        byte[] good = Files.readAllBytes(Fixtures.perf(data));
        Path file = dir.resolve(data);
        Files.write(file, good);
        Expected script = expected(read(golden), fixturePaths(scriptArgs.replace("-i " + data, "").trim().split(" ")),
            file, data);
        Expected dump = expected(read(recording + ".dump.txt"), null, file, data);
        List<String> problems = new ArrayList<>();
        int n = 0;
        for (int at : positions(good, new SplittableRandom(SEED ^ recording.hashCode()))) {
            byte[] bad = good.clone();
            int xor = 1 + new SplittableRandom(SEED + at).nextInt(255);
            bad[at] ^= (byte) xor;
            Files.write(file, bad);
            String what = String.format("byte 0x%x (0x%02x -> 0x%02x)", at, good[at] & 0xff, bad[at] & 0xff);
            check(script, file, data, what, key(recording, script, at, xor), problems);
            check(dump, file, data, what, key(recording, dump, at, xor), problems);
            n++;
        }
        assertThat(n).isGreaterThanOrEqualTo(24);
        assertThat(problems).as("%s: %d of %d corruptions", recording, problems.size(), 2 * n).isEmpty();
    }

    /**
     * @return the arguments with each one that names something beside the fixtures (a {@code --kallsyms} file, a
     *         {@code --symfs} folder) made its path, since dfx and perf run here in another folder
     */
    private static String[] fixturePaths(String[] args) {
        String[] out = args.clone();
        for (int i = 0; i < out.length; i++) {
            if (!out[i].isEmpty() && !out[i].startsWith("-") && Files.exists(Fixtures.perf(out[i]))) {
                out[i] = Fixtures.perf(out[i]).toString();
            }
        }
        return out;
    }

    /**
     * One command on the intact file: its golden stdout, its arguments besides {@code -i}, and what it writes to
     * stderr on the intact file (perf script's warnings about fields), which an error line may follow.
     */
    private record Expected(String command, String golden, String[] args, String stderr) {
        String[] argv(Path file) {
            List<String> argv = new ArrayList<>(List.of(command, "-i", file.toString()));
            if (args != null) {
                argv.addAll(List.of(args));
            }
            return argv.toArray(String[]::new);
        }
    }

    private static Expected expected(String golden, String[] args, Path intact, String data) {
        Expected e = new Expected(args == null ? "dump" : "script", golden, args, null);
        CliRun r = CliRun.dfx(e.argv(intact));
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out().replace("@" + intact + " [", "@" + data + " [")).isEqualTo(golden);
        return new Expected(e.command(), golden, args, r.err());
    }

    private void check(Expected e, Path file, String data, String what, String key, List<String> problems) {
        String command = e.command();
        CliRun r;
        try {
            r = CliRun.dfx(e.argv(file));
        } catch (RuntimeException | StackOverflowError ex) {
            problems.add(command + " " + what + ": crashed: " + ex);
            return;
        }
        String out = r.out().replace("@" + file + " [", "@" + data + " [");
        String placed = "dfx: " + Pattern.quote(file.toString()) + ": byte offset \\d+: [^\n]+\n";
        Pattern warnings = Pattern.compile("(dfx: warning: " + placed.substring(5) + ")*");
        String added = r.err().startsWith(e.stderr()) ? r.err().substring(e.stderr().length()) : null;
        if (r.status() == 0 && out.equals(e.golden())) {
            return;
        }
        if (r.status() != 0) {
            Pattern line = Pattern.compile(warnings.pattern() + placed);
            if (r.status() != 1 || added == null || !line.matcher(added).matches()) {
                problems.add(command + " " + what + ": exit " + r.status() + " without one error line with an"
                    + " offset after the warnings: " + r.err().substring(Math.min(e.stderr().length(),
                    r.err().length())).strip());
            }
            return;
        }
        if (added != null && !added.isEmpty() && warnings.matcher(added).matches()) {
            String readPast = readPast(e, out, file, added);
            if (readPast == null) {
                return;
            }
            if (!FAILED_FORMAT.matcher(added).find()) {
                problems.add(command + " " + what + ": exit 0 with a warning, but " + readPast + ": " + added.strip());
                return;
            }
            // a format that cannot be parsed is not read past: its samples print [FAILED TO PARSE] as perf's do, so
            // the output is perf's, checked below
        }
        String masked = hostMasked(out);
        Verdict live = perf(e, data);
        Verdict recorded = RECORDED.get(key);
        if (live != null && recorded != null && !live.equals(recorded)) {
            problems.add(command + " " + what + ": corruption-perf.tsv says perf gives " + recorded
                + ", perf now gives " + live + "; rewrite the file (-Ddfx.corruption.perfVerdicts)");
        }
        Verdict perf = live != null ? live : recorded;
        if (perf == null) {
            problems.add(command + " " + what + ": exit 0, output differs from the golden, and perf is neither"
                + " installed nor recorded for it in corruption-perf.tsv: " + firstDifference(e.golden(), out));
        } else if (!perf.equals(new Verdict(0, sha256(masked)))) {
            problems.add(command + " " + what + ": exit 0, output differs from the golden and from perf (" + perf
                + "): dfx vs golden " + firstDifference(e.golden(), out)
                + (perfOut == null ? "" : "; dfx vs perf " + firstDifference(hostMasked(perfOut), masked)));
        }
        if (live != null && WRITE_VERDICTS != null) {
            try {
                Files.writeString(Path.of(WRITE_VERDICTS), key + "\t" + live.status() + "\t" + live.sha256() + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
    }

    /** The warning of a tracepoint format that cannot be parsed ({@code [FAILED TO PARSE]} samples, as perf). */
    private static final Pattern FAILED_FORMAT = Pattern.compile("byte offset \\d+: the format of \\S+ here cannot be"
        + " parsed: ");

    /** The warning of a record skipped for its unknown type: where it is and its size. */
    private static final Pattern SKIPPED = Pattern.compile(
        "byte offset (\\d+): record type \\d+ (?:\\(perf: -?\\d+\\) )?is unknown \\(size (\\d+)\\)");

    /**
     * What a corrupted file that dfx read past with warnings (a record of an unknown type skipped, an event without
     * its format) must still give. A dump lists every record at the golden's offsets and sizes (in any order: a
     * skipped record is listed where it was read). A script with one record skipped prints what perf prints for the
     * file without that record (as perf since 6.9 skips it; the copy is made here and given to the installed perf;
     * without perf, the golden's lines less at most one); otherwise it prints only lines of the golden, in the
     * golden's order.
     *
     * @return what is wrong with {@code out}, or {@code null} when it passes
     */
    private String readPast(Expected e, String out, Path file, String warnings) {
        if (e.command().equals("dump")) {
            List<String> listed = recordHeaders(out);
            List<String> golden = recordHeaders(e.golden());
            listed.sort(null);
            golden.sort(null);
            return listed.equals(golden) ? null
                : "the dump does not list every record of the golden: " + firstDifference(String.join("\n", golden),
                String.join("\n", listed));
        }
        Matcher skipped = SKIPPED.matcher(warnings);
        if (skipped.find() && !warnings.contains(" in all)")) {
            byte[] without = withoutRecord(file, Integer.parseInt(skipped.group(1)),
                Integer.parseInt(skipped.group(2)));
            if (without != null) {
                try {
                    Files.write(dir.resolve("skipped.data"), without);
                } catch (IOException ex) {
                    throw new UncheckedIOException(ex);
                }
                Verdict perf = perf(e, "skipped.data");
                if (perf != null) {
                    return perf.status() == 0 && perfOut.equals(out) ? null : "perf on the file without the skipped"
                        + " record gives " + perf + ": " + firstDifference(perfOut, out);
                }
                long lines = out.lines().count();
                long golden = e.golden().lines().count();
                return lines == golden || lines == golden - 1 ? null : "it prints " + lines + " lines, the golden "
                    + golden;
            }
        }
        String[] golden = e.golden().split("\n", -1);
        int g = 0;
        for (String line : out.split("\n", -1)) {
            while (g < golden.length && !golden[g].equals(line)) {
                g++;
            }
            if (g == golden.length) {
                return "the script prints a line the golden does not have in that place: [" + line + "]";
            }
            g++;
        }
        return null;
    }

    /**
     * @return the perf.data {@code file} without the record of {@code size} bytes at byte {@code at} of its data
     *         (file mode: data.size and the feature table's section offsets moved; pipe mode: only cut), or
     *         {@code null} when no such record is there (it lies inside a COMPRESSED record)
     */
    private static byte[] withoutRecord(Path file, int at, int size) {
        byte[] b;
        try {
            b = Files.readAllBytes(file);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        if (at + size > b.length || (bb.getShort(at + 6) & 0xffff) != size) {
            return null;
        }
        byte[] out = new byte[b.length - size];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(b, at + size, out, at, b.length - at - size);
        ByteBuffer o = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        if (o.getLong(8) == 16) {
            return out; // pipe mode: records follow each other, nothing points at them
        }
        long dataOff = o.getLong(40);
        long dataSize = o.getLong(48);
        if (at < dataOff || at >= dataOff + dataSize) {
            return null;
        }
        o.putLong(48, dataSize - size);
        int table = (int) (dataOff + dataSize - size);
        int features = 0;
        for (int i = 0; i < 4; i++) {
            features += Long.bitCount(o.getLong(72 + 8 * i));
        }
        features -= (o.getLong(72) & 1) != 0 ? 1 : 0; // bit 0 (HEADER_RESERVED) has no section
        for (int i = 0; i < features && table + 16 * i + 8 <= out.length; i++) {
            o.putLong(table + 16 * i, o.getLong(table + 16 * i) - size);
        }
        return out;
    }

    private static final Pattern RECORD_HEADER =
        Pattern.compile("(?m)^(0x[0-9a-f]+@\\S+ \\[0x[0-9a-f]+\\]): event: -?\\d+$");

    /** @return a dump's record header lines without their types: where each record is and its size */
    private static List<String> recordHeaders(String dump) {
        List<String> out = new ArrayList<>();
        Matcher m = RECORD_HEADER.matcher(dump);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** perf's exit status and the SHA-256 of its host-masked stdout on one corrupted file. */
    private record Verdict(int status, String sha256) {
        @Override
        public String toString() {
            return "exit " + status + ", stdout sha256 " + sha256.substring(0, 12);
        }
    }

    /** The stdout of the last live perf run ({@link #perf}), for the message of a mismatch. */
    private String perfOut;

    private static String key(String recording, Expected e, int at, int xor) {
        return recording + "\t" + e.command() + "\t" + String.format("0x%x\t0x%02x", at, xor);
    }

    private static Map<String, Verdict> recordedVerdicts() {
        Map<String, Verdict> out = new HashMap<>();
        if (SEED != DEFAULT_SEED) {
            return out; // recorded for the default seed's corruptions only
        }
        try (InputStream in = CorruptionTest.class.getResourceAsStream("/corruption-perf.tsv")) {
            if (in == null) {
                return out;
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] c = line.split("\t");
                if (c.length == 6 && !line.startsWith("#")) {
                    out.put(String.join("\t", c[0], c[1], c[2], c[3]), new Verdict(Integer.parseInt(c[4]), c[5]));
                }
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return out;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.ISO_8859_1)));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** @return perf's verdict on the corrupted file, run in its folder as the goldens were made; null without perf */
    private Verdict perf(Expected e, String data) {
        perfOut = null;
        List<String> cmd = new ArrayList<>(List.of(PERF));
        if (e.command().equals("dump")) {
            cmd.addAll(List.of("report", "-D", "-i", data));
        } else {
            // --buildid-dir is an option of perf itself, before the command; dfx script takes it as its own
            List<String> args = new ArrayList<>(List.of(e.args()));
            int b = args.indexOf("--buildid-dir");
            if (b >= 0 && b + 1 < args.size()) {
                cmd.addAll(List.of(args.remove(b), args.remove(b)));
            }
            cmd.addAll(List.of("script", "-i", data));
            cmd.addAll(args);
        }
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("LC_ALL", "C");
            pb.environment().put("TZ", "UTC");
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            perfOut = new String(out, StandardCharsets.ISO_8859_1);
            return new Verdict(p.exitValue(), sha256(hostMasked(perfOut)));
        } catch (IOException ex) {
            return null;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * perf resolves kernel addresses against the kernel maps of the machine it runs on as well as the recording's
     * (machine__create_kernel_maps reads /proc/kallsyms and /proc/modules), so for an address a damaged byte moved
     * out of the recording's kernel map, its "dso:" answer ([kernel.kallsyms], a [module] or <not found>) is not a
     * function of the file; these lines are compared only as "some kernel map or none".
     */
    private static String hostMasked(String dump) {
        return KERNEL_DSO.matcher(dump).replaceAll(" ...... dso: <kernel map or none>");
    }

    /** @return seeded positions: a fixed number per kind of region, each drawn uniformly over that kind's bytes */
    static TreeSet<Integer> positions(byte[] file, SplittableRandom rnd) {
        TreeSet<Integer> out = new TreeSet<>();
        Map<Kind, List<Region>> byKind = new EnumMap<>(Kind.class);
        for (Region r : PerfDataRegions.of(file)) {
            byKind.computeIfAbsent(r.kind(), k -> new ArrayList<>()).add(r);
        }
        byKind.forEach((kind, regions) -> {
            long total = regions.stream().mapToLong(r -> r.end() - r.start()).sum();
            int want = (int) Math.min(POSITIONS_PER_KIND.get(kind), total);
            for (int added = 0; added < want; ) {
                long k = rnd.nextLong(total);
                for (Region r : regions) {
                    if (k < r.end() - r.start()) {
                        if (out.add((int) (r.start() + k))) {
                            added++;
                        }
                        break;
                    }
                    k -= r.end() - r.start();
                }
            }
        });
        return out;
    }

    private static String firstDifference(String expected, String actual) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.min(e.length, a.length); i++) {
            if (!e[i].equals(a[i])) {
                return "line " + (i + 1) + ": expected [" + e[i] + "] got [" + a[i] + "]";
            }
        }
        return e.length + " lines expected, " + a.length + " printed";
    }

    private static String read(String golden) throws IOException {
        return new String(Files.readAllBytes(Fixtures.perf(golden)), StandardCharsets.ISO_8859_1);
    }
}
