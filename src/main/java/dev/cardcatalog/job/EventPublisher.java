package dev.cardcatalog.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.context.Context;
import io.quarkus.logging.Log;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Publishes events on {@code card-catalog.events} (SERVICE.md §6.6), keyed by event type: {@code catalog-refreshed}
 * (version, counts), {@code art-index-ready} (file name, count, digest), {@code job-failed} (id, kind, reason) and
 * {@code job-cancelled} (id, kind, who cancelled, the state it was in).
 * The value is JSON with {@code type}, {@code at} (ISO-8601 UTC), {@code jobId} and the event's members, named as
 * the commands name theirs (camelCase). A failed publish is
 * logged: the outcome is already in the ledger.
 */
@ApplicationScoped
public class EventPublisher {

    private final MutinyEmitter<String> events;
    private final ObjectMapper json;
    private final Clock clock;

    public EventPublisher(@Channel("events-out") MutinyEmitter<String> events, ObjectMapper json, Clock clock) {
        this.events = events;
        this.json = json;
        this.clock = clock;
    }

    public void catalogRefreshed(UUID jobId, String version, Map<String, Long> counts) {
        Map<String, Object> event = event("catalog-refreshed", jobId);
        event.put("version", version);
        event.put("counts", counts);
        send(event);
    }

    public void artIndexReady(UUID jobId, String fileName, long count, String digest) {
        Map<String, Object> event = event("art-index-ready", jobId);
        event.put("fileName", fileName);
        event.put("count", count);
        event.put("digest", digest);
        send(event);
    }

    public void jobFailed(UUID jobId, JobKind kind, String reason) {
        Map<String, Object> event = event("job-failed", jobId);
        event.put("kind", kind.wire());
        event.put("reason", reason);
        send(event);
    }

    /**
     * A job ended {@code cancelled} by an operator (SERVICE.md §6.6).
     *
     * @param by who cancelled
     * @param from the state it was cancelled in: {@code queued}, {@code waiting} or {@code running}
     */
    public void jobCancelled(UUID jobId, JobKind kind, String by, JobState from) {
        Map<String, Object> event = event("job-cancelled", jobId);
        event.put("kind", kind.wire());
        event.put("cancelledBy", by);
        event.put("from", from.wire());
        send(event);
    }

    private Map<String, Object> event(String type, UUID jobId) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("type", type);
        event.put("at", clock.instant().toString());
        event.put("jobId", jobId);
        return event;
    }

    private void send(Map<String, Object> event) {
        try {
            String value = json.writeValueAsString(event);
            // in the current trace (the run's): the producer instrumentation writes its traceparent
            events.sendMessage(JobTracing.within(Message.of(value).addMetadata(OutgoingKafkaRecordMetadata
                    .<String>builder().withKey((String) event.get("type")).build()), Context.current()))
                    .await().atMost(Duration.ofSeconds(30));
        } catch (JsonProcessingException | RuntimeException e) {
            Log.warnf("event %s could not be published: %s", event.get("type"), e.getMessage());
        }
    }
}
