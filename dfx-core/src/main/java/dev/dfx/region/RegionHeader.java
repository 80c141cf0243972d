package dev.dfx.region;

import dev.dfx.pipeline.RegionLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The header of a region file, read and checked the way a producer checks it before attaching
 * ({@code docs/region-abi.md}, "Attaching"): magic, ABI version, byte order, header size, then that the file holds
 * every table the counts imply and every offset is where the layout of those counts puts it. Immutable.
 *
 * @param file             the file
 * @param fileSize         its size in bytes
 * @param layout           the layout its counts give
 * @param creatorPid       the host's pid
 * @param clockId          clock of the timestamps (1: CLOCK_MONOTONIC)
 * @param backstopNs       budget of one gate wait, ns
 * @param stallThresholdNs a wait longer than this is a stall, ns
 * @param fileBytes        bytes the file must have to cover every buffer block
 */
public record RegionHeader(Path file, long fileSize, RegionLayout layout, int creatorPid, int clockId,
        long backstopNs, long stallThresholdNs, long fileBytes) {

    /**
     * Reads and checks a region file's header.
     *
     * @throws RegionFormatException naming the file and field when it is not a usable region
     * @throws IOException           when the file cannot be read
     */
    public static RegionHeader read(Path file) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(RegionLayout.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        long size;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            size = ch.size();
            while (h.hasRemaining() && ch.read(h, h.position()) > 0) {
                // read the header, or what the file has of it
            }
        }
        int have = h.position();
        if (have < 4 || h.getInt((int) RegionLayout.H_MAGIC) != RegionLayout.MAGIC) {
            String got = have < 4 ? "the file has only " + have + " bytes"
                    : String.format("magic 0x%08x", h.getInt((int) RegionLayout.H_MAGIC));
            throw bad(file, "not a dfx region: " + got + " (field magic, byte 0), expected 0x50584644 (\"DFXP\")");
        }
        if (have < 8) {
            throw bad(file, "region too small: " + have + " bytes, the header alone is " + RegionLayout.HEADER_BYTES);
        }
        int version = h.getInt((int) RegionLayout.H_VERSION);
        if (version != RegionLayout.VERSION) {
            throw bad(file, "region ABI version " + Integer.toUnsignedString(version) + " (field version, byte 4); "
                    + "this dfx reads version " + RegionLayout.VERSION);
        }
        if (have < RegionLayout.HEADER_BYTES) {
            throw bad(file, "region too small: " + have + " bytes, the header alone is " + RegionLayout.HEADER_BYTES);
        }
        int order = h.getInt((int) RegionLayout.H_BYTE_ORDER);
        if (order != RegionLayout.BYTE_ORDER_MARK) {
            throw bad(file, String.format("byte order mark 0x%08x (field byteOrder, byte %d), expected 0x%08x "
                    + "(little-endian)", order, RegionLayout.H_BYTE_ORDER, RegionLayout.BYTE_ORDER_MARK));
        }
        expect(file, h, RegionLayout.H_HEADER_BYTES, "headerBytes", RegionLayout.HEADER_BYTES);
        expect(file, h, RegionLayout.H_MAX_BLOCKS, "maxBlocks", RegionLayout.MAX_BLOCKS);
        int producers = count(file, h, RegionLayout.H_PRODUCERS, "producers", 1 << 20);
        int lanes = count(file, h, RegionLayout.H_LANES, "lanes", 1 << 20);
        int kinds = count(file, h, RegionLayout.H_KINDS, "kinds", 1 << 16);
        int rqSize = count(file, h, RegionLayout.H_READY_QUEUE_SIZE, "readyQueueSize", 1 << 24);
        int slots = count(file, h, RegionLayout.H_SLOT_COUNT, "slotCount", 4096);
        int strings = h.getInt((int) RegionLayout.H_STRING_TABLE_BYTES);
        if (strings < 0 || strings % RegionLayout.PAD != 0) {
            throw bad(file, "field stringTableBytes (byte " + RegionLayout.H_STRING_TABLE_BYTES + ") is "
                    + Integer.toUnsignedString(strings) + ", expected a multiple of " + RegionLayout.PAD);
        }
        int processSlots = h.getInt((int) RegionLayout.H_PROCESS_SLOTS);
        if (processSlots < 0 || processSlots > 65536) {
            throw bad(file, "field processSlots (byte " + RegionLayout.H_PROCESS_SLOTS + ") is "
                    + Integer.toUnsignedString(processSlots) + ", expected 0..65536");
        }
        RegionLayout layout = new RegionLayout(producers, lanes, kinds, rqSize, slots, strings, processSlots);
        expectLong(file, h, RegionLayout.H_KIND_TABLE, "kindTableOffset", layout.kindEntry(0));
        expectLong(file, h, RegionLayout.H_LANE_TABLE, "laneTableOffset", layout.laneEntry(0));
        expectLong(file, h, RegionLayout.H_BLOCK_TABLE, "blockTableOffset", layout.blockTable());
        expectLong(file, h, RegionLayout.H_PROCESS_TABLE, "processTableOffset", layout.processTable());
        expectLong(file, h, RegionLayout.H_STRING_TABLES, "stringTablesOffset", layout.stringTables());
        expectLong(file, h, RegionLayout.H_READY_QUEUES, "readyQueuesOffset", layout.readyQueue(0));
        expectLong(file, h, RegionLayout.H_READY_QUEUE_STRIDE, "readyQueueStride", layout.readyQueueStride());
        expectLong(file, h, RegionLayout.H_LANE_STATES, "laneStatesOffset", layout.lane(0));
        expectLong(file, h, RegionLayout.H_LANE_STRIDE, "laneStride", layout.laneStride());
        expectLong(file, h, RegionLayout.H_REGION_BYTES, "regionBytes", layout.regionBytes());
        long fileBytes = h.getLong((int) RegionLayout.H_FILE_BYTES);
        if (size < layout.regionBytes() || fileBytes < layout.regionBytes() || size < fileBytes) {
            throw bad(file, "region too small: the file has " + size + " bytes; field regionBytes (byte "
                    + RegionLayout.H_REGION_BYTES + ") needs " + layout.regionBytes() + " and field fileBytes (byte "
                    + RegionLayout.H_FILE_BYTES + ") " + fileBytes);
        }
        return new RegionHeader(file, size, layout, h.getInt((int) RegionLayout.H_CREATOR_PID),
                h.getInt((int) RegionLayout.H_CLOCK_ID), h.getLong((int) RegionLayout.H_BACKSTOP_NS),
                h.getLong((int) RegionLayout.H_STALL_THRESHOLD_NS), fileBytes);
    }

    private static RegionFormatException bad(Path file, String what) {
        return new RegionFormatException(file + ": " + what);
    }

    private static void expect(Path file, ByteBuffer h, long at, String name, int want) {
        int v = h.getInt((int) at);
        if (v != want) {
            throw bad(file, "field " + name + " (byte " + at + ") is " + Integer.toUnsignedString(v) + ", expected "
                    + want);
        }
    }

    private static void expectLong(Path file, ByteBuffer h, long at, String name, long want) {
        long v = h.getLong((int) at);
        if (v != want) {
            throw bad(file, "field " + name + " (byte " + at + ") is " + Long.toUnsignedString(v)
                    + ", the layout of the header's counts puts it at " + want);
        }
    }

    private static int count(Path file, ByteBuffer h, long at, String name, int max) {
        int v = h.getInt((int) at);
        if (v < 1 || v > max) {
            throw bad(file, "field " + name + " (byte " + at + ") is " + Integer.toUnsignedString(v) + ", expected 1.."
                    + max);
        }
        return v;
    }
}
