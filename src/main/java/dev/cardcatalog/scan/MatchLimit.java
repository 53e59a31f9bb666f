package dev.cardcatalog.scan;

import dev.cardcatalog.platform.BusyException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * How many photo matches the public match endpoint serves at once (SERVICE.md §7), so that uploads cannot exhaust
 * the heap or the worker threads: at most {@code concurrency} matches read and decode their upload at the same time;
 * at most {@code queue} more wait for a turn, each for at most {@code queueWait}; any other is refused at once with a
 * {@link BusyException} (503, {@code Retry-After}). The upload has been received whole before the match asks for a
 * turn ({@link MatchUploads}), so a slow upload holds none.
 *
 * <p>Metrics: {@code art.matches.running} and {@code art.matches.waiting} (gauges), {@code art.matches.refused}
 * (counter), on {@code /q/metrics} from the start ({@link Startup}: made when the service starts, not at the first
 * match). Thread-safe.
 */
@Startup
@ApplicationScoped
public class MatchLimit {

    private final int concurrency;
    private final Semaphore running;
    /** Turns running plus waiting: a request that finds none left is refused without waiting. */
    private final Semaphore admitted;
    private final Duration queueWait;
    private final long retryAfterSeconds;
    private final AtomicInteger waiting = new AtomicInteger();
    private final Counter refused;

    @Inject
    MatchLimit(ScanConfig config, MeterRegistry metrics) {
        this(config.matchConcurrency().orElse(2 * Runtime.getRuntime().availableProcessors()), config.matchQueue(),
                config.matchQueueWait(), config.matchRetryAfter(), metrics);
    }

    /**
     * @param concurrency matches that run at once, at least 1
     * @param queue matches that may wait beyond those, 0 or more
     * @param queueWait the longest a match waits for its turn
     * @param retryAfter the wait a refusal asks for; sent in whole seconds, rounded up, at least 1
     */
    public MatchLimit(int concurrency, int queue, Duration queueWait, Duration retryAfter, MeterRegistry metrics) {
        if (concurrency < 1 || queue < 0) {
            throw new IllegalArgumentException("the match concurrency must be at least 1 and the queue not negative");
        }
        this.concurrency = concurrency;
        this.running = new Semaphore(concurrency);
        this.admitted = new Semaphore(concurrency + queue);
        this.queueWait = queueWait;
        long millis = retryAfter.toMillis();
        this.retryAfterSeconds = Math.max(1, (millis + 999) / 1000);
        Gauge.builder("art.matches.running", running, s -> concurrency - s.availablePermits())
                .description("Photo matches decoding and matching their upload").register(metrics);
        Gauge.builder("art.matches.waiting", waiting, AtomicInteger::get)
                .description("Photo matches waiting for a turn").register(metrics);
        this.refused = Counter.builder("art.matches.refused")
                .description("Photo matches answered 503 because all turns and queue places were taken")
                .register(metrics);
    }

    /** The most matches that run at once. */
    public int concurrency() {
        return concurrency;
    }

    /**
     * Runs {@code match} in a turn: at once if one is free, else after waiting in the queue.
     *
     * @return what {@code match} returns
     * @throws BusyException when the queue is full, or no turn came within the queue wait
     */
    public <T> T run(Supplier<T> match) {
        if (!admitted.tryAcquire()) {
            throw busy();
        }
        try {
            if (!running.tryAcquire()) {
                waiting.incrementAndGet();
                try {
                    if (!running.tryAcquire(queueWait.toNanos(), TimeUnit.NANOSECONDS)) {
                        throw busy();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw busy();
                } finally {
                    waiting.decrementAndGet();
                }
            }
            try {
                return match.get();
            } finally {
                running.release();
            }
        } finally {
            admitted.release();
        }
    }

    private BusyException busy() {
        refused.increment();
        return new BusyException("Too many photos are being matched at the moment; send this one again in "
                + retryAfterSeconds + " s.", retryAfterSeconds);
    }
}
