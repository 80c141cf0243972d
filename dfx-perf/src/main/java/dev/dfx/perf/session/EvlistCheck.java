package dev.dfx.perf.session;

import dev.dfx.perf.read.AttrEntry;
import dev.dfx.perf.read.InputErrors;
import dev.dfx.pmu.attr.AttrFlags;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.ReadFormat;
import dev.dfx.pmu.attr.SampleType;
import java.util.List;

/**
 * The checks perf makes of a file's events before reading any record ({@code session.c perf_session__open}):
 * every event must place the sample id where the first event places it ({@code evlist__valid_sample_type}), agree
 * on {@code sample_id_all} ({@code evlist__valid_sample_id_all}), and PERF_SAMPLE_READ needs PERF_FORMAT_ID
 * ({@code evlist__valid_read_format}). Records are matched to events by that id, so a file failing these would be
 * read with samples given to the wrong event or dropped. As in perf, pipe-mode data and files with a HEADER_STAT
 * feature are not checked. Stateless.
 */
final class EvlistCheck {
    private static final int SAMPLE_TYPE = PerfEventAttr.SAMPLE_TYPE_OFFSET;
    private static final int READ_FORMAT = PerfEventAttr.READ_FORMAT_OFFSET;
    /** The byte of the flags word that holds {@code sample_id_all}, in a little-endian reading as perf points at. */
    private static final int SAMPLE_ID_ALL_BYTE = PerfEventAttr.FLAGS_OFFSET
        + Long.numberOfTrailingZeros(AttrFlags.SAMPLE_ID_ALL) / Byte.SIZE;

    private EvlistCheck() {
    }

    /**
     * @param attrs  the attrs section of the file, in order
     * @param errors names the file in errors
     * @throws dev.dfx.error.BadInputException at the first attr that breaks a check (perf: "non matching
     *                                         sample_type", "non matching sample_id_all", "non matching read_format")
     */
    static void check(List<AttrEntry> attrs, InputErrors errors) {
        if (attrs.isEmpty()) {
            return;
        }
        AttrEntry first = attrs.get(0);
        long firstType = first.attr().sampleType();
        int idPos = Evsel.calcIdPos(firstType);
        int isPos = Evsel.calcIsPos(firstType);
        if (attrs.size() > 1 && (idPos < 0 || isPos < 0)) {
            throw errors.at(first.offset() + SAMPLE_TYPE, "sample_type 0x" + Long.toHexString(firstType) + " of"
                + " the first of " + attrs.size() + " events has neither ID nor IDENTIFIER; expected one, so that"
                + " records can be matched to their event (perf: non matching sample_type)");
        }
        for (int i = 1; i < attrs.size(); i++) {
            AttrEntry a = attrs.get(i);
            long type = a.attr().sampleType();
            if (Evsel.calcIdPos(type) != idPos || Evsel.calcIsPos(type) != isPos) {
                throw errors.at(a.offset() + SAMPLE_TYPE, "sample_type 0x" + Long.toHexString(type) + " of event "
                    + (i + 1) + " places the sample id elsewhere than sample_type 0x" + Long.toHexString(firstType)
                    + " of the first event (byte offset " + (first.offset() + SAMPLE_TYPE) + "); expected the same"
                    + " place for every event (perf: non matching sample_type)");
            }
        }
        for (int i = 1; i < attrs.size(); i++) {
            AttrEntry a = attrs.get(i);
            if (a.attr().sampleIdAll() != first.attr().sampleIdAll()) {
                throw errors.at(a.offset() + SAMPLE_ID_ALL_BYTE, "sample_id_all of event " + (i + 1) + " is "
                    + (a.attr().sampleIdAll() ? 1 : 0) + ", of the first event " + (first.attr().sampleIdAll() ? 1 : 0)
                    + "; expected the same for every event (perf: non matching sample_id_all)");
            }
        }
        long readFormat = first.attr().readFormat();
        if ((firstType & SampleType.READ) != 0 && (readFormat & ReadFormat.ID) == 0) {
            throw errors.at(first.offset() + READ_FORMAT, "read_format 0x" + Long.toHexString(readFormat) + " of the"
                + " first event lacks ID (0x4), which its sample_type READ needs (perf: non matching read_format)");
        }
    }
}
