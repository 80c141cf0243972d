package dev.dfx.perf.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.Goldens;
import dev.dfx.perf.LivePerf;
import dev.dfx.perf.dump.DumpPrinter;
import dev.dfx.perf.header.EvlistPrinter;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.text.TextSink;
import dev.dfx.pmu.attr.AttrFlags;
import dev.dfx.pmu.attr.PerfEventAttr;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A big-endian copy of {@code task-clock-c100000-cpu.data}, written by a converter in this test the way a
 * big-endian perf would have written the same recording: every field in big-endian order at its size (from the
 * struct layouts of {@code perf_event.h} and perf's {@code event.h}), strings as they are, and the
 * {@code perf_event_attr} bit-fields allocated from the most significant bit, as a big-endian ABI does (the
 * feature sections are left out). The copy must read as the little-endian original printed under perf 6.1: its
 * attr flags (sample_id_all among them), and so the time order of the script.
 */
class BigEndianTest {
    private static final String FIXTURE = "task-clock-c100000-cpu";
    private static final String FIELDS = "comm,tid,pid,cpu,time,event,period";
    /** sample_type IP|TID|TIME|CPU: the sample_id trailer of a non-sample record is TID, TIME, CPU. */
    private static final int TRAILER = 24;

    @TempDir
    Path dir;

    @Test
    void aBigEndianRecordingReadsWithItsBitFieldsInPlace() throws IOException {
        byte[] le = Files.readAllBytes(Goldens.fixture(FIXTURE + ".data"));
        Path be = dir.resolve("be.data");
        Files.write(be, toBigEndian(le));

        PerfEventAttr original;
        try (PerfSession s = PerfSession.open(Goldens.fixture(FIXTURE + ".data"), "le.data")) {
            original = s.evlist().first().attr();
        }
        try (PerfSession s = PerfSession.open(be, "be.data")) {
            PerfEventAttr attr = s.evlist().first().attr();
            assertThat(Long.toHexString(attr.flags())).isEqualTo(Long.toHexString(original.flags()));
            assertThat(attr.sampleIdAll()).isTrue();
            assertThat(attr.has(AttrFlags.DISABLED | AttrFlags.INHERIT | AttrFlags.ENABLE_ON_EXEC)).isTrue();
            assertThat(s.orderable()).isTrue();
            assertThat(s.warnings().lines()).isEmpty();
        }
        String evlist = Goldens.capture(out -> {
            try (PerfSession s = PerfSession.open(be, "be.data")) {
                TextSink sink = new TextSink(out);
                EvlistPrinter.print(s, sink);
                sink.flush();
            }
        });
        Goldens.assertSame("evlist -v", Goldens.read(FIXTURE + ".evlist.txt"), evlist);
        Goldens.assertSame("script", Goldens.read(FIXTURE + ".script-F.txt"), Goldens.script(be, "be.data", FIELDS));
        // the thread map's pid is a u64: the thread perf report -D prints for the original, from the copy too
        String dump = Goldens.capture(out -> {
            try (PerfSession s = PerfSession.open(be, "be.data")) {
                TextSink sink = new TextSink(out);
                new DumpPrinter(s, sink).run();
                sink.flush();
            }
        });
        String threadMap = Goldens.read(FIXTURE + ".dump.txt").lines()
            .filter(l -> l.contains("PERF_RECORD_THREAD_MAP")).findFirst().orElseThrow();
        assertThat(threadMap).endsWith("thread: 15648");
        assertThat(dump.lines()).contains(threadMap);

        // the real perf reads the converted copy as the original too (it swaps cross-endian files itself)
        LivePerf perf = LivePerf.run(dir, "script", "-i", "be.data", "-F", FIELDS);
        if (perf != null) {
            assertThat(perf.status()).isZero();
            Goldens.assertSame("perf script of the copy", Goldens.read(FIXTURE + ".script-F.txt"), perf.out());
        }
    }

    /**
     * The 2-bit precise_ip: a big-endian ABI keeps the field's own bits most significant first, so precise_ip 2 in
     * a big-endian attr reads as 2 (perf, which only reverses the bits of each byte, reads 1).
     */
    @Test
    void preciseIpKeepsItsValueAcrossTheByteOrders() {
        for (int level = 0; level < 4; level++) {
            long le = AttrFlags.DISABLED | AttrFlags.preciseIp(level) | AttrFlags.SAMPLE_ID_ALL;
            byte[] bytes = new byte[PerfEventAttr.SIZE_VER8];
            ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN)
                .putInt(4, PerfEventAttr.SIZE_VER8).putLong(PerfEventAttr.FLAGS_OFFSET, bigEndianBitFields(le));
            PerfEventAttr attr = PerfEventAttr.read(MemorySegment.ofArray(bytes), 0, PerfEventAttr.SIZE_VER8,
                ByteOrder.BIG_ENDIAN);
            assertThat(attr.preciseIp()).isEqualTo(level);
            assertThat(attr.flags()).isEqualTo(le);
            byte[] back = new byte[PerfEventAttr.SIZE_VER8];
            attr.write(MemorySegment.ofArray(back), 0, ByteOrder.BIG_ENDIAN);
            assertThat(back).isEqualTo(bytes);
        }
    }

    /**
     * The flags word as a big-endian compiler lays out {@code perf_event_attr}'s bit-fields: the field at bit i of
     * the little-endian word (allocated from the least significant bit) sits at bit 63 - i, except that a
     * multi-bit field keeps its own bit order: precise_ip (little-endian bits 15..16) occupies big-endian bits
     * 47..48 with its most significant bit at 48.
     */
    private static long bigEndianBitFields(long le) {
        long be = 0;
        for (int i = 0; i < 64; i++) {
            if (i != 15 && i != 16 && (le >>> i & 1) != 0) {
                be |= 1L << (63 - i);
            }
        }
        long precise = le >>> 15 & 3;
        return be | (precise >>> 1 & 1) << 48 | (precise & 1) << 47;
    }

    /** @return the little-endian file {@code le} as a big-endian perf would have written it, without features */
    private static byte[] toBigEndian(byte[] le) {
        ByteBuffer in = ByteBuffer.wrap(le).order(ByteOrder.LITTLE_ENDIAN);
        long dataOff = in.getLong(40);
        long dataSize = in.getLong(48);
        byte[] out = new byte[(int) (dataOff + dataSize)];
        System.arraycopy(le, 0, out, 0, out.length); // strings and padding as they are; numbers are rewritten
        Swap s = new Swap(in, ByteBuffer.wrap(out).order(ByteOrder.BIG_ENDIAN));
        // struct perf_file_header: magic, size, attr_size, attrs {offset, size}, data, event_types, adds_features
        s.u64(0, 13);
        s.out.putLong(72, 0).putLong(80, 0).putLong(88, 0).putLong(96, 0); // the features are left out
        int attrSize = (int) in.getLong(16);
        for (int at = (int) in.getLong(24); at < in.getLong(24) + in.getLong(32); at += attrSize) {
            attr(s, at);
            s.u64(at + attrSize - 16, 2); // ids section {offset, size}
            int ids = (int) in.getLong(at + attrSize - 16);
            s.u64(ids, (int) in.getLong(at + attrSize - 8) / 8);
        }
        for (int at = (int) dataOff; at < dataOff + dataSize; ) {
            int size = in.getShort(at + 6) & 0xffff;
            record(s, at, in.getInt(at), size);
            at += size;
        }
        return out;
    }

    /** {@code struct perf_event_attr} of 128 bytes (PERF_ATTR_SIZE_VER7), as perf 6.1 wrote it. */
    private static void attr(Swap s, int at) {
        s.u32(at, 2); // type, size
        s.u64(at + 8, 4); // config, sample_period, sample_type, read_format
        s.out.putLong(at + 40, bigEndianBitFields(s.in.getLong(at + 40)));
        s.u32(at + 48, 2); // wakeup_events, bp_type
        s.u64(at + 56, 5); // config1, config2, branch_sample_type, sample_regs_user
        s.u32(at + 88, 2); // sample_stack_user, clockid
        s.u64(at + 96, 1); // sample_regs_intr
        s.u32(at + 104, 1); // aux_watermark
        s.u16(at + 108, 2); // sample_max_stack, __reserved_2
        s.u32(at + 112, 2); // aux_sample_size, __reserved_3
        s.u64(at + 120, 1); // sig_data
    }

    /** One record of the fixture's types, with the sample_id trailer of its non-sample kernel records. */
    private static void record(Swap s, int at, int type, int size) {
        s.u32(at, 1);
        s.u16(at + 4, 2);
        int end = at + size;
        switch (type) {
            case 9 -> { // SAMPLE: ip; pid, tid; time; cpu, res
                s.u64(at + 8, 1);
                s.u32(at + 16, 2);
                s.u64(at + 24, 1);
                s.u32(at + 32, 2);
                end = at + 8; // no trailer
            }
            case 1 -> s.u32(at + 8, 2).u64(at + 16, 3); // MMAP: pid, tid; start, len, pgoff; filename
            case 10 -> s.u32(at + 8, 2).u64(at + 16, 3).u32(at + 40, 2).u64(at + 48, 2).u32(at + 64, 2); // MMAP2
            case 3 -> s.u32(at + 8, 2); // COMM: pid, tid; comm
            case 4 -> s.u32(at + 8, 4).u64(at + 24, 1); // EXIT: pid, ppid, tid, ptid; time
            case 69 -> s.u64(at + 8, 1 + 4 * (int) s.in.getLong(at + 8)); // ID_INDEX: nr; {id, idx, cpu, tid}
            case 73 -> { // THREAD_MAP: nr; {pid; comm[16]}
                s.u64(at + 8, 1);
                for (int i = 0; i < s.in.getLong(at + 8); i++) {
                    s.u64(at + 16 + 24 * i, 1);
                }
            }
            case 74 -> s.u16(at + 8, 1).u16(at + 12, 2); // CPU_MAP of type 2 (range): any_cpu, pad; start, end
            case 78 -> { // EVENT_UPDATE: type, id; UNIT string or SCALE double
                long kind = s.in.getLong(at + 8);
                s.u64(at + 8, 2);
                if (kind == 1) {
                    s.u64(at + 24, 1);
                }
            }
            default -> {
                // FINISHED_INIT, FINISHED_ROUND: the header only
            }
        }
        if (type < 64 && type != 9) {
            s.u32(end - TRAILER, 2).u64(end - TRAILER + 8, 1).u32(end - TRAILER + 16, 2);
        }
    }

    /** Copies numbers from the little-endian original to the same place of the big-endian copy. */
    private record Swap(ByteBuffer in, ByteBuffer out) {
        Swap u64(int at, int count) {
            for (int i = 0; i < count; i++) {
                out.putLong(at + 8 * i, in.getLong(at + 8 * i));
            }
            return this;
        }

        Swap u32(int at, int count) {
            for (int i = 0; i < count; i++) {
                out.putInt(at + 4 * i, in.getInt(at + 4 * i));
            }
            return this;
        }

        Swap u16(int at, int count) {
            for (int i = 0; i < count; i++) {
                out.putShort(at + 2 * i, in.getShort(at + 2 * i));
            }
            return this;
        }
    }
}
