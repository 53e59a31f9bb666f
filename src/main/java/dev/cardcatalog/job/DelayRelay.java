package dev.cardcatalog.job;

import dev.cardcatalog.platform.OutageConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.logging.Log;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.header.Headers;
import org.eclipse.microprofile.reactive.messaging.Acknowledgment;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The delay relay of SERVICE.md §6.5: consumes {@code card-catalog.commands.delayed} and puts each command back on
 * {@code card-catalog.commands} no sooner than its {@code not-before} header and about a second after it at most.
 *
 * <ul>
 *   <li>Each record gets its own timer, and the method returns at once without acknowledging it, so a command due
 *       in 30 s is not held up by one due in an hour ahead of it in the same partition.</li>
 *   <li>A record is acknowledged only once it is forwarded; the channel's {@code throttled} commit strategy commits
 *       an offset only when every record before it in the partition is acknowledged. A restart therefore loses
 *       nothing: the unforwarded records come again, and a record forwarded twice is ignored by the ledger.</li>
 *   <li>A record it cannot forward (the broker is down) is held and tried again after
 *       {@code card-catalog.outage.first-back-off}, doubling up to {@code max-back-off}, for as long as the outage
 *       lasts (SERVICE.md §6.6); it never goes to the dead-letter topic for that.</li>
 *   <li>A record it cannot trust goes to the dead-letter topic: a missing, repeated or unreadable
 *       {@code retry-count} or {@code not-before}, a retry count over {@code max-retry-count}, a due time more than
 *       the ceiling (1 h) plus slack ahead, or a value that is not a command.</li>
 * </ul>
 */
@ApplicationScoped
public class DelayRelay {

    private final CommandPublisher publisher;
    private final RetryConfig config;
    private final OutageConfig outage;
    private final Clock clock;
    private final Vertx vertx;
    private final Timer lateness;
    private final AtomicInteger held = new AtomicInteger();

    public DelayRelay(CommandPublisher publisher, RetryConfig config, OutageConfig outage, Clock clock, Vertx vertx,
            MeterRegistry metrics) {
        this.publisher = publisher;
        this.config = config;
        this.outage = outage;
        this.clock = clock;
        this.vertx = vertx;
        this.lateness = Timer.builder("jobs.relay.lateness")
                .description("Forward time minus not-before of delayed commands")
                .publishPercentiles(0.5, 0.99)
                .register(metrics);
        metrics.gauge("jobs.relay.held", held);
    }

    @Incoming("delayed-in")
    @Acknowledgment(Acknowledgment.Strategy.MANUAL)
    public CompletionStage<Void> relay(Message<byte[]> message) {
        @SuppressWarnings("unchecked")
        IncomingKafkaRecordMetadata<String, byte[]> record = message
                .getMetadata(IncomingKafkaRecordMetadata.class).orElseThrow();
        String where = record.getTopic() + "/" + record.getPartition() + "/" + record.getOffset();
        long notBefore;
        try {
            notBefore = check(message.getPayload(), record.getHeaders());
        } catch (InvalidCommandException e) {
            Log.warnf("delayed command %s sent to the dead-letter topic: %s", where, e.getMessage());
            message.nack(e);
            return CompletableFuture.completedFuture(null);
        }
        held.incrementAndGet();
        Log.debugf("delayed command %s held until %d", where, notBefore);
        schedule(message, record, where, notBefore);
        return CompletableFuture.completedFuture(null);
    }

    private void schedule(Message<byte[]> message, IncomingKafkaRecordMetadata<String, byte[]> record, String where,
            long notBefore) {
        long delay = notBefore - clock.millis();
        if (delay <= 0) {
            forward(message, record, where, notBefore, outage.firstBackOff());
        } else {
            vertx.setTimer(delay, id -> forward(message, record, where, notBefore, outage.firstBackOff()));
        }
    }

    /** Forwards the record; when that fails, tries again after {@code wait}, the next time after a longer one. */
    private void forward(Message<byte[]> message, IncomingKafkaRecordMetadata<String, byte[]> record, String where,
            long notBefore, Duration wait) {
        long early = notBefore - clock.millis();
        if (early > 0) {
            // a timer never fires early; a clock stepped back can make it look so: wait the rest
            vertx.setTimer(early, id -> forward(message, record, where, notBefore, wait));
            return;
        }
        // a child of the relay's consumer span of the delayed record, which continues the failed run's trace
        publisher.forward(record.getKey(), message.getPayload(), record.getHeaders(), JobTracing.of(message))
                .subscribe().with(done -> {
                    long late = clock.millis() - notBefore;
                    lateness.record(late, TimeUnit.MILLISECONDS);
                    held.decrementAndGet();
                    Log.debugf("delayed command %s forwarded %d ms after its not-before", where, late);
                    message.ack();
                }, failure -> {
                    Log.warnf("delayed command %s could not be forwarded (%s); held, trying again in %d ms", where,
                            failure.getMessage(), wait.toMillis());
                    vertx.setTimer(Math.max(1, wait.toMillis()),
                            id -> forward(message, record, where, notBefore, outage.nextBackOff(wait)));
                });
    }

    /** Validates a delayed record; returns its not-before (epoch ms) or throws with the reason. */
    long check(byte[] value, Headers headers) {
        CommandParser.parse(value);
        int retryCount = CommandHeaders.retryCount(headers);
        if (retryCount < 1) {
            throw new InvalidCommandException("a delayed command needs a retry-count header of 1 or more");
        }
        if (retryCount > config.maxRetryCount()) {
            throw new InvalidCommandException("retry-count " + retryCount + " is over the maximum of "
                    + config.maxRetryCount());
        }
        long notBefore = CommandHeaders.notBefore(headers);
        Duration ahead = Duration.ofMillis(notBefore - clock.millis());
        if (ahead.compareTo(config.ceiling().plus(config.relaySlack())) > 0) {
            throw new InvalidCommandException("not-before is " + ahead.toSeconds() + " s ahead, more than the "
                    + config.ceiling().plus(config.relaySlack()).toSeconds() + " s a retry may be scheduled");
        }
        return notBefore;
    }
}
