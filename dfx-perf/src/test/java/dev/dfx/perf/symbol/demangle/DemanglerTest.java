package dev.dfx.perf.symbol.demangle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.testing.CPrograms;
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
 * {@link Demangler} against libiberty as perf 6.1 uses it ({@code c++filt -p -i} prints the same): tables of
 * hand-picked names whose expected text was printed by {@code c++filt -p -i} (binutils 2.40), one of them a name
 * for each form of the expression grammar (template-argument expressions, {@code decltype}, pack expansions, fold
 * expressions, literals, casts, {@code new}, function-type qualifiers, generic lambdas, reference collapsing);
 * every C++ name of libstdc++'s dynamic symbol table and the 1,018 names of this machine's libraries, node and perf
 * that the demangler once printed wrong or left mangled, against the committed {@code c++filt} output; the same
 * against a live {@code c++filt} (binutils, installed with g++ by {@code scripts/cc.sh c++}); and seeded mutations
 * that must end without an exception.
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

    /** Each form of the expression grammar; a name libiberty leaves mangled is expected as it is. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
        _ZN1AIXadL_Z1fvEEE1gEv|A<&(f())>::g
        _ZN1AIXadL_ZN1B1fEvEEE1gEv|A<&B::f>::g
        _ZN1AIXadL_Z1xEEE1gEv|A<&x>::g
        _ZN1AIXplLi1ELi2EEE1gEv|A<(1)+(2)>::g
        _ZN1AIXgtLi1ELi2EEE1gEv|A<((1)>(2))>::g
        _ZN1AIXngLi1EEE1gEv|A<-(1)>::g
        _ZN1AIXquLb1ELi1ELi2EEE1gEv|A<(true)?(1) : (2)>::g
        _ZN1AIXstiEE1gEv|A<sizeof (int)>::g
        _ZN1AIXszLi1EEE1gEv|A<sizeof (1)>::g
        _ZN1AIXatiEE1gEv|_ZN1AIXatiEE1gEv
        _ZN1AIXcviLi1EEE1gEv|A<(int)(1)>::g
        _ZN1AIXscjLi1EEE1gEv|A<static_cast<unsigned int>(1)>::g
        _ZZ1fIiEDTcl1gfp_EET_E1x|f<int>(int)::x
        _ZZ1fIiEDTplfp_fp0_ET_S1_E1x|f<int>(int, int)::x
        _ZZ1fI1BEDTdtfp_1xET_E1x|f<B>(B)::x
        _ZZ1fI1BEDTptfp_1xEPT_E1x|f<B>(B*)::x
        _ZZ1fIiEDTixfp_Li0EEPT_E1x|f<int>(int*)::x
        _ZZ1fIJidEEvDpT_E1x|f<int, double>(int, double)::x
        _ZZ1fIJidEEvDpRKT_E1x|f<int, double>(int const&, double const&)::x
        _ZZ1fIJRiOdEEvDpOT_E1x|f<int&, double&&>(int&, double&&)::x
        _ZN1AIXsZT_EE1gIJiiEEEvv|_ZN1AIXsZT_EE1gIJiiEEEvv
        _ZZ1fIiEDTsrT_1xES0_E1x|f<int>(int)::x
        _ZZ1fIiEDTsrT_1xIiEES0_E1x|f<int>(int)::x
        _ZZ1fIiEDTnw_T_EES0_E1x|f<int>(int)::x
        _ZZ1fIiEDTnw_T_piEES0_E1x|f<int>(int)::x
        _ZZ1fIiEDTnw_T_ilLi1EEES0_E1x|f<int>(int)::x
        _ZZ1fIiEDTtlT_Li1ELi2EEES0_E1x|f<int>(int)::x
        _ZZ1fIJiiEEDTflplfp_EDpT_E1x|f<int, int>(int, int)::x
        _ZZ1fIJiiEEDTfrplfp_EDpT_E1x|f<int, int>(int, int)::x
        _ZZ1fIJiiEEDTfLplLi0Efp_EDpT_E1x|f<int, int>(int, int)::x
        _ZSt6all_ofIPKcPDoFbcEEbT_S4_T0_|std::all_of<char const*, bool (*)(char) noexcept>
        _ZN1AIPDwiEFvvEE1fEv|A<void (*)() throw(int)>::f
        _ZN1AIPDOLb1EEFvvEE1fEv|A<void (*)() noexcept(true)>::f
        _ZN1AIPDxFvvEE1fEv|A<void (*)() transaction_safe>::f
        _ZZ1fvENKUlT_E_clIiEEDaS_|f()::{lambda(auto:1)#1}::operator()<int>
        _ZZ1fvENKUlDpT_E_clIJiiEEEDaS0_|f()::{lambda((auto:1)...)#1}::operator()<int, int>
        _ZGR1x_|reference temporary #0 for x
        _ZGR1x1_|reference temporary #1 for x
        _ZGRZ1fvE1x_|reference temporary #0 for f()::x
        _ZZ1fvE1x__12_|f()::x
        _ZZ1fvEd_1x|f()::{default arg#1}::x
        _ZZ1fvEd0_1x|f()::{default arg#2}::x
        _ZN1AIXLf3f800000EEE1gEv|A<(float)[3f800000]>::g
        _ZN1AIXLdn4000000000000000EEE1gEv|A<(double)-[4000000000000000]>::g
        _ZN1AIXLDnEEE1gEv|A<decltype(nullptr)>::g
        _ZN1AIXLDn0EEE1gEv|A<(decltype(nullptr))0>::g
        _ZN1AIXLi5EEE1gEv|A<5>::g
        _ZN1AIXLc65EEE1gEv|A<(char)65>::g
        _ZN1AIXadL_ZN1B1fEvEEXadL_ZN1B1gEvEEE1hEv|A<&B::f, &B::g>::h
        _ZZN1BC4IiEERKT_E1x|B::B<int>(int const&)::x
        _ZZ1fIiEDTcmfp_fp_ET_E1x|f<int>(int)::x
        _ZZ1fIiEDTppfp_ET_E1x|f<int>(int)::x
        _ZZ1fIiEDTpp_fp_ET_E1x|f<int>(int)::x
        _ZZ1fIiEDTcl1gIT_Efp_EES0_E1x|f<int>(int)::x
        _ZZ1fIiEDTdeadfp_ET_E1x|f<int>(int)::x
        _ZZ1fIiEDTgsdlfp_ET_E1x|f<int>(int)::x
        _ZZ1fIiEDTcv1BfpTET_E1x|f<int>(int)::x
        _ZZ1fIiEDTcv1B_fp_fp_EET_E1x|f<int>(int)::x
        _ZZ1fIiEDTdcPT_fp_ET_E1x|f<int>(int)::x
        _ZN1AIXtrEE1gEv|A<throw>::g
        _ZN1AIXtwLi1EEE1gEv|A<throw (1)>::g
        _ZZ1fIJiiEEvDpPFvT_EE1x|f<int, int>(void (*)(int), void (*)(int))::x
        _ZZ1fIJEEvDpT_E1x|f<>()::x
        _ZN1AIXsPiiEEE1gEv|A<2>::g
        _ZZ1fIiEDTeqfp_Li0EET_E1x|f<int>(int)::x
        _ZZ1fIiEDTonplfp_ET_E1x|_ZZ1fIiEDTonplfp_ET_E1x
        _ZN1AIFDTplLi1ELi2EEvEE1fEv|A<decltype ((1)+(2)) ()>::f
        _ZN1AIFDTcl1gLi1EEEvEE1fEv|A<decltype (g(1)) ()>::f
        _ZN1AIFDTcldtL_Z1bE1fEEvEE1fEv|A<decltype ((b.f)()) ()>::f
        _ZN1AIFDTcmLi1ELi2EEvEE1fEv|A<decltype ((1),(2)) ()>::f
        _ZN1AIFDTnw_iEEvEE1fEv|A<decltype (new int) ()>::f
        _ZN1AIFDTnw_ipLi1EEEvEE1fEv|_ZN1AIFDTnw_ipLi1EEEvEE1fEv
        _ZN1AIFDTnwLi1E_iEEvEE1fEv|A<decltype (new (1) int) ()>::f
        _ZN1AIFDTtliLi1EEEvEE1fEv|A<decltype (int{1}) ()>::f
        _ZN1AIFDTilLi1ELi2EEEvEE1fEv|A<decltype ({1, 2}) ()>::f
        _ZN1AIFDTppLi1EEvEE1fEv|A<decltype ((1)++) ()>::f
        _ZN1AIFDTpp_Li1EEvEE1fEv|A<decltype (++(1)) ()>::f
        _ZN1AIFDTgsdlLi1EEvEE1fEv|A<decltype (::delete (1)) ()>::f
        _ZN1AIFDTdeLi1EEvEE1fEv|A<decltype (*(1)) ()>::f
        _ZN1AIFDTcviLi1EEvEE1fEv|A<decltype ((int)(1)) ()>::f
        _ZN1AIFDTcvi_Li1ELi2EEEvEE1fEv|A<decltype ((int)(1, 2)) ()>::f
        _ZN1AIFDTrcPiLi1EEvEE1fEv|A<decltype (reinterpret_cast<int*>(1)) ()>::f
        _ZN1AIFDTixL_Z1aELi0EEvEE1fEv|A<decltype (a[0]) ()>::f
        _ZN1AIFDTptL_Z1aE1bEvEE1fEv|A<decltype (a->b) ()>::f
        _ZN1AIFDTsr1B1xEvEE1fEv|A<decltype (B::x) ()>::f
        _ZN1AIFDTsr1B1xIiEEvEE1fEv|A<decltype (B::x<int>) ()>::f
        _ZN1AIFDTonplLi1EEvEE1fEv|_ZN1AIFDTonplLi1EEvEE1fEv
        _ZN1AIFDTfpTEvEE1fEv|A<decltype (this) ()>::f
        _ZN1AIFDTfp0_EvEE1fEv|A<decltype ({parm#2}) ()>::f
        _ZN1AIFDTeqL_Z1aELi0EEvEE1fEv|A<decltype (a==(0)) ()>::f
        _ZN1AIFDTdsL_Z1aEL_Z1bEEvEE1fEv|A<decltype (a.*b) ()>::f
        _ZN1AIFDTL_Z1fvEEvEE1fEv|A<decltype (f()) ()>::f
        _ZN1AIXcl1fIiEEEE1gEv|A<(f<int>)()>::g
        _ZN1AIXadL_ZNK1B1fEvEEE1gEv|A<&(B::f() const)>::g
        _ZN1AIXadL_ZN1B1fIiEEvvEEE1gEv|A<&(void B::f<int>())>::g
        _ZN1AIXltLi1ELi2EEE1gEv|A<(1)<(2)>::g
        _ZN1AIXLb0EEE1gEv|A<false>::g
        _ZN1AIXLj5EEE1gEv|A<5u>::g
        _ZN1AIXLln5EEE1gEv|A<-5l>::g
        _ZN1AIXLy5EEE1gEv|A<5ull>::g
        _ZN1AIXLs5EEE1gEv|A<(short)5>::g
        """)
    void expressionsMatchPerf(String mangled, String perf) {
        assertThat(Demangler.demangleOrSelf(mangled)).isEqualTo(perf);
    }

    @ParameterizedTest
    @CsvSource({"main", "_Z", "_Zx", "_ZN", "_ZNK", "_Z3fo", "_ZS0_", "_ZT_", "_ZN1AIT_EE1fEv", "_ZSt"})
    void givesUpOnWhatItCannotParse(String name) {
        assertThat(Demangler.demangle(name)).isNull();
        assertThat(Demangler.demangleOrSelf(name)).isEqualTo(name);
    }

    @ParameterizedTest
    @CsvSource({"libstdc++-6.0.30-names, 5000", "gaps-names, 1000"})
    void everyCorpusNameMatchesCxxfilt(String corpus, int atLeast) throws IOException {
        assertThat(Corpora.differingFromPerf(corpus, atLeast)).isEmpty();
    }

    @Test
    void corporaAgreeWithTheInstalledCxxfilt() throws Exception {
        try {
            CPrograms.cxxCompiler(); // g++ brings binutils, and with it c++filt
        } catch (IOException e) {
            assumeTrue(false, "no C++ toolchain (and so no c++filt) can be had here: " + e.getMessage());
        }
        Path dir = Fixtures.testdataDir().resolve("demangle");
        List<String> names = new ArrayList<>(Files.readAllLines(dir.resolve("libstdc++-6.0.30-names.txt")));
        names.addAll(Files.readAllLines(dir.resolve("gaps-names.txt")));
        Process p = new ProcessBuilder("c++filt", "-p", "-i").redirectErrorStream(true).start();
        // fed from another thread: c++filt answers line by line and would block on a full pipe
        Thread feed = Thread.ofVirtual().start(() -> {
            try (var in = p.getOutputStream()) {
                in.write((String.join("\n", names) + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        List<String> live = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        feed.join();
        assertThat(p.waitFor()).isZero();
        assertThat(live).hasSameSizeAs(names);
        for (int i = 0; i < names.size(); i++) {
            assertThat(Demangler.demangleOrSelf(names.get(i))).as(names.get(i)).isEqualTo(live.get(i));
        }
    }

    /**
     * Mutations of real names, the expression-heavy ones among them (cut, duplicated, swapped, random bytes), end
     * in a name or null, never a throw.
     */
    @Test
    void mutatedNamesNeverThrow() throws IOException {
        List<String> names = new ArrayList<>(
            Files.readAllLines(Fixtures.testdataDir().resolve("demangle/libstdc++-6.0.30-names.txt")));
        names.addAll(Files.readAllLines(Fixtures.testdataDir().resolve("demangle/gaps-names.txt")));
        SplittableRandom rnd = new SplittableRandom(20261202L);
        String alphabet = "_ZNSEIJLTKVrOPRFAMDCpvi0123456789abcdSt_EEIIT_S_S0_XDtDpfpsrsZcladclfl";
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
