package dev.dfx.pmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.pmu.accel.AccelPmu;
import dev.dfx.pmu.attr.AttrFlags;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.spec.EventSyntaxException;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventResolverTest {
    private final PmuCatalog catalog = TestPmus.fake().catalog();

    private ResolvedEvent one(String spec) {
        List<ResolvedEvent> events = catalog.resolve(spec);
        assertThat(events).hasSize(1);
        return events.getFirst();
    }

    private EventSyntaxException error(String spec) {
        try {
            catalog.resolve(spec);
        } catch (EventSyntaxException e) {
            return e;
        }
        throw new AssertionError("no error for " + spec);
    }

    @Test
    void aliasTermsComeFromEventsFilesAndNamesAreAsWritten() {
        ResolvedEvent tsc = one("msr/tsc/");
        assertThat(tsc.name()).isEqualTo("msr/tsc/");
        assertThat(tsc.pmu()).isEqualTo("msr");
        assertThat(tsc.attr().type()).isEqualTo(9);
        assertThat(tsc.attr().config()).isZero();
        assertThat(tsc.explicitTerms()).containsExactly("event");
        assertThat(one("msr/tsc,name=mytsc/").name()).isEqualTo("mytsc");
        assertThat(one("msr/name=abc,tsc/").name()).isEqualTo("abc");
        assertThat(one("msr/tsc,name='x,y'/").name()).isEqualTo("x,y");
        // event=NAME names the same event (perf's pmu_find_alias), shown as written
        ResolvedEvent byTerm = one("msr/event=tsc/");
        assertThat(byTerm.name()).isEqualTo("msr/event=tsc/");
        assertThat(byTerm.attr()).isEqualTo(tsc.attr());
        assertThat(byTerm.explicitTerms()).isEqualTo(tsc.explicitTerms());
        assertThat(one("cpu/event=mem-loads,ldlat=7/").attr().config1()).isEqualTo(7);
        assertThat(error("msr/event=nosuch/").reason()).isEqualTo("expected numeric value");
        // a bare alias name resolves through the one PMU that has it
        ResolvedEvent bare = one("tsc");
        assertThat(bare.pmu()).isEqualTo("msr");
        assertThat(bare.name()).isEqualTo("tsc");
    }

    @Test
    void splitFormatAndAliasUnitsAndScales() {
        ResolvedEvent e = one("cpu/event=0x28F,umask=0x03/");
        assertThat(e.attr().type()).isEqualTo(4);
        assertThat(e.attr().config()).isEqualTo(0x20000038FL);
        ResolvedEvent loads = one("cpu/mem-loads/");
        // event=0xcd,umask=0x1 in config; ldlat=3 in config1:0-15
        assertThat(loads.attr().config()).isEqualTo(0x1cdL);
        assertThat(loads.attr().config1()).isEqualTo(3);
        // user terms override the alias's (weak) terms
        ResolvedEvent over = one("cpu/mem-loads,ldlat=7,umask=0x2/");
        assertThat(over.attr().config()).isEqualTo(0x2cdL);
        assertThat(over.attr().config1()).isEqualTo(7);
        ResolvedEvent energy = one("power/energy-pkg/");
        assertThat(energy.unit()).isEqualTo("Joules");
        assertThat(energy.scale()).isEqualTo(2.3283064365386962890625e-10);
        assertThat(energy.attr().config()).isEqualTo(2);
        // bare multi-bit format term is 1 (perf 6.1); config words set whole words
        assertThat(one("cpu/edge/").attr().config()).isEqualTo(1L << 18);
        ResolvedEvent words = one("cpu/config=0x12,config1=0xffffffffffffffff,config2=3,config3=4/");
        assertThat(words.attr().config()).isEqualTo(0x12);
        assertThat(words.attr().config1()).isEqualTo(-1L);
        assertThat(words.attr().config2()).isEqualTo(3);
        assertThat(words.attr().config3()).isEqualTo(4);
        assertThat(one("cpu/r1a/").attr().config()).isEqualTo(0x1a);
    }

    @Test
    void requiredParametersMustBeGiven() {
        EventSyntaxException e = error("uncore/param-ev/");
        assertThat(e.reason()).isEqualTo("Required parameter 'core' not specified");
        ResolvedEvent ok = one("uncore/param-ev,core=3/");
        assertThat(ok.attr().config()).isEqualTo(0x10);
        assertThat(ok.attr().config1()).isEqualTo(3);
    }

    @Test
    void perfErrorWordingWithPositions() {
        EventSyntaxException unknown = error("msr/tsc,foo=1/");
        assertThat(unknown.reason()).isEqualTo("unknown term 'foo' for pmu 'msr'");
        assertThat(unknown.position()).isEqualTo(8);
        assertThat(unknown.help()).isEqualTo("valid terms: event,config,config1,config2,config3,name,period,percore,metric-id");
        EventSyntaxException bogus = error("msr/bogus/");
        assertThat(bogus.position()).isEqualTo(4);
        EventSyntaxException big = error("uprobe/retprobe=2/");
        assertThat(big.reason()).isEqualTo("value too big for format, maximum is 1");
        assertThat(big.position()).isEqualTo(16);
        EventSyntaxException se = error("accel/sq_waves,se=256/");
        assertThat(se.reason()).isEqualTo("value too big for format, maximum is 255");
        EventSyntaxException pmu = error("foo/bar/");
        assertThat(pmu.reason()).isEqualTo("Cannot find PMU `foo'. Missing kernel support?");
        assertThat(pmu.position()).isZero();
        EventSyntaxException text = error("cpu/event=abc/");
        assertThat(text.reason()).isEqualTo("expected numeric value");
        assertThat(text.position()).isEqualTo(10);
        assertThat(error("nosuch").reason()).startsWith("parser error: unknown event 'nosuch'");
        EventSyntaxException tp = error("sched:nope");
        assertThat(tp.reason()).isEqualTo("unknown tracepoint");
        assertThat(tp.help()).isEqualTo("Error:\tFile /fake/tracing/events/sched/nope not found.");
        EventSyntaxException mod = error("task-clock:uq");
        assertThat(mod.reason()).isEqualTo("Bad modifier");
        assertThat(mod.position()).isEqualTo(11);
    }

    @Test
    void symbolicRawTracepointAndGroups() {
        List<ResolvedEvent> events = catalog.resolve("{task-clock,cs:k}:u,r1a,sched:sched_switch,faults");
        assertThat(events).extracting(ResolvedEvent::name)
                .containsExactly("task-clock:u", "cs:k:u", "r1a", "sched:sched_switch", "faults");
        assertThat(events).extracting(ResolvedEvent::group).containsExactly(0, 0, 1, 2, 3);
        assertThat(events).extracting(ResolvedEvent::leader).containsExactly(true, false, true, true, true);
        ResolvedEvent clock = events.get(0);
        assertThat(clock.attr().type()).isEqualTo(PerfType.SOFTWARE);
        assertThat(clock.attr().config()).isEqualTo(1);
        assertThat(clock.unit()).isEqualTo("msec");
        assertThat(clock.scale()).isEqualTo(1e-6);
        assertThat(clock.attr().has(AttrFlags.EXCLUDE_KERNEL)).isTrue();
        assertThat(events.get(1).attr().config()).isEqualTo(3);
        assertThat(events.get(1).attr().has(AttrFlags.EXCLUDE_KERNEL)).isFalse();
        assertThat(events.get(1).attr().has(AttrFlags.EXCLUDE_USER)).isFalse();
        assertThat(events.get(2).attr().type()).isEqualTo(PerfType.RAW);
        assertThat(events.get(2).attr().config()).isEqualTo(0x1a);
        assertThat(events.get(3).attr().type()).isEqualTo(PerfType.TRACEPOINT);
        assertThat(events.get(3).attr().config()).isEqualTo(316);
        assertThat(events.get(4).attr().config()).isEqualTo(2);
    }

    @Test
    void accelDimensionsPackIntoConfig1AndRecordWhichWereGiven() {
        ResolvedEvent e = one("accel/sq_waves,se=2,sa=1/");
        assertThat(e.attr().type()).isEqualTo(AccelPmu.TYPE);
        assertThat(e.attr().config()).isEqualTo(0x1e);
        assertThat(e.attr().config1()).isEqualTo(0x00010200L);
        assertThat(e.explicitTerms()).containsExactlyInAnyOrder("config", "se", "sa");
        ResolvedEvent zero = one("accel/grbm_count,se=0/");
        assertThat(zero.attr().config1()).isZero();
        assertThat(zero.hasTerm("se")).isTrue();
        assertThat(one("accel/sq_waves,se=2,sa=1,wgp=3/").attr().config1()).isEqualTo(0x03010200L);
        assertThat(one("accel/sq_waves,aggregate=1/").attr().config1()).isEqualTo(1L << 40);
        assertThat(one("accel/sq_waves,config1=0x02010300/").attr().config1()).isEqualTo(0x02010300L);
        assertThat(one("sq_waves").pmu()).isEqualTo("accel");
        assertThat(one("jvm/alloc-bytes/").attr().config()).isEqualTo(2);
    }
}
