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
            headers.add(CommandHeaders.RETRY_COUNT, CommandHeaders.ascii(Integer.toString(retryCount)));
        }
        return send(commands, command.type(), value(command), headers);
    }

    /**
     * Publishes {@code command} to the delayed topic, to come back no sooner than {@code notBefore}.
     *
     * @param retryCount the new retry count (1 for the first retry)
     * @param retryAfterAsked the wait the source asked for, when it gave one
     * @param reason why; escaped to printable text and cut at 200 code points
     */
    public Uni<Void> publishDelayed(Command command, int retryCount, Instant notBefore,
            Optional<Duration> retryAfterAsked, String reason, List<CarriedHeader> carried) {
        RecordHeaders headers = carry(carried);
        headers.add(CommandHeaders.RETRY_COUNT, CommandHeaders.ascii(Integer.toString(retryCount)));
        headers.add(CommandHeaders.NOT_BEFORE, CommandHeaders.ascii(Long.toString(notBefore.toEpochMilli())));
        retryAfterAsked.ifPresent(asked -> headers.add(CommandHeaders.RETRY_AFTER_ASKED, CommandHeaders.ascii(Long.toString(asked.toSeconds()))));
        headers.add(CommandHeaders.RETRY_REASON, CommandHeaders.retryReason(reason));
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
}
