package dev.dfx.cli;

import picocli.CommandLine;

/** Supplies {@code dfx --version} from the jar manifest (falls back to "dev" when run from classes). */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[] {"dfx " + (v == null ? "dev" : v) + " (Java " + Runtime.version() + ")"};
    }
}
