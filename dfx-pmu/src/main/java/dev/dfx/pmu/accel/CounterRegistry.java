package dev.dfx.pmu.accel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The simulated accelerator's counters: the 36 of perf-dkms {@code counter_registry.c}, with the same names and
 * ids in the same order ({@code sq_waves} = 30 = {@code config=0x1e}; GL2C 9, SQ 22, TA 3, GRBM 2). Scopes: GL2C
 * per SA, SQ and TA per WGP except {@code sq_busy_cycles} per SE, GRBM global. Each counter's per-task increment
 * is a formula over {@link TaskActivity}; the five {@code wave32}/{@code wave64} SQ counters count only on an
 * architecture of that wave size and stay 0 on the other. Immutable; thread-safe.
 */
public final class CounterRegistry {
    private static final List<CounterDef> ALL;

    static {
        List<CounterDef> c = new ArrayList<>();
        def(c, "gl2c_ea_rdreq", Block.GL2C, Scope.SA, "readReqs", TaskActivity::readReqs);
        def(c, "gl2c_ea_rdreq_128b", Block.GL2C, Scope.SA, "readReqs/2", t -> t.readReqs() / 2);
        def(c, "gl2c_ea_rdreq_32b", Block.GL2C, Scope.SA, "readReqs/8", t -> t.readReqs() / 8);
        def(c, "gl2c_ea_rdreq_64b", Block.GL2C, Scope.SA, "readReqs%2", t -> t.readReqs() % 2);
        def(c, "gl2c_ea_wrreq", Block.GL2C, Scope.SA, "writeReqs", TaskActivity::writeReqs);
        def(c, "gl2c_ea_wrreq_64b", Block.GL2C, Scope.SA, "writeReqs", TaskActivity::writeReqs);
        def(c, "gl2c_ea_wrreq_stall", Block.GL2C, Scope.SA, "cycles/64", t -> t.cycles() / 64);
        def(c, "gl2c_hit", Block.GL2C, Scope.SA, "readReqs-readReqs/4", t -> t.readReqs() - t.readReqs() / 4);
        def(c, "gl2c_miss", Block.GL2C, Scope.SA, "readReqs/4", t -> t.readReqs() / 4);
        def(c, "sqc_lds_bank_conflict", Block.SQ, Scope.WGP, "lds/8", t -> t.lds() / 8);
        def(c, "sqc_lds_idx_active", Block.SQ, Scope.WGP, "lds", TaskActivity::lds);
        def(c, "sq_accum_prev", Block.SQ, Scope.WGP, "cycles", TaskActivity::cycles);
        def(c, "sq_busy_cycles", Block.SQ, Scope.SE, "cycles", TaskActivity::cycles);
        def(c, "sq_insts_flat", Block.SQ, Scope.WGP, "readReqs", TaskActivity::readReqs);
        def(c, "sq_insts_lds", Block.SQ, Scope.WGP, "lds", TaskActivity::lds);
        def(c, "sq_insts_salu", Block.SQ, Scope.WGP, "salu", TaskActivity::salu);
        def(c, "sq_insts_smem", Block.SQ, Scope.WGP, "smem", TaskActivity::smem);
        def(c, "sq_insts_tex_load", Block.SQ, Scope.WGP, "readReqs", TaskActivity::readReqs);
        def(c, "sq_insts_tex_store", Block.SQ, Scope.WGP, "writeReqs", TaskActivity::writeReqs);
        def(c, "sq_insts_valu", Block.SQ, Scope.WGP, "valu", TaskActivity::valu);
        wave(c, "sq_insts_wave32", 32, "insts", TaskActivity::insts);
        wave(c, "sq_insts_wave32_lds", 32, "lds", TaskActivity::lds);
        wave(c, "sq_insts_wave32_valu", 32, "valu", TaskActivity::valu);
        def(c, "sq_inst_cycles_vmem", Block.SQ, Scope.WGP, "4*(readReqs+writeReqs)", t -> 4 * (t.readReqs() + t.writeReqs()));
        def(c, "sq_inst_level_lds", Block.SQ, Scope.WGP, "16*lds", t -> 16 * t.lds());
        def(c, "sq_wait_any", Block.SQ, Scope.WGP, "cycles/4", t -> t.cycles() / 4);
        def(c, "sq_wait_inst_any", Block.SQ, Scope.WGP, "cycles/8", t -> t.cycles() / 8);
        wave(c, "sq_wave32_insts", 32, "insts", TaskActivity::insts);
        wave(c, "sq_wave64_insts", 64, "insts", TaskActivity::insts);
        def(c, "sq_waves", Block.SQ, Scope.WGP, "waves", TaskActivity::waves);
        def(c, "sq_wave_cycles", Block.SQ, Scope.WGP, "waves*cycles", t -> t.waves() * t.cycles());
        def(c, "ta_buffer_load_wavefronts", Block.TA, Scope.WGP, "waves if readReqs>0", t -> t.readReqs() > 0 ? t.waves() : 0);
        def(c, "ta_buffer_store_wavefronts", Block.TA, Scope.WGP, "waves if writeReqs>0", t -> t.writeReqs() > 0 ? t.waves() : 0);
        def(c, "ta_ta_busy", Block.TA, Scope.WGP, "cycles/2", t -> t.cycles() / 2);
        def(c, "grbm_count", Block.GRBM, Scope.GLOBAL, "cycles", TaskActivity::cycles);
        def(c, "grbm_gui_active", Block.GRBM, Scope.GLOBAL, "cycles", TaskActivity::cycles);
        ALL = Collections.unmodifiableList(c);
    }

    private CounterRegistry() {
    }

    private static void def(List<CounterDef> c, String name, Block block, Scope scope, String formula,
                            ToLongFunction<TaskActivity> f) {
        c.add(new CounterDef(c.size() + 1, name, block, scope, 0, formula, f));
    }

    /** An SQ per-WGP counter that counts only on an architecture of that wave size (0 on the other). */
    private static void wave(List<CounterDef> c, String name, int waveSize, String formula,
                             ToLongFunction<TaskActivity> f) {
        c.add(new CounterDef(c.size() + 1, name, Block.SQ, Scope.WGP, waveSize, formula, f));
    }

    /** @return every counter in id order (ids 1..36) */
    public static List<CounterDef> all() {
        return ALL;
    }

    /** @return the counter with that id, or null ({@code lookup_counter_by_id}: ids outside 1..36 are null) */
    public static CounterDef byId(long id) {
        return id >= 1 && id <= ALL.size() ? ALL.get((int) id - 1) : null;
    }

    /** @return the counter with that name (case-sensitive, as {@code lookup_counter_by_name}), or null */
    public static CounterDef byName(String name) {
        for (CounterDef d : ALL) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        return null;
    }
}
