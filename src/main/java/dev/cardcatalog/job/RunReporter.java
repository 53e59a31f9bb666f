package dev.cardcatalog.job;

import dev.cardcatalog.platform.Progress;
import dev.cardcatalog.platform.RunCancelledException;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A run's progress as the work reports it, kept in memory; {@link JobWorker} writes a snapshot to the ledger every
 * {@code card-catalog.jobs.progress-interval} (1 s) from its own thread, which is also the run's heartbeat. So
 * progress is written at most once a second, outside the work's transactions, and the heartbeat keeps beating
 * while the work waits on the network.
 */
final class RunReporter implements Progress {

    private final Clock clock;
    private volatile String stage = "starting";
    private volatile long done = -1;
    private volatile long total = -1;
    private final Map<String, Long> counts = new LinkedHashMap<>();
    private volatile String version;
    private volatile String languages;
    private volatile Instant progressedAt;
    private volatile boolean progressedSinceStart;
    private volatile String cancelled;
    private volatile boolean cancelledByOperator;

    RunReporter(Clock clock) {
        this.clock = clock;
        this.progressedAt = clock.instant();
    }

    @Override
    public void stage(String stage, long total) {
        this.stage = stage;
        this.total = total;
        this.done = total < 0 ? -1 : 0;
        this.progressedAt = clock.instant();
    }

    @Override
    public void done(long done) {
        if (done != this.done) {
            this.done = done;
            this.progressedAt = clock.instant();
        }
    }

    @Override
    public void count(String name, long value) {
        synchronized (counts) {
            counts.put(name, value);
        }
    }

    @Override
    public void progressed() {
        progressedSinceStart = true;
        progressedAt = clock.instant();
    }

    @Override
    public void version(String version, String languages) {
        this.version = version;
        this.languages = languages;
    }

    @Override
    public void checkCancelled() {
        String reason = cancelled;
        if (reason != null) {
            throw new RunCancelledException(reason);
        }
    }

    /** Stops the work at its next check: the run is no longer this instance's. */
    void cancel(String reason) {
        cancelled = reason;
    }

    /** Stops the work at its next check (a checkpoint): an operator cancelled the job (SERVICE.md §6.6). */
    void cancelByOperator(String reason) {
        cancelledByOperator = true;
        cancelled = reason;
    }

    /** Whether the work was stopped by an operator's cancel, not by a takeover. */
    boolean cancelledByOperator() {
        return cancelledByOperator;
    }

    /** True when the work moved forward in this run (SERVICE.md §6.4: resets the rate-limit streak). */
    boolean progressedSinceStart() {
        return progressedSinceStart;
    }

    JobLedger.RunProgress snapshot() {
        Map<String, Long> copy;
        synchronized (counts) {
            copy = new LinkedHashMap<>(counts);
        }
        return new JobLedger.RunProgress(stage, done, total, copy, version, languages, progressedAt);
    }
}
