package dev.dfx.perf.dwarf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One line number program of {@code .debug_line} (versions 2-5; DWARF 5 §6.2) run to its rows, grouped by sequence,
 * and its file table; looks up the row of an address and names its file as binutils' addr2line does
 * ({@code concat_filename}: a relative name below its directory, a relative directory below the unit's
 * {@code DW_AT_comp_dir}). Of rows at the same address in a sequence the last is kept (binutils'
 * {@code add_line_info}). Immutable once read.
 */
final class LineTable {
    /** Rows beyond this many in one program are refused. */
    private static final int MAX_ROWS = 1 << 24;
    private static final int LNCT_PATH = 1;
    private static final int LNCT_DIRECTORY_INDEX = 2;

    /** A row found: its file's index in the program's numbering and its line (0: none). */
    record Row(int file, long line) {
    }

    private final int version;
    private final String compDir;
    private final String[] dirs;
    private final String[] fileNames;
    private final int[] fileDirs;
    /** Per sequence: row addresses (the last is the end_sequence address), files and lines. */
    private final List<long[]> seqAddrs = new ArrayList<>();
    private final List<int[]> seqFiles = new ArrayList<>();
    private final List<long[]> seqLines = new ArrayList<>();

    private LineTable(int version, String compDir, String[] dirs, String[] fileNames, int[] fileDirs) {
        this.version = version;
        this.compDir = compDir;
        this.dirs = dirs;
        this.fileNames = fileNames;
        this.fileDirs = fileDirs;
    }

    /** @return the row holding {@code addr}, or {@code null} */
    Row find(long addr) {
        for (int s = 0; s < seqAddrs.size(); s++) {
            long[] a = seqAddrs.get(s);
            int n = a.length;
            if (n < 2 || Long.compareUnsigned(addr, a[0]) < 0 || Long.compareUnsigned(addr, a[n - 1]) >= 0) {
                continue;
            }
            int lo = 0;
            int hi = n - 2;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (Long.compareUnsigned(a[mid], addr) <= 0) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            return new Row(seqFiles.get(s)[lo], seqLines.get(s)[lo]);
        }
        return null;
    }

    /** @return the file's name as addr2line prints it, {@code null} for an index outside the table */
    String fileName(long file) {
        long i = file;
        if (version < 5) {
            if (i == 0) {
                return null;
            }
            i--;
        }
        if (i < 0 || i >= fileNames.length) {
            return null;
        }
        String name = fileNames[(int) i];
        if (name == null || name.startsWith("/")) {
            return name;
        }
        long dir = fileDirs[(int) i];
        if (version < 5) {
            dir--;
        }
        String sub = dir >= 0 && dir < dirs.length ? dirs[(int) dir] : null;
        String base = null;
        if (sub == null || !sub.startsWith("/")) {
            base = compDir;
        }
        if (base == null) {
            base = sub;
            sub = null;
        }
        if (base == null) {
            return name;
        }
        return sub != null ? base + "/" + sub + "/" + name : base + "/" + name;
    }

    /**
     * @param u      the unit whose {@code DW_AT_stmt_list} names the program (for string forms and comp_dir)
     * @param offset the program's offset in {@code .debug_line}
     */
    static LineTable read(Unit u, long offset) {
        DwarfSection sec = u.s.line;
        DwarfCursor c = sec.cursor(offset);
        long end = c.initialLength("a line program");
        int offsetSize = c.offsetSize();
        int version = c.u16();
        if (version < 2 || version > 5) {
            throw c.error("line program version " + version + ", expected 2 to 5");
        }
        int addrSize = u.addrSize;
        if (version >= 5) {
            addrSize = c.u8();
            c.u8(); // segment selector size
        }
        long headerLength = c.unsigned(offsetSize);
        long program = c.pos() + headerLength;
        if (headerLength < 0 || program > end) {
            throw c.error("a line program header of " + Long.toUnsignedString(headerLength) + " bytes past its end");
        }
        int minInst = c.u8();
        if (version >= 4) {
            c.u8(); // maximum operations per instruction: VLIW only
        }
        boolean defaultIsStmt = c.u8() != 0;
        int lineBase = (byte) c.u8();
        int lineRange = c.u8();
        int opcodeBase = c.u8();
        if (lineRange == 0) {
            throw c.error("line_range 0");
        }
        int[] opLengths = new int[Math.max(opcodeBase, 1)];
        for (int i = 1; i < opcodeBase; i++) {
            opLengths[i] = c.u8();
        }
        List<String> dirs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<Integer> fileDirs = new ArrayList<>();
        if (version >= 5) {
            entries(u, c, dirs, null, offsetSize);
            entries(u, c, names, fileDirs, offsetSize);
        } else {
            while (true) {
                String d = c.cstring();
                if (d.isEmpty()) {
                    break;
                }
                dirs.add(d);
            }
            while (true) {
                String f = c.cstring();
                if (f.isEmpty()) {
                    break;
                }
                names.add(f);
                fileDirs.add(c.ulebInt("directory index"));
                c.uleb();
                c.uleb();
            }
        }
        int[] fd = new int[fileDirs.size()];
        for (int i = 0; i < fd.length; i++) {
            fd[i] = fileDirs.get(i);
        }
        LineTable t = new LineTable(version, u.compDir, dirs.toArray(String[]::new), names.toArray(String[]::new),
            fd);
        c.seek(program);
        t.run(c, end, addrSize, minInst, defaultIsStmt, lineBase, lineRange, opcodeBase, opLengths, names, fileDirs);
        return t;
    }

    private static void entries(Unit u, DwarfCursor c, List<String> names, List<Integer> dirIndexes, int offsetSize) {
        int formats = c.u8();
        int[] types = new int[formats];
        int[] forms = new int[formats];
        for (int i = 0; i < formats; i++) {
            types[i] = c.ulebInt("content type");
            forms[i] = c.ulebInt("form");
        }
        int count = c.ulebInt("entry count");
        for (int e = 0; e < count; e++) {
            String name = null;
            int dir = 0;
            for (int i = 0; i < formats; i++) {
                long v;
                String str = null;
                switch (forms[i]) {
                    case Dw.FORM_STRING -> {
                        str = c.cstring();
                        v = 0;
                    }
                    case Dw.FORM_LINE_STRP -> {
                        long at = c.pos();
                        v = c.unsigned(offsetSize);
                        str = u.s.lineStr.stringAt(v, u.s.line, at);
                    }
                    case Dw.FORM_STRP -> {
                        long at = c.pos();
                        v = c.unsigned(offsetSize);
                        str = u.s.str.stringAt(v, u.s.line, at);
                    }
                    case Dw.FORM_UDATA -> v = c.uleb();
                    case Dw.FORM_DATA1 -> v = c.u8();
                    case Dw.FORM_DATA2 -> v = c.u16();
                    case Dw.FORM_DATA4 -> v = c.u32();
                    case Dw.FORM_DATA8 -> v = c.u64();
                    case Dw.FORM_DATA16 -> {
                        c.skip(16);
                        v = 0;
                    }
                    case Dw.FORM_BLOCK -> {
                        c.skip(c.uleb());
                        v = 0;
                    }
                    default -> throw c.error("line table entry form 0x" + Integer.toHexString(forms[i]) + " unknown");
                }
                if (types[i] == LNCT_PATH) {
                    name = str;
                } else if (types[i] == LNCT_DIRECTORY_INDEX) {
                    dir = (int) Math.min(v, Integer.MAX_VALUE);
                }
            }
            names.add(name);
            if (dirIndexes != null) {
                dirIndexes.add(dir);
            }
        }
    }

    @SuppressWarnings("checkstyle:ParameterNumber")
    private void run(DwarfCursor c, long end, int addrSize, int minInst, boolean defaultIsStmt, int lineBase,
                     int lineRange, int opcodeBase, int[] opLengths, List<String> names, List<Integer> fileDirs) {
        Seq seq = new Seq();
        long address = 0;
        long file = 1;
        long line = 1;
        int rows = 0;
        while (c.pos() < end) {
            int op = c.u8();
            if (++rows > MAX_ROWS) {
                throw c.error("more than " + MAX_ROWS + " line program operations");
            }
            if (op >= opcodeBase) {
                int adj = op - opcodeBase;
                address += (long) (adj / lineRange) * minInst;
                line += lineBase + adj % lineRange;
                seq.add(address, file, line);
            } else if (op == 0) {
                long len = c.uleb();
                long next = c.pos() + len;
                if (len <= 0 || next > end) {
                    throw c.error("an extended opcode of " + len + " bytes past the program's end");
                }
                int sub = c.u8();
                switch (sub) {
                    case 1 -> {
                        seq.end(address);
                        flush(seq);
                        seq = new Seq();
                        address = 0;
                        file = 1;
                        line = 1;
                    }
                    case 2 -> address = c.unsigned(len - 1 == 4 ? 4 : len - 1 == 8 ? 8 : addrSize);
                    case 3 -> {
                        names.add(c.cstring());
                        fileDirs.add(c.ulebInt("directory index"));
                    }
                    default -> {
                    }
                }
                c.seek(next);
            } else {
                switch (op) {
                    case 1 -> seq.add(address, file, line);
                    case 2 -> address += c.uleb() * minInst;
                    case 3 -> line += c.sleb();
                    case 4 -> file = c.uleb();
                    case 9 -> address += c.u16();
                    case 8 -> address += (long) ((255 - opcodeBase) / lineRange) * minInst;
                    default -> {
                        for (int i = 0; i < opLengths[op]; i++) {
                            c.uleb();
                        }
                    }
                }
            }
        }
    }

    private void flush(Seq s) {
        if (s.n >= 2) {
            seqAddrs.add(Arrays.copyOf(s.addrs, s.n));
            seqFiles.add(Arrays.copyOf(s.files, s.n));
            seqLines.add(Arrays.copyOf(s.lines, s.n));
        }
    }

    /** The rows of one sequence as they are emitted. */
    private static final class Seq {
        long[] addrs = new long[16];
        int[] files = new int[16];
        long[] lines = new long[16];
        int n;

        void add(long address, long file, long line) {
            if (n > 0 && addrs[n - 1] == address) {
                n--; // binutils keeps the last row at an address
            } else if (n == addrs.length) {
                addrs = Arrays.copyOf(addrs, n * 2);
                files = Arrays.copyOf(files, n * 2);
                lines = Arrays.copyOf(lines, n * 2);
            }
            addrs[n] = address;
            files[n] = (int) Math.min(Math.max(file, -1), Integer.MAX_VALUE);
            lines[n] = line;
            n++;
        }

        void end(long address) {
            add(address, 0, 0);
        }
    }
}
