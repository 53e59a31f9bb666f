package dev.cardcatalog.job;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkus.logging.Log;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Consumes {@code card-catalog.commands} (SERVICE.md §6.3): registers each command in the ledger, acknowledges the
 * record and hands a claimed job to {@link JobWorker}. Work never holds a record. A record that is not a valid
 * command is nacked with the reason and lands on {@code card-catalog.commands.dlq} (the channel's dead-letter-queue
 * failure strategy adds the {@code dead-letter-reason} header); the consumer carries on.
 */
@ApplicationScoped
public class CommandConsumer {

    private static final int LEDGER_ATTEMPTS = 5;

    private final JobLedger ledger;
    private final JobWorker worker;
    private final Counter earlyDeliveries;

    public CommandConsumer(JobLedger ledger, JobWorker worker, MeterRegistry metrics) {
        this.ledger = ledger;
        this.worker = worker;
        this.earlyDeliveries = Counter.builder("jobs.commands.early")
                .description("Commands for a waiting job delivered before its retry_at, and ignored")
                .register(metrics);
    }

    @Incoming("commands-in")
    @Blocking
    public CompletionStage<Void> consume(Message<byte[]> message) {
        // the Kafka consumer span SmallRye made from the record's traceparent: the job's trace (SERVICE.md §9)
        Context delivered = JobTracing.of(message);
        try (Scope logged = JobTracing.logWith(delivered)) {
            return handle(message, delivered);
        }
    }

    private CompletionStage<Void> handle(Message<byte[]> message, Context delivered) {
        @SuppressWarnings("unchecked")
        IncomingKafkaRecordMetadata<String, byte[]> record = message
                .getMetadata(IncomingKafkaRecordMetadata.class).orElseThrow();
        String source = record.getTopic() + "/" + record.getPartition() + "/" + record.getOffset();
        if (worker.stopping()) {
            // Neither claimed nor acknowledged: the offset is not committed past this record, so the instance that
            // gets the partition next reads it again.
            Log.infof("command %s left for another instance: this one is stopping", source);
            return CompletableFuture.completedFuture(null);
        }
        Command command;
        int retryCount;
        try {
            command = CommandParser.parse(message.getPayload());
            retryCount = CommandHeaders.retryCount(record.getHeaders());
        } catch (InvalidCommandException e) {
            Log.warnf("command %s sent to the dead-letter topic: %s", source, e.getMessage());
            return message.nack(e);
        }
        UUID jobId = command.jobId() != null ? command.jobId()
                : UUID.nameUUIDFromBytes(source.getBytes(StandardCharsets.UTF_8));
        JobLedger.Registration registration;
        try {
            registration = register(jobId, command, retryCount, source, CarriedHeader.from(record.getHeaders()),
                    JobTrace.of(delivered));
        } catch (InvalidCommandException e) {
            Log.warnf("command %s sent to the dead-letter topic: %s", source, e.getMessage());
            return message.nack(e);
        } catch (JobLedger.LedgerException e) {
            Log.errorf("command %s could not be registered: %s", source, e.getMessage());
            return message.nack(new InvalidCommandException("could not be registered: the job ledger failed"));
        }
        if (registration instanceof JobLedger.Registration.Claimed claimed) {
            // Acknowledged, then handed over without waiting for the acknowledgement to complete: the claim is in
            // the ledger, and a run waiting on an acknowledgement that never completed would wait for the takeover
            // of a stale run (minutes). Should the offset not be committed, the record comes again and is a
            // duplicate of a running job.
            CompletionStage<Void> acknowledged = message.ack();
            worker.submit(claimed.run(), delivered);
            return acknowledged;
        }
        if (registration instanceof JobLedger.Registration.Skipped skipped) {
            Log.infof("%s command %s recorded as skipped: %s already in flight", command.type(), source,
                    skipped.inFlight());
        } else if (registration instanceof JobLedger.Registration.Duplicate duplicate) {
            Log.infof("%s command %s for job %s (retry-count %d) ignored: the job is %s", command.type(), source,
                    jobId, retryCount, duplicate.state());
        } else if (registration instanceof JobLedger.Registration.Early early) {
            earlyDeliveries.increment();
            Log.warnf("%s command %s for job %s ignored: the job waits until %s (a replayed or forged command)",
                    command.type(), source, jobId, early.retryAt());
        }
        return message.ack();
    }

    /** Registers, trying again for about half a minute while the database is unavailable. */
    private JobLedger.Registration register(UUID jobId, Command command, int retryCount, String source,
            java.util.List<CarriedHeader> headers, JobTrace trace) {
        long wait = 500;
        for (int attempt = 1; ; attempt++) {
            try {
                return ledger.register(jobId, command, retryCount, source, headers, trace);
            } catch (JobLedger.LedgerException e) {
                if (attempt == LEDGER_ATTEMPTS) {
                    throw e;
                }
                Log.warnf("registering command %s failed (%s); trying again in %d ms", source, e.getMessage(), wait);
                sleep(wait);
                wait *= 3;
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
