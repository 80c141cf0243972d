package dev.dfx.java;

import java.nio.charset.StandardCharsets;

/**
 * The bytes a lane-table entry keeps for its thread's name ({@code threadName}, {@code docs/region-abi.md}): UTF-8,
 * at most {@code THREAD_NAME_BYTES - 1} (15) bytes, cut at a character boundary, zero-padded to 16 bytes, as Linux
 * keeps a thread's {@code comm} and as {@code dfx_thread_name} in {@code include/dfx.h} cuts a name. Stateless.
 */
final class ThreadNames {
    private ThreadNames() {
    }

    /**
     * @param name a thread's name (null: empty)
     * @return 16 bytes: the name's UTF-8, cut to at most 15 bytes without splitting a character, then zeros
     */
    static byte[] entryBytes(String name) {
        byte[] out = new byte[Region.THREAD_NAME_BYTES];
        if (name == null) {
            return out;
        }
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        int n = utf8.length;
        if (n > Region.THREAD_NAME_BYTES - 1) {
            n = Region.THREAD_NAME_BYTES - 1;
            while (n > 0 && (utf8[n] & 0xC0) == 0x80) {
                n--; // utf8[n] continues the character before it: cut before that character
            }
        }
        System.arraycopy(utf8, 0, out, 0, n);
        return out;
    }
}
