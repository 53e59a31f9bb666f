package dev.cardcatalog.job;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A job as {@code GET /api/jobs/{id}} shows it, with its runs newest first. {@code interrupted} is true for a
 * running job whose current run's heartbeat is older than the kind's stale threshold (SERVICE.md §6.1).
 * {@code cancelRequestedAt} and {@code cancelledBy} say when and by whom an operator cancelled it (SERVICE.md §6.6;
 * a running job keeps running until its next checkpoint). {@code acceptFewerArtworks} and {@code consentedBy} say
 * whether an art build may publish an index with fewer artworks than the current one, and who consented
 * (SERVICE.md §5.8). {@code traceId} is the W3C trace id (32 hex digits) of the trace the job belongs to
 * (SERVICE.md §9), null when it has none.
 */
public record JobView(UUID id, String kind, String trigger, JobState state, boolean interrupted, int retryCount,
        @Schema(nullable = true) Instant retryAt, @Schema(nullable = true) String lastError,
        @Schema(nullable = true) String message, String source, Instant createdAt, Instant updatedAt,
        @Schema(nullable = true) Instant finishedAt, @Schema(nullable = true) Instant cancelRequestedAt,
        @Schema(nullable = true) String cancelledBy, boolean acceptFewerArtworks,
        @Schema(nullable = true) String consentedBy, @Schema(nullable = true) String traceId, List<RunView> runs) {

    /** One run: its stage, done/total for the stage (bytes or records), counts so far, heartbeat. */
    public record RunView(UUID id, int attempt, RunStatus status, @Schema(nullable = true) String stage,
            @Schema(nullable = true) Long done, @Schema(nullable = true) Long total, Map<String, Long> counts,
            @Schema(nullable = true) String message, @Schema(nullable = true) String version,
            @Schema(nullable = true) String languages, String owner, Instant startedAt, Instant heartbeatAt,
            Instant progressedAt, @Schema(nullable = true) Instant finishedAt) {
    }
}
