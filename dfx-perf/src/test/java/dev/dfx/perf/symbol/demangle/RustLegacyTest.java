package dev.dfx.perf.symbol.demangle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Rust's legacy names as perf 6.1 prints them (libiberty's Rust demangler, which {@code c++filt -p -i} runs the
 * same way): a table whose expected text {@code c++filt -p -i} (binutils 2.40) printed, and seeded generated names
 * against the installed {@code c++filt} (libiberty's part, {@link Demangler#cplusDemangle}; perf's own Rust pass
 * after it is {@link PerfPassesTest}'s).
 */
class RustLegacyTest {
    @ParameterizedTest
    @CsvSource(delimiter = '\t', quoteCharacter = '"', value = {
        "_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h0123456789abcdefE\tstd::rt::lang_start::{{closure}}",
        "_ZN3std3sys4unix4args3imp15ARGV_INIT_ARRAY12init_wrapper17ha908abdb2de4bfe6E\t"
            + "std::sys::unix::args::imp::ARGV_INIT_ARRAY::init_wrapper",
        "_ZN4core3ptr13drop_in_place17haaaaaaaaaaaaaaaaE\tcore::ptr::drop_in_place::haaaaaaaaaaaaaaaa",
        "_ZN3foo7bar.baz17h0123456789abcdefE\tfoo::bar.baz",
        "_ZN3foo5a$C$b17h0123456789abcdefE\tfoo::a,b",
        "_ZN3foo8$u2603$x17h0123456789abcdefE\tfoo::$u2603$x",
        "_ZN3foo3bar17h0123aaaaaaaaaaaaE\tfoo::bar",
        "_ZN3foo3bar17h0123456789abcdefE.llvm.1234\tfoo::bar",
        "_ZN3foo3bar17h0123456789ABCDEFE\tfoo::bar::h0123456789ABCDEF",
        "_ZN3foo4$RF$x17h0123456789abcdefE\t_ZN3foo4$RF$x17h0123456789abcdefE",
        "_ZN03foo17h0123456789abcdefE\tfoo::h0123456789abcdef",
        "_ZN3foo010abcdefghij17h0123456789abcdefE\tfoo::abcdefghij::h0123456789abcdef",
        "_ZN3foo17h0123456789abcdefE.cold.1\tfoo",
        "_ZN3a:b17h0123456789abcdefE\ta:b",
        "_ZN5a...b17h0123456789abcdefE\ta::.b",
        "_ZN18446744073709551619foo17h0123456789abcdefE\tfoo",
        "_ZN18446744073709551615foo17h0123456789abcdefE\t_ZN18446744073709551615foo17h0123456789abcdefE",
    })
    void legacyNamesPrintAsPerf(String mangled, String perf) {
        assertThat(Demangler.demangleOrSelf(mangled)).isEqualTo(perf);
    }

    @Test
    void generatedNamesAgreeWithTheInstalledCxxfilt() throws Exception {
        try {
            CPrograms.cxxCompiler(); // g++ brings binutils, and with it c++filt
        } catch (IOException e) {
            assumeTrue(false, "no C++ toolchain (and so no c++filt) can be had here: " + e.getMessage());
        }
        SplittableRandom rnd = new SplittableRandom(20261202L);
        String[] pieces = {"foo", "Bar", "_", "x1", "$C$", "$SP$", "$BP$", "$RF$", "$LT$", "$GT$", "$LP$", "$RP$",
            "$u20$", "$u27$", "$u5b$", "$u5d$", "$u7e$", "$u7b$", "$u7d$", "$u3b$", "$u2603$", "$u1f$", "$u80$",
            "$uzz$", "$XY$", "$", "..", ".", "...", "_$LT$", "@", ":"};
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            StringBuilder b = new StringBuilder("_ZN");
            int idents = 1 + rnd.nextInt(5);
            for (int k = 0; k < idents; k++) {
                StringBuilder id = new StringBuilder();
                int parts = rnd.nextInt(4);
                for (int p = 0; p < parts; p++) {
                    id.append(pieces[rnd.nextInt(pieces.length)]);
                }
                int len = id.length() + (rnd.nextInt(20) == 0 ? rnd.nextInt(-2, 3) : 0);
                b.append(rnd.nextInt(30) == 0 ? "0" : "").append(Math.max(0, len)).append(id);
            }
            StringBuilder hash = new StringBuilder("h");
            int digits = 1 + rnd.nextInt(16);
            for (int d = 0; d < 16; d++) {
                hash.append("0123456789abcdefA".charAt(rnd.nextInt(rnd.nextInt(40) == 0 ? 17 : digits)));
            }
            b.append(rnd.nextInt(20) == 0 ? "16" : "17").append(hash).append('E');
            if (rnd.nextInt(8) == 0) {
                b.append(rnd.nextBoolean() ? ".llvm.12345" : "E.cold");
            }
            names.add(b.toString());
        }
        // names as arguments: read from stdin, c++filt would cut them at ':' and '@', which are not symbol bytes
        List<String> cmd = new ArrayList<>(List.of("c++filt", "-p", "-i"));
        cmd.addAll(names);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> live = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(p.waitFor()).isZero();
        assertThat(live).hasSameSizeAs(names);
        List<String> wrong = new ArrayList<>();
        int demangled = 0;
        for (int i = 0; i < names.size(); i++) {
            String ours = Demangler.cplusDemangle(names.get(i));
            ours = ours == null ? names.get(i) : ours;
            if (!ours.equals(live.get(i))) {
                wrong.add(names.get(i) + " -> " + ours + " (c++filt: " + live.get(i) + ")");
            }
            demangled += live.get(i).equals(names.get(i)) ? 0 : 1;
        }
        assertThat(wrong).isEmpty();
        assertThat(demangled).as("most generated names are Rust names c++filt demangles").isGreaterThan(1000);
    }
}
