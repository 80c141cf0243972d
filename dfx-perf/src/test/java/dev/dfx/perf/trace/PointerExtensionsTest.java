package dev.dfx.perf.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.data.Endian;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The printk pointer extensions over a hand-built record, each expected text worked out by hand from the kernel's
 * printk-formats rules as libtraceevent implements them: byte order of IPv4 (n/b/h/l), RFC 5952 compression of
 * IPv6 (longest zero run, no single-group run, IPv4-mapped and ISATAP tails), sockaddr by family with ports,
 * MAC separators and reversal, UUID and GUID byte orders, hex dumps of dynamic arrays, and the texts for fields of
 * the wrong size or arguments that are no field.
 */
class PointerExtensionsTest {
    private static final String FORMAT = """
        name: net_event
        ID: 9
        format:
        \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
        \tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
        \tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
        \tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

        \tfield:__u8 v4[4];\toffset:8;\tsize:4;\tsigned:0;
        \tfield:__u8 mac[6];\toffset:12;\tsize:6;\tsigned:0;
        \tfield:__u8 short3[3];\toffset:18;\tsize:3;\tsigned:0;
        \tfield:__u8 v6[16];\toffset:24;\tsize:16;\tsigned:0;
        \tfield:__u8 mapped[16];\toffset:40;\tsize:16;\tsigned:0;
        \tfield:__u8 sin[28];\toffset:56;\tsize:28;\tsigned:0;
        \tfield:__u8 sin6[28];\toffset:84;\tsize:28;\tsigned:0;
        \tfield:__u8 uuid[16];\toffset:112;\tsize:16;\tsigned:0;
        \tfield:__data_loc __u8[] buf;\toffset:128;\tsize:4;\tsigned:0;
        \tfield:__u8 isatap[16];\toffset:136;\tsize:16;\tsigned:0;
        \tfield:__u8 zeros[16];\toffset:152;\tsize:16;\tsigned:0;

        print fmt: %s
        """;

    /**
     * v4 192.168.1.20; mac 00:1b:21:3a:4f:5e; v6 2001:db8:0:0:1:0:0:1; mapped ::ffff:10.0.0.1; sin AF_INET
     * 127.0.0.1 port 8080; sin6 AF_INET6 fe80::1 port 443; uuid bytes 00..0f; buf 5 bytes de ad be ef 01; isatap
     * fe80::5efe:192.0.2.1 (bytes 8..11 00 00 5e fe); zeros all zero.
     */
    private static RawData record(Endian endian) {
        ByteBuffer b = ByteBuffer.allocate(176).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(0, (short) 9);
        b.put(8, new byte[] {(byte) 192, (byte) 168, 1, 20});
        b.put(12, new byte[] {0x00, 0x1b, 0x21, 0x3a, 0x4f, 0x5e});
        b.put(24, new byte[] {0x20, 0x01, 0x0d, (byte) 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1});
        b.put(40, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 0, 0, 1});
        b.put(56, new byte[] {2, 0, 0x1f, (byte) 0x90, 127, 0, 0, 1}); // family LE, port BE 8080
        b.put(84, new byte[] {10, 0, 0x01, (byte) 0xbb, 0, 0, 0, 0, (byte) 0xfe, (byte) 0x80, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 1});
        for (int i = 0; i < 16; i++) {
            b.put(112 + i, (byte) i);
        }
        b.putInt(128, (5 << 16) | 168); // __data_loc: offset 168, length 5
        b.put(136, new byte[] {(byte) 0xfe, (byte) 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0x5e, (byte) 0xfe, (byte) 192, 0,
            2, 1});
        b.put(168, new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef, 1});
        return new RawData(MemorySegment.ofArray(b.array()), 0, 176, endian);
    }

    private static String print(String printFmt, Endian endian) {
        EventFormat f = FormatParser.parse(FORMAT.replace("%s\n", printFmt + "\n"), "test", 8);
        StringBuilder sb = new StringBuilder();
        new EventPrinter(KernelSymbols.NONE, Map.of(), 8).print(f, record(endian), sb);
        return sb.toString();
    }

    @ParameterizedTest(name = "[{1}]")
    @CsvSource(delimiterString = " => ", quoteCharacter = '`', value = {
        // IPv4: network order by default and with n/b; h (host) and l reverse a little-endian recording's bytes
        "`\"%pI4\", REC->v4` => 192.168.1.20",
        "`\"%pi4\", REC->v4` => 192.168.001.020",
        "`\"%pI4n|%pI4b\", REC->v4, REC->v4` => 192.168.1.20|192.168.1.20",
        "`\"%pI4h|%pI4l\", REC->v4, REC->v4` => 20.1.168.192|20.1.168.192",
        "`\"%pI4!\", REC->short3` => INVALIDIPv4!",
        "`\"%pI4\", (void *)REC->v4` => ARG TYPE NOT FIELD BUT 7",
        "`\"[%pI4]\", REC->nosuchfield` => []",
        // IPv6: full, without colons, compressed (longest zero run; a single zero group is not compressed)
        "`\"%pI6\", REC->v6` => 2001:0db8:0000:0000:0001:0000:0000:0001",
        "`\"%pi6\", REC->v6` => 20010db8000000000001000000000001",
        "`\"%pI6c\", REC->v6` => 2001:db8::1:0:0:1",
        "`\"%pI6c\", REC->mapped` => ::ffff:10.0.0.1",
        "`\"%pI6c\", REC->isatap` => fe80::5efe:192.0.2.1",
        "`\"%pI6c\", REC->zeros` => ::",
        "`\"%pI6c\", REC->v4` => INVALIDIPv6",
        // sockaddr: by family, p adds the port (IPv6 in brackets), c compresses
        "`\"%pIS\", REC->sin` => 127.0.0.1",
        "`\"%pISpc\", REC->sin` => 127.0.0.1:8080",
        "`\"%pISpc\", REC->sin6` => [fe80::1]:443",
        "`\"%pISc\", REC->sin6` => fe80::1",
        "`\"%pIS\", REC->sin6` => fe80:0000:0000:0000:0000:0000:0000:0001",
        "`\"%piS\", REC->sin` => 127.000.000.001",
        "`\"<%pISpc>\", REC->zeros` => <>",
        "`\"%pISpc\", REC->v6` => ",
        // MAC: colons, dashes (F), none (m), reversed (R)
        "`\"%pM\", REC->mac` => 00:1b:21:3a:4f:5e",
        "`\"%pMF\", REC->mac` => 00-1b-21-3a-4f-5e",
        "`\"%pm\", REC->mac` => 001b213a4f5e",
        "`\"%pMR\", REC->mac` => 5e:4f:3a:21:1b:00",
        "`\"%pmR\", REC->mac` => 5e4f3a211b00",
        "`\"%pM\", REC->v4` => INVALIDMAC",
        // UUID: byte order as stored (b), upper case (B), GUID order (l, L)
        "`\"%pU\", REC->uuid` => 00010203-0405-0607-0809-0a0b0c0d0e0f",
        "`\"%pUb\", REC->uuid` => 00010203-0405-0607-0809-0a0b0c0d0e0f",
        "`\"%pUB\", REC->uuid` => 00010203-0405-0607-0809-0A0B0C0D0E0F",
        "`\"%pUl\", REC->uuid` => 03020100-0504-0706-0809-0a0b0c0d0e0f",
        "`\"%pUL\", REC->uuid` => 03020100-0504-0706-0809-0A0B0C0D0E0F",
        "`\"%pU\", REC->v6 + 1` => ARG TYPE NOT FIELD BUT 11",
        "`\"%pU\", REC->mac` => INVALIDUUID",
        // hex dumps of a dynamic array: * bytes (at most its length), 1 without *, separators C D N
        "`\"%*ph\", 4, __get_dynamic_array(buf)` => de ad be ef",
        "`\"%*phC\", 9, __get_dynamic_array(buf)` => de:ad:be:ef:01",
        "`\"%*phD\", 2, __get_dynamic_array(buf)` => de-ad",
        "`\"%*phN\", 5, __get_dynamic_array(buf)` => deadbeef01",
        "`\"%ph\", __get_dynamic_array(buf)` => de",
        "`\"%*ph\", 4, REC->mac` => ARG TYPE NOT FIELD BUT 2",
        // plain %p stays glibc's
        "`\"%p\", REC->v4` => 0x1401a8c0",
    })
    void printsLikeLibtraceevent(String printFmt, String expected) {
        assertThat(print(printFmt, Endian.LITTLE)).isEqualTo(expected == null ? "" : expected);
    }

    /** A big-endian recording's host order is its own: h keeps the bytes, l still reverses them. */
    @ParameterizedTest(name = "[{1}]")
    @CsvSource(delimiterString = " => ", quoteCharacter = '`', value = {
        "`\"%pI4h\", REC->v4` => 192.168.1.20",
        "`\"%pI4l\", REC->v4` => 20.1.168.192",
    })
    void hostOrderFollowsTheRecording(String printFmt, String expected) {
        assertThat(print(printFmt, Endian.BIG)).isEqualTo(expected);
    }
}
