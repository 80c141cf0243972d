package dev.dfx.java;

/** The user-event record's type codes and flags (docs/region-abi.md, "User-event record"; dfx.h's dfx_event_type). */
final class UserEvents {
    static final int SLICE_BEGIN = 1;
    static final int SLICE_END = 2;
    static final int SLICE_COMPLETE = 3;
    static final int INSTANT = 4;
    static final int COUNTER = 5;
    static final int FLOW_BEGIN = 6;
    static final int FLOW_STEP = 7;
    static final int FLOW_END = 8;
    /** Flags bit 0: the time (and a complete slice's duration) is TSC ticks, which the host converts to ns. */
    static final int FLAG_TSC = 1;
    /** Flags bit 1: the value word is an IEEE-754 double. */
    static final int FLAG_F64 = 2;

    private UserEvents() {
    }
}
