package dev.dfx.perf.unwind;

/**
 * A Common Information Entry as the unwinder uses it. Immutable.
 *
 * @param codeAlign    code alignment factor
 * @param dataAlign    data alignment factor (signed)
 * @param raColumn     the return address column
 * @param fdeEncoding  the {@code DW_EH_PE_*} encoding of its FDEs' addresses ('R' augmentation; else 8 bytes absolute)
 * @param lsdaEncoding the LSDA pointer encoding ('L'), {@code DW_EH_PE_omit} without one
 * @param signalFrame  whether its frames are signal frames ('S': the address is not a return address)
 * @param sized        whether the augmentation data has a size ('z')
 * @param instrStart   address of its initial instructions
 * @param instrEnd     address after them (the end of the entry)
 */
record Cie(long codeAlign, long dataAlign, long raColumn, int fdeEncoding, int lsdaEncoding, boolean signalFrame,
           boolean sized, long instrStart, long instrEnd) {
}
