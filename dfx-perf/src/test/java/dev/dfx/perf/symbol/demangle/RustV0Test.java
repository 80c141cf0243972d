package dev.dfx.perf.symbol.demangle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rust v0 names as perf 6.1 prints them (libiberty's {@code rust_demangle}, which {@code c++filt -p -i} runs the same
 * way): the committed corpus ({@code testdata/demangle/rust-v0-names.txt}: the names of rustc-demangle's tests,
 * hand-written ones and generated ones, with what perf printed for each, checked live by {@link LiveNamesTest}),
 * seeded generated names against the installed {@code c++filt}, and the bounds.
 */
class RustV0Test {
    @ParameterizedTest
    @CsvSource(delimiter = '\t', value = {
        "_RNvCs1234_7mycrate4main\tmycrate::main",
        "_RNCNvCs1234_7mycrate4main0B3_\tmycrate::main::{closure#0}",
        "_RNvXCs1234_7mycrateNtB2_3FooNtNtCsabc_4core3fmt7Display3fmt\t<mycrate::Foo as core::fmt::Display>::fmt",
        "_RINvNtC3std3mem8align_ofjE\tstd::mem::align_of::<usize>",
        "_RINvC7mycrate3fooINtC5alloc3VechEE\tmycrate::foo::<alloc::Vec<u8>>",
        "_RINvCs1234_7mycrate3fooKln1_E\tmycrate::foo::<-1>",
        "_RINvCs1234_7mycrate3fooKo123456789abcdef0123_E\tmycrate::foo::<0x23456789abcdef0123_>",
        "_RNSNvCs1234_7mycrate3foo6vtable\tmycrate::foo::{shim:vtable#0}",
        "_RINvC7mycrate3fooFG0_RL1_hRL0_tEhE\tmycrate::foo::<for<'a, 'b> fn(&'a u8, &'b u16) -> u8>",
        "_RNvC7mycrateu1c\tmycrate::",
        "_RNvCs1234_7mycrate4main.llvm.1234567\tmycrate::main",
        "_RINvC7mycrate3fooKe616263_E\t_RINvC7mycrate3fooKe616263_E",
    })
    void namesPrintAsPerf(String mangled, String perf) {
        assertThat(Demangler.demangleOrSelf(mangled)).isEqualTo(perf);
    }

    @Test
    void punycodeIsDecodedToUtf8Bytes() {
        // one character per byte, as symbol names are read: U+26D3 is E2 9B 93
        assertThat(Demangler.demangle("_RNvC7mycrateu8_gdr_mb6a")).isEqualTo("mycrate::gdr\u00e2\u009b\u0093");
    }

    @Test
    void corpusMatchesWhatPerfPrinted() throws IOException {
        assertThat(Corpora.differingFromPerf("rust-v0-names", 200)).isEmpty();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void generatedNamesAgreeWithTheInstalledCxxfilt(long seed) throws Exception {
        try {
            CPrograms.cxxCompiler(); // g++ brings binutils, and with it c++filt
        } catch (IOException e) {
            assumeTrue(false, "no C++ toolchain (and so no c++filt) can be had here: " + e.getMessage());
        }
        V0Names gen = new V0Names(seed);
        List<String> names = new ArrayList<>();
        while (names.size() < 3000) {
            String n = gen.next();
            // past dfx's bounds libiberty may print megabytes or loop for ever: those are dfx's own choice
            if (!RustV0.exceedsBounds(n)) {
                names.add(n);
            }
        }
        Path in = Files.createTempFile("v0-names", ".txt");
        try {
            Files.write(in, names, StandardCharsets.ISO_8859_1);
            // bounded, as a name beyond what the filter above foresees could still make libiberty grow without end
            Process p = new ProcessBuilder("bash", "-c", "ulimit -v 2000000; exec timeout 120 c++filt -p -i < \"$0\"",
                in.toString()).redirectErrorStream(true).start();
            List<String> live = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1).lines()
                .toList();
            assertThat(p.waitFor()).isZero();
            assertThat(live).hasSameSizeAs(names);
            List<String> wrong = new ArrayList<>();
            int demangled = 0;
            for (int i = 0; i < names.size(); i++) {
                String ours = Demangler.demangleOrSelf(names.get(i));
                if (!ours.equals(live.get(i))) {
                    wrong.add(names.get(i) + " -> " + ours + " (c++filt: " + live.get(i) + ")");
                }
                demangled += live.get(i).equals(names.get(i)) ? 0 : 1;
            }
            assertThat(wrong).isEmpty();
            assertThat(demangled).as("names c++filt demangles").isGreaterThan(1000);
        } finally {
            Files.delete(in);
        }
    }

    /**
     * Seeded mutations (deleted, inserted, replaced and duplicated characters, bytes past ASCII among them) of the v0
     * corpus and of the names for perf's own demanglers: each gives a name or null, never a throw.
     */
    @Test
    void mutatedNamesNeverThrow() throws IOException {
        List<String> seeds = new ArrayList<>(Corpora.read("rust-v0-names.txt"));
        seeds.addAll(Corpora.read("perf-passes-names.txt"));
        String alphabet = "_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$.;/()[\u00c0\u00ff";
        SplittableRandom rnd = new SplittableRandom(20261202L);
        int demangled = 0;
        for (int i = 0; i < 50_000; i++) {
            StringBuilder b = new StringBuilder(seeds.get(rnd.nextInt(seeds.size())));
            for (int e = 1 + rnd.nextInt(4); e > 0 && !b.isEmpty(); e--) {
                int at = rnd.nextInt(b.length());
                switch (rnd.nextInt(4)) {
                    case 0 -> b.deleteCharAt(at);
                    case 1 -> b.insert(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
                    case 2 -> b.setCharAt(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
                    default -> b.insert(rnd.nextInt(b.length()), b.substring(at, Math.min(b.length(), at + 20)));
                }
            }
            demangled += Demangler.demangle(b.toString()) != null ? 1 : 0;
        }
        assertThat(demangled).as("mutations that still demangle").isGreaterThan(4_000);
    }

    @Test
    void recursionStopsAtLibibertysLimit() {
        // 1,024 nested paths are libiberty's limit: one more and the name fails
        String ok = "_R" + "Nv".repeat(1023) + "C1a" + "1b".repeat(1023);
        String deep = "_R" + "Nv".repeat(1024) + "C1a" + "1b".repeat(1024);
        assertThat(Demangler.demangle(ok)).startsWith("a::b::b::");
        assertThat(Demangler.demangle(deep)).isNull();
        assertThat(RustV0.exceedsBounds(deep)).isFalse();
    }

    @Test
    void outputThatGrowsPastTheCapGivesUpQuickly() {
        String eightLevels = doubling(8); // 2^8 copies of u8 in the last argument: within the cap
        assertThat(Demangler.demangle(eightLevels)).startsWith("a::f::<u8, (u8, u8), ((u8, u8), (u8, u8)),")
            .hasSizeLessThan(Node.Out.MAX);
        String fortyLevels = doubling(40); // 2^40 copies for libiberty
        assertThat(Demangler.demangle(fortyLevels)).isNull();
        assertThat(RustV0.exceedsBounds(fortyLevels)).isTrue();
        String binder = "_RMC0FGZZZ_Eu"; // 2^17 bound lifetimes, all printed by libiberty
        assertThat(Demangler.demangle(binder)).isNull();
        assertThat(RustV0.exceedsBounds(binder)).isTrue();
    }

    /** Generic arguments {@code u8}, then each a 2-tuple of two back-references to the argument before it. */
    private static String doubling(int levels) {
        StringBuilder b = new StringBuilder("_RINvC1a1f");
        int previous = b.length() - 2; // back-references count from after _R
        b.append('h');
        for (int i = 0; i < levels; i++) {
            int start = b.length() - 2;
            String ref = "B" + base62(previous);
            b.append('T').append(ref).append(ref).append('E');
            previous = start;
        }
        return b.append('E').toString();
    }

    private static String base62(int v) {
        if (v == 0) {
            return "_";
        }
        String digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        StringBuilder d = new StringBuilder();
        for (int x = v - 1; ; x /= 62) {
            d.append(digits.charAt(x % 62));
            if (x < 62) {
                break;
            }
        }
        return d.reverse() + "_";
    }
}
