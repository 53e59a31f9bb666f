package dev.cardcatalog.job;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/**
 * A job's state (SERVICE.md §6.1): the {@code job.state} column and the {@code state} member of {@code /api/jobs}.
 * A job is in flight while it is {@link #QUEUED}, {@link #RUNNING} or {@link #WAITING}; the other four are final.
 */
public enum JobState {
    /** Registered, waiting for an instance to claim it. */
    QUEUED("queued"),
    /** A run of it is under way on some instance. */
    RUNNING("running"),
    /** Its last run failed in a way that is retried; it comes back at {@code retry_at} through the delay topic. */
    WAITING("waiting"),
    SUCCEEDED("succeeded"),
    /** Nothing to do (a refresh whose catalog version was already applied, or a second job of a kind in flight). */
    SKIPPED("skipped"),
    FAILED("failed"),
    /**
     * An operator cancelled it (SERVICE.md §6.6): at once when it was queued or waiting, at its run's next
     * checkpoint when it was running. A command for it that comes later changes nothing.
     */
    CANCELLED("cancelled");

    private final String wire;

    JobState(String wire) {
        this.wire = wire;
    }

    /** The name in the ledger and on the wire: {@code queued}, {@code running}, ... */
    @JsonValue
    public String wire() {
        return wire;
    }

    /** The wire name, so that a state reads in messages as it does in the API. */
    @Override
    public String toString() {
        return wire;
    }

    /** Whether a job in this state still holds its kind's one in-flight place. */
    public boolean inFlight() {
        return this == QUEUED || this == RUNNING || this == WAITING;
    }

    /** The state named {@code text}; empty for any other text (null included). */
    public static Optional<JobState> fromWire(String text) {
        for (JobState state : values()) {
            if (state.wire.equals(text)) {
                return Optional.of(state);
            }
        }
        return Optional.empty();
    }
}
