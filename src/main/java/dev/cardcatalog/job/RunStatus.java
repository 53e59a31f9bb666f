package dev.cardcatalog.job;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** A run's status (SERVICE.md §6.1): the {@code job_run.status} column and a run's {@code status} member. */
public enum RunStatus {
    /** Under way; its heartbeat says whether its instance is alive. */
    RUNNING("running"),
    /** Finished with its work done: a refresh applied, an art index written. */
    APPLIED("applied"),
    /** Finished with nothing to do. */
    SKIPPED("skipped"),
    FAILED("failed"),
    /** Ended without an outcome: its instance stopped or its heartbeat went stale, and the job was queued again. */
    INTERRUPTED("interrupted"),
    /** Stopped at a checkpoint because an operator cancelled its job; what it wrote stays, as after an interruption. */
    CANCELLED("cancelled");

    private final String wire;

    RunStatus(String wire) {
        this.wire = wire;
    }

    /** The name in the ledger and on the wire: {@code running}, {@code applied}, ... */
    @JsonValue
    public String wire() {
        return wire;
    }

    /** The wire name, so that a status reads in messages as it does in the API. */
    @Override
    public String toString() {
        return wire;
    }

    /** The status named {@code text}; empty for any other text (null included). */
    public static Optional<RunStatus> fromWire(String text) {
        for (RunStatus status : values()) {
            if (status.wire.equals(text)) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }
}
