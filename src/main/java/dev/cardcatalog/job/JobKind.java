package dev.cardcatalog.job;

import java.util.Optional;

/** The kinds of work: a job's {@code kind}, a command's {@code type}, and the commands topic's record key. */
public enum JobKind {
    REFRESH("refresh"),
    ART_BUILD("art-build");

    private final String wire;

    JobKind(String wire) {
        this.wire = wire;
    }

    /** The name on the wire and in the ledger: {@code refresh}, {@code art-build}. */
    public String wire() {
        return wire;
    }

    public static Optional<JobKind> fromWire(String text) {
        for (JobKind kind : values()) {
            if (kind.wire.equals(text)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }
}
