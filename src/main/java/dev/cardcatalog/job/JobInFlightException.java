package dev.cardcatalog.job;

import java.util.UUID;

/** A job of this kind is already queued, running or waiting; only one runs at a time (SERVICE.md §6.3). */
public class JobInFlightException extends RuntimeException {

    private final JobKind kind;
    private final UUID inFlight;

    public JobInFlightException(JobKind kind, UUID inFlight) {
        super("a " + kind.wire() + " job is already in flight: " + inFlight);
        this.kind = kind;
        this.inFlight = inFlight;
    }

    public JobKind kind() {
        return kind;
    }

    public UUID inFlight() {
        return inFlight;
    }
}
