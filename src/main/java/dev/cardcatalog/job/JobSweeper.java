package dev.cardcatalog.job;

import io.quarkus.logging.Log;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Every {@code card-catalog.jobs.sweep-interval}, on every instance:
 * <ul>
 *   <li>takes over a running run whose heartbeat is older than its kind's stale threshold (its process died): the
 *       run is closed {@code interrupted} and the job runs again here; the ledger's conditional update lets only one
 *       instance win, and the work is idempotent and resumable (SERVICE.md §6.3);</li>
 *   <li>sends again the command of a job still waiting well past its retry time (its delayed record was lost, for
 *       instance when publishing it failed), and of a job queued that long without being claimed (its command was
 *       lost); a command that arrives twice is ignored by the ledger.</li>
 * </ul>
 */
@ApplicationScoped
public class JobSweeper {

    private final JobLedger ledger;
    private final JobWorker worker;
    private final CommandPublisher publisher;
    private final JobConfig config;
    private final RetryConfig retryConfig;
    private final Clock clock;

    public JobSweeper(JobLedger ledger, JobWorker worker, CommandPublisher publisher, JobConfig config,
            RetryConfig retryConfig, Clock clock) {
        this.ledger = ledger;
        this.worker = worker;
        this.publisher = publisher;
        this.config = config;
        this.retryConfig = retryConfig;
        this.clock = clock;
    }

    @Scheduled(every = "${card-catalog.jobs.sweep-interval}", delayed = "${card-catalog.jobs.sweep-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sweep() {
        try {
            takeOverStaleRuns();
            resendOverdueRetries();
            resendUnclaimedQueued();
        } catch (RuntimeException e) {
            Log.warnf("the job sweep failed: %s", e.getMessage());
        }
    }

    void takeOverStaleRuns() {
        Instant now = clock.instant();
        Duration shortest = config.refreshStaleAfter().compareTo(config.artBuildStaleAfter()) < 0
                ? config.refreshStaleAfter() : config.artBuildStaleAfter();
        for (JobLedger.RunningRun run : ledger.runningSince(now.minus(shortest))) {
            Duration stale = run.kind() == JobKind.REFRESH ? config.refreshStaleAfter() : config.artBuildStaleAfter();
            Instant staleBefore = now.minus(stale);
            if (!run.heartbeatAt().isBefore(staleBefore)) {
                continue;
            }
            ledger.takeOver(run.runId(), staleBefore).ifPresent(worker::submit);
        }
    }

    void resendUnclaimedQueued() {
        Instant now = clock.instant();
        for (JobLedger.JobRecord job : ledger.queuedSince(now.minus(retryConfig.overdueGrace()))) {
            Log.warnf("%s job %s has been queued since %s without a run; sending its command again",
                    job.kind().wire(), job.id(), job.updatedAt());
            try {
                publisher.republish(job)
                        .await().atMost(config.publishTimeout());
                ledger.touchQueued(job.id());
            } catch (RuntimeException e) {
                Log.warnf("the command of %s job %s could not be sent again: %s", job.kind().wire(), job.id(),
                        e.getMessage());
            }
        }
    }

    void resendOverdueRetries() {
        Instant now = clock.instant();
        for (JobLedger.JobRecord job : ledger.waitingSince(now.minus(retryConfig.overdueGrace()))) {
            Log.warnf("%s job %s was due to retry at %s and still waits; sending its command again",
                    job.kind().wire(), job.id(), job.retryAt());
            try {
                publisher.republish(job)
                        .await().atMost(config.publishTimeout());
                ledger.postponeRetry(job.id(), now);
            } catch (RuntimeException e) {
                Log.warnf("the command of %s job %s could not be sent again: %s", job.kind().wire(), job.id(),
                        e.getMessage());
            }
        }
    }
}
