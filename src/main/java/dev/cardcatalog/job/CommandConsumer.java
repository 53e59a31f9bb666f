package dev.cardcatalog.job;

import dev.cardcatalog.platform.DatabaseUnavailableException;
import dev.cardcatalog.platform.OutageConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkus.logging.Log;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Consumes {@code card-catalog.commands} (SERVICE.md §6.3): registers each command in the ledger, acknowledges the
 * record and hands a claimed job to {@link JobWorker}. Work never holds a record. A record that is not a valid
 * command is nacked with the reason and lands on {@code card-catalog.commands.dlq} (the channel's dead-letter-queue
 * failure strategy adds the {@code dead-letter-reason} header); the consumer carries on.
 *
 * <p>An outage is not the record's fault (SERVICE.md §6.6): while the ledger's database is unavailable
 * ({@link DatabaseUnavailableException}) the consumer holds the record, neither acknowledged nor nacked, so no
 * offset is committed past it, and tries again after {@code card-catalog.outage.first-back-off}, doubling up to
 * {@code max-back-off}, for as long as the outage lasts. The channel processes one record at a time, so the records
 * behind it wait too. The gauge {@code jobs.commands.held.seconds} says how long the current record has been held.
 * A stopping instance leaves the held record for the instance that gets the partition next.
 */
@ApplicationScoped
public class CommandConsumer {

    /** How often a held record's wait looks whether the instance is stopping. */
    private static final long STOP_CHECK_MILLIS = 200;

    private final JobLedger ledger;
    private final JobWorker worker;
    private final OutageConfig outage;
    private final Clock clock;
    private final Counter earlyDeliveries;
    private final Counter cancelledDeliveries;
    /** When the record now held was first refused by the database (epoch ms); 0 when none is held. */
    private final AtomicLong heldSince = new AtomicLong();

    public CommandConsumer(JobLedger ledger, JobWorker worker, OutageConfig outage, Clock clock,
            MeterRegistry metrics) {
        this.ledger = ledger;
        this.worker = worker;
        this.outage = outage;
        this.clock = clock;
        this.earlyDeliveries = Counter.builder("jobs.commands.early")
                .description("Commands for a waiting job delivered before its retry_at, and ignored")
                .register(metrics);
        this.cancelledDeliveries = Counter.builder("jobs.commands.for.cancelled")
                .description("Commands for a job an operator cancelled (a delayed record, a replay), and ignored")
                .register(metrics);
        Gauge.builder("jobs.commands.held.seconds", heldSince, since -> since.get() == 0 ? 0
                        : Math.max(0, clock.millis() - since.get()) / 1000.0)
                .description("How long the command consumer has held its current record because the database is"
                        + " unavailable; 0 when it holds none")
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
            Log.warnf("command %s sent to the dead-letter topic: %s", source, e.getMessage());
            return message.nack(new InvalidCommandException(
                    "could not be registered: the job ledger refused its values"));
        }
        if (registration == null) {
            Log.infof("command %s left for another instance: this one stopped while the database was unavailable",
                    source);
            return CompletableFuture.completedFuture(null);
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
        } else if (registration instanceof JobLedger.Registration.Cancelled cancelled) {
            cancelledDeliveries.increment();
            Log.infof("%s command %s for job %s ignored: the job was cancelled by %s", command.type(), source, jobId,
                    cancelled.cancelledBy());
        } else if (registration instanceof JobLedger.Registration.Early early) {
            earlyDeliveries.increment();
            Log.warnf("%s command %s for job %s ignored: the job waits until %s (a replayed or forged command)",
                    command.type(), source, jobId, early.retryAt());
        }
        return message.ack();
    }

    /**
     * Registers the command, holding it while the database is unavailable: tries again after the outage back-off
     * for as long as it takes. Returns null when the instance began stopping meanwhile.
     */
    private JobLedger.Registration register(UUID jobId, Command command, int retryCount, String source,
            java.util.List<CarriedHeader> headers, JobTrace trace) {
        Duration wait = outage.firstBackOff();
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    JobLedger.Registration registration = ledger.register(jobId, command, retryCount, source, headers,
                            trace);
                    if (attempt > 1) {
                        Log.infof("command %s registered at attempt %d, after %d s held: the database is back", source,
                                attempt, (clock.millis() - heldSince.get()) / 1000);
                    }
                    return registration;
                } catch (DatabaseUnavailableException e) {
                    heldSince.compareAndSet(0, clock.millis());
                    Log.warnf("command %s held, attempt %d: %s; trying again in %d ms", source, attempt,
                            e.getMessage(), wait.toMillis());
                    if (!pause(wait)) {
                        return null;
                    }
                    wait = outage.nextBackOff(wait);
                }
            }
        } finally {
            heldSince.set(0);
        }
    }

    /** Waits {@code wait}; false, early, when the instance is stopping or the thread is interrupted. */
    private boolean pause(Duration wait) {
        long end = System.nanoTime() + wait.toNanos();
        while (!worker.stopping()) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return true;
            }
            try {
                Thread.sleep(Math.min(STOP_CHECK_MILLIS, Math.max(1, left / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }
}
