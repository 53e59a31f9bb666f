package dev.cardcatalog.job;

import java.util.Optional;

/**
 * Who asked for a job (SERVICE.md §6.1): an operator ({@code manual}), the weekly CronJob ({@code scheduled}), or
 * another service ({@code api}). Only a scheduled refresh skips a version already applied.
 */
public enum JobTrigger {
    MANUAL("manual"),
    SCHEDULED("scheduled"),
    API("api");

    private final String wire;

    JobTrigger(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<JobTrigger> fromWire(String text) {
        for (JobTrigger trigger : values()) {
            if (trigger.wire.equals(text)) {
                return Optional.of(trigger);
            }
        }
        return Optional.empty();
    }
}
