package dev.dfx.perf.symbol.demangle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.testing.Fixtures;
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

/**
 * {@link Demangler} against libiberty as perf 6.1 uses it ({@code c++filt -p -i} prints the same): a table of
 * hand-picked names whose expected text was printed by {@code c++filt -p -i} (binutils 2.40), every C++ name of
 * libstdc++'s dynamic symbol table against the committed {@code c++filt} output, the table again against a live
 * {@code c++filt} where one is installed, and seeded mutations that must end without an exception.
 */
class DemanglerTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
        _ZN16IndexSetIterator16advance_and_nextEv|IndexSetIterator::advance_and_next
        _ZZ4mainE1x|main::x
        _ZThn16_NSdD1Ev|non-virtual thunk to std::basic_iostream<char, std::char_traits<char> >::~basic_iostream()
        _ZNSsC1ERKSs|std::basic_string<char, std::char_traits<char>, std::allocator<char> >::basic_string
        _ZN2ns4Iter16advance_and_nextEv.cold|ns::Iter::advance_and_next
        _ZNKSt6vectorIiSaIiEE4sizeEv.isra.0|std::vector<int, std::allocator<int> >::size
        _ZNK2ns3BoxIdE3getEi.constprop.0|ns::Box<double>::get
        _ZSt4cout|std::cout
        _ZN9__gnu_cxx13new_allocatorIcE8allocateEmPKv|__gnu_cxx::new_allocator<char>::allocate
        _Z3fooIiEvT_|foo<int>
        _ZlsRSoRKSs|operator<<
        _ZN1AcviEv|A::operator int
        _ZN1AltIiEEvT_|A::operator< <int>
        _ZZN1A1fEvENKUlvE_clEv|A::f()::{lambda()#1}::operator()
        _ZGVZ4mainE1x|guard variable for main::x
        _ZTVN10__cxxabiv117__class_type_infoE|vtable for __cxxabiv1::__class_type_info
        _ZN1A1fIFvPFiiEEEEvv|A::f<void (int (*)(int))>
        _ZN1A1fIPA5_iEEvv|A::f<int (*) [5]>
        _ZN1A1fIM1BFviEEEvv|A::f<void (B::*)(int)>
        _ZN1A1fIM1BKFviEEEvv|A::f<void (B::*)(int) const>
        _ZN1A1fIM1BiEEvv|A::f<int B::*>
        _ZN1A1fILi5EEEvv|A::f<5>
        _ZN1A1fILj5EEEvv|A::f<5u>
        _ZN1A1fILb1EEEvv|A::f<true>
        _ZN1A1fILc65EEEvv|A::f<(char)65>
        _ZN1A1fILin5EEEvv|A::f<-5>
        _ZN1A1fIDv4_fEEvv|A::f<float __vector(4)>
        _ZN1A1fICdEEvv|A::f<double _Complex>
        _ZN12_GLOBAL__N_11fEv|(anonymous namespace)::f
        _ZN1A1fB5cxx11Ev|A::f[abi:cxx11]
        _ZZ3fooIiEvvE1x|foo<int>()::x
        _Z3barIZ3fooIiEvvEUlvE_EvT_|bar<foo<int>()::{lambda()#1}>
        _ZTv0_n24_N1AIiE1fIiEEvv|virtual thunk to void A<int>::f<int>()
        _ZNSt8ios_base7failureB5cxx11C1EPKcRKSt10error_code|std::ios_base::failure[abi:cxx11]::failure
        _ZN6icu_726number4impl10MicroPropsUt_D1Ev|icu_72::number::impl::MicroProps::{unnamed type#1}::~MicroProps
        _ZN4absl13base_internal12CallOnceImplIRFvPFvPvEEJRS4_EEEvPSt6atomicIjENS0_14SchedulingModeEOT_DpOT0_|absl::base_internal::CallOnceImpl<void (&)(void (*)(void*)), void (*&)(void*)>
        _ZN1AINS_IiJEEEJEE1fEv|A<A<int>>::f
        _ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base|std::_Rb_tree_increment
        """)
    void matchesPerf(String mangled, String perf) {
        assertThat(Demangler.demangle(mangled)).isEqualTo(perf);
    }

    @ParameterizedTest
    @CsvSource({"main", "_Z", "_Zx", "_ZN", "_ZNK", "_Z3fo", "_ZS0_", "_ZT_", "_ZN1AIT_EE1fEv", "_ZSt"})
    void givesUpOnWhatItCannotParse(String name) {
        assertThat(Demangler.demangle(name)).isNull();
        assertThat(Demangler.demangleOrSelf(name)).isEqualTo(name);
    }

    @Test
    void everyLibstdcxxNameMatchesCxxfilt() throws IOException {
        Path dir = Fixtures.testdataDir().resolve("demangle");
        List<String> names = Files.readAllLines(dir.resolve("libstdc++-6.0.30-names.txt"));
        List<String> perf = Files.readAllLines(dir.resolve("libstdc++-6.0.30-names.perf.txt"));
        assertThat(names).hasSameSizeAs(perf).hasSizeGreaterThan(5000);
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (!perf.get(i).equals(Demangler.demangleOrSelf(names.get(i)))) {
                wrong.add(names.get(i) + " -> " + Demangler.demangleOrSelf(names.get(i)) + " (perf: " + perf.get(i)
                    + ")");
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void tableAgreesWithTheInstalledCxxfilt() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/c++filt")), "c++filt (binutils) is not installed");
        Path dir = Fixtures.testdataDir().resolve("demangle");
        List<String> names = Files.readAllLines(dir.resolve("libstdc++-6.0.30-names.txt")).subList(0, 500);
        Process p = new ProcessBuilder("/usr/bin/c++filt", "-p", "-i").redirectErrorStream(true).start();
        p.getOutputStream().write((String.join("\n", names) + "\n").getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        List<String> live = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(p.waitFor()).isZero();
        for (int i = 0; i < names.size(); i++) {
            assertThat(Demangler.demangleOrSelf(names.get(i))).as(names.get(i)).isEqualTo(live.get(i));
        }
    }

    /** Mutations of real names (cut, duplicated, swapped, random bytes) end in a name or null, never a throw. */
    @Test
    void mutatedNamesNeverThrow() throws IOException {
        List<String> names = Files.readAllLines(Fixtures.testdataDir().resolve("demangle/libstdc++-6.0.30-names.txt"));
        SplittableRandom rnd = new SplittableRandom(20261202L);
        String alphabet = "_ZNSEIJLTKVrOPRFAMDCpvi0123456789abcdSt_EEIIT_S_S0_";
        int parsed = 0;
        for (int i = 0; i < 50_000; i++) {
            StringBuilder b = new StringBuilder(names.get(rnd.nextInt(names.size())));
            int edits = 1 + rnd.nextInt(4);
            for (int e = 0; e < edits && !b.isEmpty(); e++) {
                int at = rnd.nextInt(b.length());
                switch (rnd.nextInt(4)) {
                    case 0 -> b.setLength(at);
                    case 1 -> b.insert(at, b.substring(at, Math.min(b.length(), at + rnd.nextInt(40))));
                    case 2 -> b.setCharAt(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
                    default -> b.insert(at, (char) rnd.nextInt(0x20, 0x7f));
                }
            }
            String d = Demangler.demangle(b.toString());
            if (d != null) {
                parsed++;
                assertThat(d).isNotEmpty().hasSizeLessThanOrEqualTo(4096);
            }
        }
        assertThat(parsed).isPositive();
    }

    /** Nesting past the depth cap and names past the length cap give up instead of overflowing the stack. */
    @Test
    void deepAndHugeNamesGiveUp() {
        assertThat(Demangler.demangle("_Z1fIP" + "P".repeat(10_000) + "iE")).isNull();
        assertThat(Demangler.demangle("_ZN1A" + "IS_".repeat(300) + "E".repeat(300) + "1fEv")).isNull();
        assertThat(Demangler.demangle("_Z" + "3foo".repeat(5_000))).isNull();
    }
}
