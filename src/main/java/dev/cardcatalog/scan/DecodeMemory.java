package dev.cardcatalog.scan;

import dev.cardcatalog.platform.BusyException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The replica's memory budget for decoding and matching uploads (SERVICE.md §7), as
 * {@code upload-buffer} is for their bodies ({@link MatchUploads}): each upload reserves what its header says it
 * will need ({@link UploadCost#memoryBytes()}, native included) when it gets its decoding turn, and releases it with
 * its answer; one that does not fit is refused at once with a {@link BusyException} (503 {@code service-busy},
 * {@code Retry-After}), never made to wait.
 *
 * <p>Metrics: {@code art.decode.memory.reserved} (gauge, bytes) and {@code art.decode.memory.refused} (counter),
 * both from the start (the bean is created at startup, not by the first upload that reaches its turn).
 * Thread-safe.
 */
@Startup
@ApplicationScoped
public class DecodeMemory {

    private final long budget;
    private final long retryAfterSeconds;
    private final AtomicLong reserved = new AtomicLong();
    private final Counter refused;

    @Inject
    DecodeMemory(ScanConfig config, MeterRegistry metrics) {
        this(config.uploadDecodeMemory().asLongValue(), config.uploadMaxMemory().asLongValue(),
                config.matchRetryAfter(), metrics);
    }

    /**
     * @param budget       bytes all uploads may reserve together
     * @param perUpload    bytes one upload may need at most ({@code upload-max-memory}); the budget must hold one
     * @param retryAfter   the wait a refusal asks for; sent in whole seconds, rounded up, at least 1
     * @throws IllegalArgumentException when the budget cannot hold one upload of {@code perUpload} bytes
     */
    public DecodeMemory(long budget, long perUpload, Duration retryAfter, MeterRegistry metrics) {
        if (budget < perUpload || perUpload < 1) {
            throw new IllegalArgumentException("card-catalog.art.upload-decode-memory (" + budget + " bytes) must "
                    + "hold at least one upload of card-catalog.art.upload-max-memory (" + perUpload + " bytes)");
        }
        this.budget = budget;
        this.retryAfterSeconds = Math.max(1, (retryAfter.toMillis() + 999) / 1000);
        Gauge.builder("art.decode.memory.reserved", reserved, AtomicLong::get).baseUnit("bytes")
                .description("Memory reserved by photo uploads being decoded and matched, as their headers say")
                .register(metrics);
        this.refused = Counter.builder("art.decode.memory.refused")
                .description("Photo uploads answered 503 because the memory their headers need was reserved by others")
                .register(metrics);
    }

    /** Bytes all uploads may reserve together. */
    public long budget() {
        return budget;
    }

    /** Bytes reserved now. */
    public long reserved() {
        return reserved.get();
    }

    /**
     * Reserves {@code bytes} until the returned reservation is closed.
     *
     * @param bytes what the upload needs, 0 or more
     * @throws BusyException when they do not fit beside what is reserved
     */
    public Reservation reserve(long bytes) {
        while (true) {
            long now = reserved.get();
            if (now + bytes > budget) {
                refused.increment();
                throw new BusyException("Too much memory is being used to decode photos at the moment; send this "
                        + "one again in " + retryAfterSeconds + " s.", retryAfterSeconds);
            }
            if (reserved.compareAndSet(now, now + bytes)) {
                return new Reservation(bytes);
            }
        }
    }

    /** Bytes held for one upload; closing it (once or more) gives them back. */
    public final class Reservation implements AutoCloseable {
        private final long bytes;
        private final AtomicBoolean open = new AtomicBoolean(true);

        private Reservation(long bytes) {
            this.bytes = bytes;
        }

        @Override
        public void close() {
            if (open.compareAndSet(true, false)) {
                reserved.addAndGet(-bytes);
            }
        }
    }
}
