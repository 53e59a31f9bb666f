package dev.cardcatalog.job;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.UUID;

/**
 * A command on {@code card-catalog.commands} (SERVICE.md §6.2): {@code {"type": "refresh" | "art-build",
 * "jobId": "<uuid, optional>", "trigger": "manual" | "scheduled" | "api"}}. Other members are ignored.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Command(@JsonProperty("type") String type, @JsonProperty("jobId") UUID jobId,
        @JsonProperty("trigger") String trigger) {

    public static Command of(JobKind kind, UUID jobId, JobTrigger trigger) {
        return new Command(kind.wire(), jobId, trigger.wire());
    }

    public JobKind kind() {
        return JobKind.fromWire(type).orElseThrow();
    }

    public JobTrigger jobTrigger() {
        return JobTrigger.fromWire(trigger).orElseThrow();
    }
}
