package dev.cardcatalog.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Publishes commands, keyed by the job kind: to {@code card-catalog.commands} to run now, and to
 * {@code card-catalog.commands.delayed} to come back later (SERVICE.md §6.2). Every Uni completes when the broker
 * has the record ({@code acks=all}), so no caller reports work accepted that Kafka did not take.
 */
@ApplicationScoped
public class CommandPublisher {

    /** The retry count of a retried command: decimal, exactly one header. */
    public static final String RETRY_COUNT = "retry-count";
    /** When a delayed command may run, epoch milliseconds. */
    public static final String NOT_BEFORE = "not-before";
    /** The wait the source asked for, whole seconds; absent when it gave none. */
    public static final String RETRY_AFTER_ASKED = "retry-after-asked";
    /** Why the command is retried, short text. */
    public static final String RETRY_REASON = "retry-reason";

    private static final int MAX_REASON = 200;

    private final MutinyEmitter<String> commands;
    private final MutinyEmitter<String> delayed;
    private final ObjectMapper json;

    public CommandPublisher(@Channel("commands-out") MutinyEmitter<String> commands,
            @Channel("delayed-out") MutinyEmitter<String> delayed, ObjectMapper json) {
        this.commands = commands;
        this.delayed = delayed;
        this.json = json;
    }

    /**
     * Publishes {@code command} to the commands topic.
     *
     * @param retryCount the job's retry count, sent as the {@code retry-count} header when above 0
     * @param carried headers to carry over unchanged
     */
    public Uni<Void> publish(Command command, int retryCount, List<CarriedHeader> carried) {
        RecordHeaders headers = carry(carried);
        if (retryCount > 0) {
            headers.add(RETRY_COUNT, ascii(Integer.toString(retryCount)));
        }
        return send(commands, command.type(), value(command), headers);
    }

    /**
     * Publishes {@code command} to the delayed topic, to come back no sooner than {@code notBefore}.
     *
     * @param retryCount the new retry count (1 for the first retry)
     * @param retryAfterAsked the wait the source asked for, when it gave one
     * @param reason why, shortened to 200 characters
     */
    public Uni<Void> publishDelayed(Command command, int retryCount, Instant notBefore,
            Optional<Duration> retryAfterAsked, String reason, List<CarriedHeader> carried) {
        RecordHeaders headers = carry(carried);
        headers.add(RETRY_COUNT, ascii(Integer.toString(retryCount)));
        headers.add(NOT_BEFORE, ascii(Long.toString(notBefore.toEpochMilli())));
        retryAfterAsked.ifPresent(asked -> headers.add(RETRY_AFTER_ASKED, ascii(Long.toString(asked.toSeconds()))));
        String shortReason = reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON - 1) + "…" : reason;
        headers.add(RETRY_REASON, shortReason.getBytes(StandardCharsets.UTF_8));
        return send(delayed, command.type(), value(command), headers);
    }

    /** Puts a delayed record back on the commands topic as it is: key, value and every header. */
    public Uni<Void> forward(String key, byte[] value, Headers headers) {
        RecordHeaders copy = new RecordHeaders();
        headers.forEach(copy::add);
        return send(commands, key, new String(value, StandardCharsets.UTF_8), copy);
    }

    private static Uni<Void> send(MutinyEmitter<String> emitter, String key, String value, RecordHeaders headers) {
        Message<String> message = Message.of(value).addMetadata(OutgoingKafkaRecordMetadata.<String>builder()
                .withKey(key)
                .withHeaders(headers)
                .build());
        return emitter.sendMessage(message);
    }

    private String value(Command command) {
        try {
            return json.writeValueAsString(command);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static RecordHeaders carry(List<CarriedHeader> carried) {
        RecordHeaders headers = new RecordHeaders();
        if (carried != null) {
            for (CarriedHeader header : carried) {
                headers.add(header.name(), header.bytes());
            }
        }
        return headers;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
