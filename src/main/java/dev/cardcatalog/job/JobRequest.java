package dev.cardcatalog.job;

import jakarta.validation.constraints.Pattern;

/**
 * The body of {@code POST /api/refreshes} and {@code POST /api/art-builds}, optional:
 * {@code {"trigger": "manual" | "scheduled" | "api"}}, {@code manual} when absent. The weekly CronJob sends
 * {@code scheduled}, which skips a refresh of a version already applied.
 */
public record JobRequest(
        @Pattern(regexp = "manual|scheduled|api", message = "must be manual, scheduled or api") String trigger) {

    JobTrigger jobTrigger() {
        return trigger == null ? JobTrigger.MANUAL : JobTrigger.fromWire(trigger).orElseThrow();
    }
}
