package dev.cardcatalog.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Publishes commands to {@code card-catalog.commands}, keyed by the job kind. The returned Uni completes when the
 * broker has the record ({@code acks=all}), so a caller never reports work accepted that Kafka did not take.
 */
@ApplicationScoped
public class CommandPublisher {

    /** The header carrying a retried command's retry count (SERVICE.md §6.2). */
    public static final String RETRY_COUNT = "retry-count";

    private final MutinyEmitter<String> commands;
    private final ObjectMapper json;

    public CommandPublisher(@Channel("commands-out") MutinyEmitter<String> commands, ObjectMapper json) {
        this.commands = commands;
        this.json = json;
    }

    /**
     * Publishes {@code command}.
     *
     * @param retryCount the job's retry count, sent as the {@code retry-count} header when above 0
     */
    public Uni<Void> publish(Command command, int retryCount) {
        RecordHeaders headers = new RecordHeaders();
        if (retryCount > 0) {
            headers.add(RETRY_COUNT, Integer.toString(retryCount).getBytes(StandardCharsets.UTF_8));
        }
        String value;
        try {
            value = json.writeValueAsString(command);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(e);
        }
        Message<String> message = Message.of(value).addMetadata(OutgoingKafkaRecordMetadata.<String>builder()
                .withKey(command.type())
                .withHeaders(headers)
                .build());
        return commands.sendMessage(message);
    }
}
