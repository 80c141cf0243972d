package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.Goldens;
import dev.dfx.perf.LivePerf;
import dev.dfx.perf.symbol.elf.ElfFile;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Symbols that overlap, as the real perf resolves them: overlap.c's functions each hold a global assembler label
 * (size 0, so perf stretches it to the next symbol, over the rest of its function), and its PLT entries lie under
 * {@code _init}, which perf stretches over {@code .plt} before it adds the {@code name@plt} symbols. perf's answer
 * is the first holder its red-black tree's search meets: the label for some functions, the function for others,
 * {@code _init} for the PLT. {@code dfx script} must print the same bytes as {@code perf script}, and the recording
 * must show each of the three outcomes (else it proves nothing). Skipped, with the reason, where perf is missing or
 * may not record.
 */
class LiveOverlapTest {
    private static final Pattern SPIN = Pattern.compile(" spin_(\\d)\\+0x([0-9a-f]+) \\(");

    @TempDir
    static Path dir;
    private static Path data;
    private static Path emptyCache;

    @BeforeAll
    static void buildAndRecord() throws IOException {
        LivePerf.assumeRecords(dir);
        String cc = CPrograms.compiler();
        Path src = Path.of("src/test/c").toAbsolutePath();
        CPrograms.run(dir, List.of(cc, "-O2", "-fPIC", "-shared", "-o", "liboverlib.so",
            src.resolve("overlib.c").toString()));
        CPrograms.run(dir, List.of(cc, "-O2", "-o", "overlap", src.resolve("overlap.c").toString(), "-L.",
            "-loverlib", "-Wl,-rpath,$ORIGIN"));
        emptyCache = Files.createDirectories(dir.resolve("empty-buildid-cache"));
        data = dir.resolve("overlap.data");
        LivePerf rec = LivePerf.run(dir, "record", "-N", "-q", "-e", "cpu-clock", "-F", "20000", "-g", "-o",
            "overlap.data", "--", "./overlap", "500");
        assertThat(rec).isNotNull();
        assertThat(rec.status()).as("perf record").isZero();
    }

    @ParameterizedTest(name = "perf script {0}")
    @ValueSource(strings = {"-F ip,sym,symoff,dso", ""})
    void overlappingSymbolsResolveAsPerfResolvesThem(String fields) throws IOException {
        List<String> args = new ArrayList<>(List.of("--buildid-dir", emptyCache.toString(), "script"));
        if (!fields.isEmpty()) {
            args.addAll(List.of(fields.split(" ")));
        }
        args.addAll(List.of("-i", data.getFileName().toString()));
        LivePerf perf = LivePerf.run(dir, args.toArray(String[]::new));
        assertThat(perf).isNotNull();
        assertThat(perf.status()).as("perf script status").isZero();
        String ours = Goldens.script(data, data.getFileName().toString(),
            fields.isEmpty() ? null : fields.substring(3), SymbolOptions.defaults().withBuildIdDir(emptyCache));
        Goldens.assertSame("overlap " + fields, perf.out(), ours);

        assertThat(perf.out()).as("a PLT entry perf names by the stretched _init").containsPattern(
            " _init\\+0x[0-9a-f]+ \\(/\\S*/overlap\\)");
        assertThat(perf.out()).as("a label perf names").containsPattern(" label_\\d\\+0x[0-9a-f]+ \\(");
        assertThat(pastLabel(perf.out())).as("a function perf names past the label inside it").isPositive();
    }

    /** @return how many lines name a function {@code spin_N} at an offset at or past its label {@code label_N} */
    private static int pastLabel(String text) {
        Map<String, Long> values = new HashMap<>();
        ElfFile elf = ElfFile.open(dir.resolve("overlap"));
        elf.forEachSymbol(elf.section(".symtab"), (i, name, value, size, info, other, shndx) -> values.put(name,
            value));
        int n = 0;
        Matcher m = SPIN.matcher(text);
        while (m.find()) {
            long labelOffset = values.get("label_" + m.group(1)) - values.get("spin_" + m.group(1));
            if (Long.parseLong(m.group(2), 16) >= labelOffset) {
                n++;
            }
        }
        return n;
    }
}
