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
 * turn ({@link MatchUploads}), so a slow upload holds none. Turns go in the order they were asked for: a match
 * that arrives while others wait does not take the turn one of them was woken for, so under a steady load a match
 * waits for the turns ahead of it and no more.
 *
 * <p>Expensive uploads (large, multi-scan, or costly by their markers: {@link UploadCost#expensive()}) take their
 * turns from a pool of their own, {@code expensiveConcurrency} turns and {@code expensiveQueue} places, smaller than
 * the cheap one (SERVICE.md §7): a flood of them waits or is refused there, and leaves the cheap
 * turns to guide crops.
 *
 * <p>Metrics: {@code art.matches.running} and {@code art.matches.waiting} (gauges, both pools),
 * {@code art.matches.expensive.running} and {@code art.matches.expensive.waiting} (gauges, the expensive pool),
 * {@code art.matches.refused} (counter, both pools), on {@code /q/metrics} from the start ({@link Startup}: made when
 * the service starts, not at the first match). Thread-safe.
 */
@Startup
@ApplicationScoped
public class MatchLimit {

    private final int concurrency;
    private final TurnPool cheap;
    private final TurnPool expensive;
    private final Duration queueWait;
    private final long retryAfterSeconds;
    private final Counter refused;

    @Inject
    MatchLimit(ScanConfig config, MeterRegistry metrics) {
        this(config.matchConcurrency().orElse(Runtime.getRuntime().availableProcessors()),
                config.matchQueue().orElse(Runtime.getRuntime().availableProcessors() + 4),
                config.expensiveMatchConcurrency().orElse(Math.max(1, Runtime.getRuntime().availableProcessors() / 2)),
                config.expensiveMatchQueue(), config.matchQueueWait(), config.matchRetryAfter(), metrics);
    }

    /** A pool of turns: those running, and those running plus waiting. */
    private static final class TurnPool {
        final int concurrency;
        final Semaphore running;
        /** Turns running plus waiting: a request that finds none left is refused without waiting. */
        final Semaphore admitted;
        final AtomicInteger waiting = new AtomicInteger();

        TurnPool(int concurrency, int queue) {
            this.concurrency = concurrency;
            // fair, and asked with a timeout even when not waiting: a match that arrives while others wait for a
            // turn waits behind them rather than taking the next turn freed (Semaphore#tryAcquire() would)
            this.running = new Semaphore(concurrency, true);
            this.admitted = new Semaphore(concurrency + queue);
        }

        int runningNow() {
            return concurrency - running.availablePermits();
        }
    }

    /**
     * @param concurrency matches that run at once, at least 1
     * @param queue matches that may wait beyond those, 0 or more
     * @param queueWait the longest a match waits for its turn
     * @param retryAfter the wait a refusal asks for; sent in whole seconds, rounded up, at least 1
     */
    public MatchLimit(int concurrency, int queue, Duration queueWait, Duration retryAfter, MeterRegistry metrics) {
        this(concurrency, queue, 1, 0, queueWait, retryAfter, metrics);
    }

    /**
     * @param concurrency          cheap matches that run at once, at least 1
     * @param queue                cheap matches that may wait beyond those, 0 or more
     * @param expensiveConcurrency expensive matches that run at once, at least 1
     * @param expensiveQueue       expensive matches that may wait beyond those, 0 or more
     * @param queueWait            the longest a match waits for its turn
     * @param retryAfter           the wait a refusal asks for; sent in whole seconds, rounded up, at least 1
     */
    public MatchLimit(int concurrency, int queue, int expensiveConcurrency, int expensiveQueue, Duration queueWait,
            Duration retryAfter, MeterRegistry metrics) {
        if (concurrency < 1 || queue < 0 || expensiveConcurrency < 1 || expensiveQueue < 0) {
            throw new IllegalArgumentException("the match concurrency must be at least 1 and the queue not negative");
        }
        this.concurrency = concurrency;
        this.cheap = new TurnPool(concurrency, queue);
        this.expensive = new TurnPool(expensiveConcurrency, expensiveQueue);
        this.queueWait = queueWait;
        long millis = retryAfter.toMillis();
        this.retryAfterSeconds = Math.max(1, (millis + 999) / 1000);
        Gauge.builder("art.matches.running", this, l -> l.cheap.runningNow() + l.expensive.runningNow())
                .description("Photo matches decoding and matching their upload").register(metrics);
        Gauge.builder("art.matches.waiting", this, l -> l.cheap.waiting.get() + l.expensive.waiting.get())
                .description("Photo matches waiting for a turn").register(metrics);
        Gauge.builder("art.matches.expensive.running", expensive, TurnPool::runningNow)
                .description("Expensive photo matches (large, multi-scan or costly uploads) decoding and matching")
                .register(metrics);
        Gauge.builder("art.matches.expensive.waiting", expensive, p -> p.waiting.get())
                .description("Expensive photo matches waiting for a turn of their pool").register(metrics);
        this.refused = Counter.builder("art.matches.refused")
                .description("Photo matches answered 503 because all turns and queue places were taken")
                .register(metrics);
    }

    /** The most cheap matches that run at once. */
    public int concurrency() {
        return concurrency;
    }

    /** The most expensive matches that run at once. */
    public int expensiveConcurrency() {
        return expensive.concurrency;
    }

    /**
     * Runs {@code match} in a turn of the cheap pool: at once if one is free and no match waits for one, else after
     * waiting in the queue, behind those that came before it.
     *
     * @return what {@code match} returns
     * @throws BusyException when the queue is full, or no turn came within the queue wait
     */
    public <T> T run(Supplier<T> match) {
        return run(false, match);
    }

    /**
     * Runs {@code match} in a turn of its pool: at once if one is free and no match waits for one, else after waiting
     * in the pool's queue, behind those that came before it.
     *
     * @param expensive whether the upload is expensive ({@link UploadCost#expensive()}): the expensive pool
     * @return what {@code match} returns
     * @throws BusyException when the pool's queue is full, or no turn came within the queue wait
     */
    public <T> T run(boolean expensive, Supplier<T> match) {
        TurnPool pool = expensive ? this.expensive : cheap;
        Semaphore admitted = pool.admitted;
        Semaphore running = pool.running;
        AtomicInteger waiting = pool.waiting;
        if (!admitted.tryAcquire()) {
            throw busy();
        }
        try {
            if (!turnAtOnce(running)) {
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

    /** A turn of {@code running} if one is free and no match waits for one, without waiting. */
    private static boolean turnAtOnce(Semaphore running) {
        try {
            return running.tryAcquire(0, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private BusyException busy() {
        refused.increment();
        return new BusyException("Too many photos are being matched at the moment; send this one again in "
                + retryAfterSeconds + " s.", retryAfterSeconds);
    }
}
