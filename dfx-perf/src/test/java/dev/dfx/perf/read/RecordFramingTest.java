package dev.dfx.perf.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import dev.dfx.perf.Goldens;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.Auxtrace;
import dev.dfx.perf.script.FieldSelection;
import dev.dfx.perf.script.ScriptOptions;
import dev.dfx.perf.script.ScriptPrinter;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.text.TextSink;
import dev.dfx.perf.symbol.SymbolOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Record framing that the fixtures cannot show, on rebuilt copies of them: an AUXTRACE record followed by AUX
 * bytes its size does not count (they must be skipped), and PERF_RECORD_COMPRESSED2 (newer perf) carrying the
 * same zstd data as COMPRESSED. The script output must stay the fixture's golden.
 */
class RecordFramingTest {
    @TempDir
    Path dir;

    @Test
    void auxtracePayloadIsSkippedAndExposed() throws IOException {
        byte[] payload = new byte[64];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (0x80 + i);
        }
        ByteBuffer aux = ByteBuffer.allocate(48 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        aux.putInt(RecordType.AUXTRACE).putShort((short) 0).putShort((short) 48).putLong(payload.length)
            .putLong(0x1000).putLong(0).putInt(1).putInt(-1).putInt(1).putInt(0).put(payload);
        byte[] original = Files.readAllBytes(Goldens.fixture("irq-a.data"));
        byte[] file = Rewriter.rewrite(original, recs -> {
            List<byte[]> out = new ArrayList<>(recs);
            out.add(1, aux.array()); // right after ID_INDEX
            return out;
        });
        Path p = dir.resolve("aux.data");
        Files.write(p, file);
        assertThat(script(p)).isEqualTo(Goldens.read("irq-a.script.txt"));
        long at = ByteBuffer.wrap(original).order(ByteOrder.LITTLE_ENDIAN).getLong(40)
            + Rewriter.records(original).get(0).length;
        try (PerfSession s = PerfSession.open(p, "aux.data")) {
            List<Auxtrace> found = new ArrayList<>();
            int n = 0;
            for (var it = s.fileOrder(); it.hasNext(); n++) {
                TimedRecord t = it.next();
                if (t.record().type() == RecordType.AUXTRACE) {
                    Auxtrace a = Auxtrace.of(t.record());
                    found.add(a);
                    assertThat(t.record().fileOffset()).isEqualTo(at);
                    assertThat(a.payload().toArray(ValueLayout.JAVA_BYTE)).isEqualTo(payload);
                }
            }
            assertThat(found).hasSize(1);
            assertThat(found.get(0).idx()).isEqualTo(1);
            assertThat(found.get(0).payloadOffset()).isEqualTo(at + 48);
            assertThat(n).isEqualTo(Rewriter.records(original).size() + 1);
        }
    }

    @Test
    void compressed2ReadsLikeCompressed() throws IOException {
        byte[] original = Files.readAllBytes(Goldens.fixture("compressed-z.data"));
        byte[] file = Rewriter.rewrite(original, recs -> {
            List<byte[]> out = new ArrayList<>();
            for (byte[] r : recs) {
                ByteBuffer b = ByteBuffer.wrap(r).order(ByteOrder.LITTLE_ENDIAN);
                if (b.getInt(0) != RecordType.COMPRESSED) {
                    out.add(r);
                    continue;
                }
                // COMPRESSED2: {header; u64 data_size; data}, padded to 8 bytes
                int dataSize = r.length - 8;
                int size = (16 + dataSize + 7) & ~7;
                ByteBuffer c = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
                c.putInt(RecordType.COMPRESSED2).putShort((short) 0).putShort((short) size).putLong(dataSize)
                    .put(r, 8, dataSize);
                out.add(c.array());
            }
            return out;
        });
        Path p = dir.resolve("z2.data");
        Files.write(p, file);
        assertThat(script(p, "comm,tid,pid,time,event,period")).isEqualTo(Goldens.read("compressed-z.script-F.txt"));
    }

    @Test
    void zstdFramesSplitAcrossCompressedRecordsAreJoined() throws IOException {
        // one decompressed stream cut into two COMPRESSED records mid-record: the tail carries over
        byte[] original = Files.readAllBytes(Goldens.fixture("compressed-z.data"));
        byte[] file = Rewriter.rewrite(original, recs -> {
            List<byte[]> out = new ArrayList<>();
            for (byte[] r : recs) {
                if (ByteBuffer.wrap(r).order(ByteOrder.LITTLE_ENDIAN).getInt(0) != RecordType.COMPRESSED) {
                    out.add(r);
                    continue;
                }
                byte[] plain;
                try (ZstdUnpacker z = new ZstdUnpacker()) {
                    // perf's stream may lack a frame end; the streaming unpacker reads it as perf does
                    MemorySegment rec = MemorySegment.ofArray(r);
                    plain = z.unpack(rec.asSlice(8), new byte[0],
                        new PerfRecord(rec, 0, Endian.LITTLE, 0, 0, null, false), new InputErrors("x", 0))
                        .toArray(ValueLayout.JAVA_BYTE);
                }
                int cut = plain.length / 2 + 3;
                out.add(compressed(Arrays.copyOfRange(plain, 0, cut)));
                out.add(compressed(Arrays.copyOfRange(plain, cut, plain.length)));
            }
            return out;
        });
        Path p = dir.resolve("split.data");
        Files.write(p, file);
        assertThat(script(p, "comm,tid,pid,time,event,period")).isEqualTo(Goldens.read("compressed-z.script-F.txt"));
    }

    private static byte[] compressed(byte[] plain) {
        byte[] z = Zstd.compress(plain);
        int size = 8 + z.length; // perf 6.1 does not pad COMPRESSED records (COMPRESSED2 exists for that)
        ByteBuffer c = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        c.putInt(RecordType.COMPRESSED).putShort((short) 0).putShort((short) size).put(z);
        return c.array();
    }

    private static String script(Path p, String... fields) {
        FieldSelection sel = new FieldSelection(new PrintWriter(OutputStream.nullOutputStream()));
        for (String f : fields) {
            sel.parse(f);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PerfSession s = PerfSession.open(p, p.getFileName().toString())) {
            TextSink out = new TextSink(bytes);
            new ScriptPrinter(s, new ScriptOptions(sel, false, false, false, false, false, false, false,
                SymbolOptions.OFF), out).run();
            out.flush();
        }
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }
}
