package dev.dfx.cli;

import picocli.CommandLine;

/** Supplies {@code dfx --version} from the jar manifest (falls back to "dev" when run from classes). */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        // the property Runtime.version() is parsed from, as it prints it (Runtime.Version's toString joins its parts
        // with streams, whose classes nothing else in `dfx --version` loads); a StringBuilder, not string
        // concatenation, whose invokedynamic call site would be linked at run time
        return new String[] {new StringBuilder("dfx ").append(v == null ? "dev" : v).append(" (Java ")
            .append(System.getProperty("java.runtime.version")).append(')').toString()};
    }
}
