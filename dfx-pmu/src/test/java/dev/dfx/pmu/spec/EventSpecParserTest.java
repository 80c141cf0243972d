package dev.dfx.pmu.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EventSpecParserTest {

    @Test
    void parsesPmuEventsWithTermsAndModifiers() {
        List<EventGroupSpec> items = EventSpecParser.parse("accel/sq_waves,se=2,sa=0x1,config1=0x200/,msr/tsc/u");
        assertThat(items).hasSize(2);
        EventSpec.Pmu a = (EventSpec.Pmu) items.get(0).members().getFirst();
        assertThat(a.pmu()).isEqualTo("accel");
        assertThat(a.text()).isEqualTo("accel/sq_waves,se=2,sa=0x1,config1=0x200/");
        assertThat(a.terms()).extracting(Term::toString).containsExactly("sq_waves", "se=0x2", "sa=0x1", "config1=0x200");
        assertThat(a.terms().get(1).namePos()).isEqualTo(15);
        assertThat(a.terms().get(1).valuePos()).isEqualTo(18);
        EventSpec.Pmu b = (EventSpec.Pmu) items.get(1).members().getFirst();
        assertThat(b.text()).isEqualTo("msr/tsc/u");
        assertThat(b.position()).isEqualTo(42);
        assertThat(b.modifiers().excludeKernel()).isTrue();
        assertThat(b.modifiers().excludeUser()).isFalse();
    }

    @Test
    void parsesGroupsSymbolicRawTracepointsAndValues() {
        List<EventGroupSpec> items = EventSpecParser.parse(
                "{task-clock,cs:k}:u,r1a,r0x2B:p,sched:sched_switch,sched:sched_wakeup:k,cpu/name='x,y',core=?,id=abc.d:e/");
        assertThat(items).hasSize(6);
        EventGroupSpec g = items.getFirst();
        assertThat(g.braced()).isTrue();
        assertThat(g.modifiers().text()).isEqualTo("u");
        assertThat(g.members()).extracting(EventSpec::text).containsExactly("task-clock", "cs:k");
        assertThat(((EventSpec.Named) g.members().get(1)).modifiers().excludeUser()).isTrue();
        assertThat(((EventSpec.Raw) items.get(1).members().getFirst()).config()).isEqualTo(0x1a);
        EventSpec.Raw raw = (EventSpec.Raw) items.get(2).members().getFirst();
        assertThat(raw.config()).isEqualTo(0x2b);
        assertThat(raw.modifiers().precise()).isEqualTo(1);
        EventSpec.Tracepoint tp = (EventSpec.Tracepoint) items.get(3).members().getFirst();
        assertThat(tp.system()).isEqualTo("sched");
        assertThat(tp.name()).isEqualTo("sched_switch");
        assertThat(((EventSpec.Tracepoint) items.get(4).members().getFirst()).modifiers().excludeUser()).isTrue();
        EventSpec.Pmu cpu = (EventSpec.Pmu) items.get(5).members().getFirst();
        assertThat(cpu.terms().get(0).value()).isEqualTo(new TermValue.Text("x,y"));
        assertThat(cpu.terms().get(1).value()).isEqualTo(new TermValue.Param());
        assertThat(cpu.terms().get(2).value()).isEqualTo(new TermValue.Text("abc.d:e"));
    }

    @Test
    void numbersAreDecimalOrHexAndAtMost64Bits() {
        EventSpec.Pmu p = (EventSpec.Pmu) EventSpecParser.parse("m/a=18446744073709551615,b=0xffffffffffffffff,c=010/")
                .getFirst().members().getFirst();
        assertThat(p.terms()).extracting(t -> ((TermValue.Number) t.value()).value()).containsExactly(-1L, -1L, 10L);
        assertThatThrownBy(() -> EventSpecParser.parse("msr/event=0x1ffffffffffffffff/"))
                .isInstanceOf(EventSyntaxException.class)
                .satisfies(e -> assertThat(((EventSyntaxException) e).position()).isEqualTo(10))
                .hasMessageContaining("wider than 64 bits");
    }

    static Stream<Arguments> errors() {
        return Stream.of(
                // spec, 0-based position, reason prefix
                Arguments.of("task-clock,,", 11, "parser error"),
                Arguments.of("task-clock:pppp", 11, "Bad modifier"),
                Arguments.of("msr/tsc/:u", 8, "parser error"),
                Arguments.of("msr/tsc", 7, "parser error"),
                Arguments.of("{a,b", 4, "parser error"),
                Arguments.of("msr/tsc/x", 8, "Bad modifier"),
                Arguments.of("m/a=/", 4, "parser error"),
                Arguments.of("m/name='oops/", 7, "parser error"),
                Arguments.of("", 0, "parser error"));
    }

    @ParameterizedTest
    @MethodSource("errors")
    void errorsCarryThePosition(String spec, int position, String reason) {
        assertThatThrownBy(() -> EventSpecParser.parse(spec))
                .isInstanceOfSatisfying(EventSyntaxException.class, e -> {
                    assertThat(e.position()).isEqualTo(position);
                    assertThat(e.reason()).startsWith(reason);
                    assertThat(e.getMessage()).doesNotContain("\n").contains("column " + (position + 1));
                });
    }

    @Test
    void modifiersFollowPerfSemantics() {
        Modifiers u = Modifiers.parse("s", "u", 0);
        assertThat(u.excludeUser()).isFalse();
        assertThat(u.excludeKernel()).isTrue();
        assertThat(u.excludeHv()).isTrue();
        assertThat(u.excludeGuest()).isTrue();
        Modifiers uk = Modifiers.parse("s", "uk", 0);
        assertThat(uk.excludeUser()).isFalse();
        assertThat(uk.excludeKernel()).isFalse();
        assertThat(uk.excludeHv()).isTrue();
        Modifiers gh = Modifiers.parse("s", "G", 0);
        assertThat(gh.excludeGuest()).isFalse();
        assertThat(gh.excludeHost()).isTrue();
        Modifiers many = Modifiers.parse("s", "pppSDIeW", 0);
        assertThat(many.precise()).isEqualTo(3);
        assertThat(many.sampleRead()).isTrue();
        assertThat(many.pinned()).isTrue();
        assertThat(many.excludeIdle()).isTrue();
        assertThat(many.exclusive()).isTrue();
        assertThat(many.weak()).isTrue();
        // a group's :k on a member written cycles:u keeps the member's u and adds k
        assertThat(u.with("s", "k", 0).excludeKernel()).isFalse();
        assertThat(u.with("s", "k", 0).excludeUser()).isFalse();
    }

    @Test
    void perfStyleRenderingMatchesPerf61() {
        EventSyntaxException e = new EventSyntaxException("msr/tsc,foo=1/", 8, "unknown term 'foo' for pmu 'msr'",
                "valid terms: event,config,config1,config2,name,period,percore,metric-id");
        // observed with perf 6.1.187: 29 spaces, then the caret
        assertThat(e.perfStyle(80)).isEqualTo("""
                event syntax error: 'msr/tsc,foo=1/'
                                             \\___ unknown term 'foo' for pmu 'msr'

                valid terms: event,config,config1,config2,name,period,percore,metric-id
                """);
        EventSyntaxException cut = new EventSyntaxException("uprobe/retprobe=2/", 16, "value too big for format, maximum is 1", null);
        // perf cuts the start so the caret is at most 13 characters in: '..e/retprobe=2/', caret after 34 spaces
        assertThat(cut.perfStyle(80)).isEqualTo("event syntax error: '..e/retprobe=2/'\n"
                + " ".repeat(34) + "\\___ value too big for format, maximum is 1\n");
        String longSpec = "x".repeat(100);
        String[] lines = new EventSyntaxException(longSpec, 2, "parser error", null).perfStyle(80).split("\n");
        assertThat(lines[0]).hasSize(80 - 2 + 2).endsWith("..'");
    }
}
