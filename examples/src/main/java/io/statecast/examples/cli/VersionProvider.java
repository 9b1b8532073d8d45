package io.statecast.examples.cli;

import picocli.CommandLine;

/** Reports the version from the jar manifest (falls back to "development" when run from classes). */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = StatecastCommand.class.getPackage().getImplementationVersion();
        return new String[] {"statecast " + (v == null ? "development" : v)};
    }
}
