package dev.dfx.perf.symbol.demangle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What perf 6.1 does beyond libiberty: its Rust pass over the Itanium demangler's output, its OCaml and Java
 * demanglers, and libiberty's old global constructor names, against {@code testdata/demangle/perf-passes-names.txt}
 * and what perf printed for each (checked live by {@link LiveNamesTest}), and a table whose expected values follow
 * from perf's source (tools/perf/util/demangle-rust.c, demangle-ocaml.c, demangle-java.c).
 */
class PerfPassesTest {
    @ParameterizedTest
    @CsvSource(delimiter = '\t', quoteCharacter = '\u0000', value = {
        // the Rust pass: a hash of 5 to 15 distinct digits is cut, perf's escapes decoded, '.' is '-'
        "_ZN3std2rt10lang_start17h5a3f9c1e7d2b4a60Ev\tstd::rt::lang_start",
        "_ZN3foo3bar17h0123456789abcdeeEv\tfoo::bar",
        "_ZN3foo3bar17h0123456789abcdefEv\tfoo::bar::h0123456789abcdef",
        "_ZN3foo7bar.baz17h0123456789abcdeeEv\tfoo::bar-baz",
        "_ZN3foo6_$SP$x17h0123456789abcdeeEv\tfoo::@x",
        "_ZN3foo5a...b17h0123456789abcdeeEv\tfoo::a...b::h0123456789abcdee",
        // OCaml
        "camlStdlib__array__map_154\tStdlib.array.map_154",
        "camlFoo$2b$2b_1\tFoo++_1",
        "camlFoo$00bar\tFoo",
        "camlfoo__bar\tcamlfoo__bar",
        // Java, without the return type
        "Ljava/lang/String;hashCode()I\tjava.lang.String.hashCode()",
        "Lcom/example/Main;run([[Ljava/lang/String;[[[D)[I\tcom.example.Main.run(java.lang.String, double[][][][][])",
        "La;b(SCFDBJ)V\ta.b(short, char, float, double, byte, l",
        "La/b(I)V\tLa/b(I)V",
        // old global constructors
        "_GLOBAL__I__Z1fv\tglobal constructors keyed to f()",
        "_GLOBAL__D_x\tglobal destructors keyed to x",
        "_GLOBAL__sub_I_main.cpp\t_GLOBAL__sub_I_main.cpp",
    })
    void namesPrintAsPerf(String mangled, String perf) {
        assertThat(Demangler.demangleOrSelf(mangled)).isEqualTo(perf);
    }

    @Test
    void latin1CapitalsAreOcamlCapitalsAndLatin1LettersJavaLetters() {
        assertThat(Demangler.demangleOrSelf("caml\u00c0x__y")).isEqualTo("\u00c0x.y");
        assertThat(Demangler.demangleOrSelf("caml\u00d7x")).isEqualTo("caml\u00d7x"); // the multiplication sign
        assertThat(Demangler.demangleOrSelf("La;\u00e9b()V")).isEqualTo("a.\u00e9b()");
        assertThat(Demangler.demangleOrSelf("La;\u00f7b()V")).isEqualTo("a\u00f7b()"); // the division sign
    }

    @Test
    void corpusMatchesWhatPerfPrinted() throws IOException {
        assertThat(Corpora.differingFromPerf("perf-passes-names", 70)).isEmpty();
    }
}
