package dev.dfx.runtime.graph;

/** The conflict behind a tensor edge. */
public enum Hazard {
    /** The successor reads (input or in-out) what the predecessor wrote. */
    RAW,
    /** The successor writes what the predecessor read. */
    WAR,
    /** The successor overwrites (output) what the predecessor wrote, with no reader in between. */
    WAW
}
