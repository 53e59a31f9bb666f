package dev.cardcatalog.job;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.context.Context;
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
 * has the record ({@code acks=all}), so no caller reports work accepted that Kafka did not take. Every record is
 * published in a trace (SERVICE.md §9): the current one, or the one given; SmallRye's producer instrumentation
 * writes its {@code traceparent} (and {@code tracestate}).
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
        return send(commands, command.type(), value(command), headers, Context.current());
    }

    /**
     * Publishes the command of {@code job} to the commands topic again, at its retry count, with its carried
     * headers, in the job's own trace: for work done outside a delivery (the sweep's re-sends, a run handed back by
     * a stopping instance, an operator's run-now).
     */
    public Uni<Void> republish(JobLedger.JobRecord job) {
        RecordHeaders headers = carry(job.carriedHeaders());
        if (job.retryCount() > 0) {
            headers.add(CommandHeaders.RETRY_COUNT, CommandHeaders.ascii(Integer.toString(job.retryCount())));
        }
        return send(commands, job.command().type(), value(job.command()), headers, job.trace().context());
    }

    /**
     * Publishes {@code command} to the delayed topic, in the current trace (the failed run's), to come back no
     * sooner than {@code notBefore}.
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
        return send(delayed, command.type(), value(command), headers, Context.current());
    }

    /**
     * Puts a delayed record back on the commands topic as it is: key, value and every header but the trace
     * propagation ones, which the forward writes anew as a child of {@code trace} (the relay's consumer span of the
     * delayed record, itself a child of the failed run).
     */
    public Uni<Void> forward(String key, byte[] value, Headers headers, Context trace) {
        RecordHeaders copy = new RecordHeaders();
        headers.forEach(header -> {
            if (!JobTracing.PROPAGATION.contains(header.key())) {
                copy.add(header);
            }
        });
        return send(commands, key, new String(value, StandardCharsets.UTF_8), copy, trace);
    }

    private static Uni<Void> send(MutinyEmitter<String> emitter, String key, String value, RecordHeaders headers,
            Context trace) {
        Message<String> message = Message.of(value).addMetadata(OutgoingKafkaRecordMetadata.<String>builder()
                .withKey(key)
                .withHeaders(headers)
                .build());
        // the context is captured here, on the caller's thread: the producer may write the record on another
        return emitter.sendMessage(JobTracing.within(message, trace));
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
                // rows written before V15 may still hold a traceparent among their carried headers
                if (CarriedHeader.carried(header.name())) {
                    headers.add(header.name(), header.bytes());
                }
            }
        }
        return headers;
    }
}
