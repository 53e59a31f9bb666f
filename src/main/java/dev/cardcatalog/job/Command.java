package dev.cardcatalog.job;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.UUID;

/**
 * A command on {@code card-catalog.commands} (SERVICE.md §6.2): {@code {"type": "refresh" | "art-build",
 * "jobId": "<uuid, optional>", "trigger": "manual" | "scheduled" | "api", "acceptFewerArtworks": true}}. The last
 * member is optional and only for {@code art-build}: the sender's consent to publish an index with fewer artworks
 * than the current one (SERVICE.md §5.8). Other members are ignored.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Command(@JsonProperty("type") String type, @JsonProperty("jobId") UUID jobId,
        @JsonProperty("trigger") String trigger,
        @JsonProperty("acceptFewerArtworks") Boolean acceptFewerArtworks) {

    public Command(String type, UUID jobId, String trigger) {
        this(type, jobId, trigger, null);
    }

    public static Command of(JobKind kind, UUID jobId, JobTrigger trigger) {
        return new Command(kind.wire(), jobId, trigger.wire());
    }

    /** The command of an art build with the consent to publish fewer artworks; {@link #of} when not consented. */
    public static Command of(JobKind kind, UUID jobId, JobTrigger trigger, boolean acceptFewerArtworks) {
        return new Command(kind.wire(), jobId, trigger.wire(), acceptFewerArtworks ? Boolean.TRUE : null);
    }

    public JobKind kind() {
        return JobKind.fromWire(type).orElseThrow();
    }

    public JobTrigger jobTrigger() {
        return JobTrigger.fromWire(trigger).orElseThrow();
    }

    /** Whether the sender consented to a smaller art index (SERVICE.md §5.8). */
    public boolean acceptsFewerArtworks() {
        return Boolean.TRUE.equals(acceptFewerArtworks);
    }
}
