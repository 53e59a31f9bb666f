package dev.cardcatalog.job;

import dev.cardcatalog.art.ArtBuild;
import dev.cardcatalog.art.ArtConfig;
import dev.cardcatalog.catalog.CatalogRefresh;
import dev.cardcatalog.platform.RunCancelledException;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs claimed jobs on worker threads of its own, never on a Kafka consumer or an HTTP request thread. While a run
 * works, a scheduler writes its progress and heartbeat every {@code progress-interval}; when the ledger says the run
 * is no longer this instance's (it was taken over), the work is cancelled at its next check.
 */
@ApplicationScoped
public class JobWorker {

    private final JobLedger ledger;
    private final CatalogRefresh refresh;
    private final ArtBuild artBuild;
    private final ArtConfig artConfig;
    private final EventPublisher events;
    private final CommandPublisher publisher;
    private final RateLimitRetry policy;
    private final JobConfig config;
    private final Clock clock;
    private final MeterRegistry metrics;
    private final ExecutorService workers;
    private final ScheduledExecutorService heartbeats;

    public JobWorker(JobLedger ledger, CatalogRefresh refresh, ArtBuild artBuild, ArtConfig artConfig,
            EventPublisher events, CommandPublisher publisher, RetryConfig retryConfig, JobConfig config, Clock clock,
            MeterRegistry metrics) {
        this.ledger = ledger;
        this.refresh = refresh;
        this.artBuild = artBuild;
        this.artConfig = artConfig;
        this.events = events;
        this.publisher = publisher;
        this.policy = new RateLimitRetry(retryConfig);
        this.config = config;
        this.clock = clock;
        this.metrics = metrics;
        this.workers = Executors.newCachedThreadPool(named("card-catalog-job"));
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(named("card-catalog-heartbeat"));
    }

    void stop(@Observes ShutdownEvent event) {
        workers.shutdownNow();
        heartbeats.shutdownNow();
    }

    /** Starts {@code run} on a worker thread and returns at once. */
    public void submit(JobLedger.ClaimedRun run) {
        workers.execute(() -> execute(run));
    }

    private void execute(JobLedger.ClaimedRun run) {
        RunReporter reporter = new RunReporter(clock);
        long interval = config.progressInterval().toMillis();
        ScheduledFuture<?> beat = heartbeats.scheduleAtFixedRate(() -> beat(run, reporter), interval, interval,
                TimeUnit.MILLISECONDS);
        JobLedger.JobRecord job = run.job();
        Log.infof("%s job %s run %d started (%s)", job.kind().wire(), job.id(), run.attempt(), job.trigger().wire());
        try {
            switch (job.kind()) {
                case REFRESH -> runRefresh(run, reporter);
                case ART_BUILD -> runArtBuild(run, reporter);
            }
        } catch (RunCancelledException e) {
            Log.warnf("%s job %s run %d stopped: %s", job.kind().wire(), job.id(), run.attempt(), e.getMessage());
        } catch (Exception | Error e) {
            fail(run, reporter, e);
        } finally {
            beat.cancel(false);
        }
    }

    private void runArtBuild(JobLedger.ClaimedRun run, RunReporter reporter) {
        ArtBuild.Outcome outcome = artBuild.run(reporter);
        JobLedger.JobRecord job = run.job();
        if (ledger.finish(run, "applied", "succeeded", reporter.snapshot(), outcome.message(), null)) {
            metrics.counter("jobs.outcomes", "kind", "art-build", "outcome", "succeeded").increment();
            Log.infof("art-build job %s %s", job.id(), outcome.message());
            events.artIndexReady(job.id(), outcome.fileName(), outcome.count(), outcome.digest());
        }
    }

    /** After an applied refresh, an art build when the art index is enabled (SERVICE.md §4.8). */
    private void startArtBuild(JobLedger.JobRecord refresh) {
        if (!artConfig.enabled()) {
            return;
        }
        JobLedger.JobRecord build;
        try {
            build = ledger.createQueued(JobKind.ART_BUILD, refresh.trigger(), "after refresh " + refresh.id());
        } catch (JobInFlightException e) {
            Log.infof("no art build after refresh %s: art-build job %s is already in flight", refresh.id(),
                    e.inFlight());
            return;
        } catch (RuntimeException e) {
            Log.warnf("no art build after refresh %s: %s", refresh.id(), e.getMessage());
            return;
        }
        try {
            publisher.publish(build.command(), 0, java.util.List.of()).await().atMost(config.publishTimeout());
            Log.infof("art-build job %s queued after refresh %s", build.id(), refresh.id());
        } catch (RuntimeException e) {
            String reason = "the command could not be published to Kafka: " + e.getMessage();
            Log.warnf("art-build job %s after refresh %s failed: %s", build.id(), refresh.id(), reason);
            ledger.failUnpublished(build.id(), reason);
        }
    }

    private void runRefresh(JobLedger.ClaimedRun run, RunReporter reporter) {
        boolean scheduled = run.job().trigger() == JobTrigger.SCHEDULED;
        CatalogRefresh.Outcome outcome = refresh.run(scheduled, reporter);
        JobLedger.JobRecord job = run.job();
        if (outcome.applied()) {
            if (ledger.finish(run, "applied", "succeeded", reporter.snapshot(), outcome.message(), null)) {
                metrics.counter("jobs.outcomes", "kind", "refresh", "outcome", "succeeded").increment();
                Log.infof("refresh job %s applied %s: %s", job.id(), outcome.version(), outcome.counts().asMap());
                events.catalogRefreshed(job.id(), outcome.version(), outcome.counts().asMap());
                startArtBuild(job);
            }
        } else if (ledger.finish(run, "skipped", "skipped", reporter.snapshot(), outcome.message(), null)) {
            metrics.counter("jobs.outcomes", "kind", "refresh", "outcome", "skipped").increment();
            Log.infof("refresh job %s skipped: %s", job.id(), outcome.message());
        }
    }

    /**
     * A failed run: the retry policy decides whether the job waits for a retry (the run closed {@code failed}, the
     * job {@code waiting}, the command on the delayed topic) or fails.
     */
    private void fail(JobLedger.ClaimedRun run, RunReporter reporter, Throwable failure) {
        JobLedger.JobRecord job = run.job();
        String reason = FailureReasons.describe(failure);
        if (FailureReasons.isUnexpected(failure)) {
            Log.errorf(failure, "%s job %s run %d failed unexpectedly", job.kind().wire(), job.id(), run.attempt());
        } else {
            Log.warnf("%s job %s run %d failed: %s", job.kind().wire(), job.id(), run.attempt(), reason);
        }
        try {
            RateLimitRetry.Decision decision = policy.decide(failure, reason, job.retryCount(),
                    job.rateLimitStreak(), job.transientRetries(), reporter.progressedSinceStart(), clock.instant());
            if (decision instanceof RateLimitRetry.Decision.Retry retry) {
                scheduleRetry(run, reporter, retry, RateLimitRetry.classify(failure));
            } else {
                String finalReason = ((RateLimitRetry.Decision.Fail) decision).reason();
                if (ledger.finish(run, "failed", "failed", reporter.snapshot(), reason, finalReason, finalReason)) {
                    metrics.counter("jobs.outcomes", "kind", job.kind().wire(), "outcome", "failed").increment();
                    Log.warnf("%s job %s failed: %s", job.kind().wire(), job.id(), finalReason);
                    events.jobFailed(job.id(), job.kind(), finalReason);
                }
            }
        } catch (RuntimeException e) {
            Log.errorf(e, "could not record the failure of %s job %s", job.kind().wire(), job.id());
        }
    }

    private void scheduleRetry(JobLedger.ClaimedRun run, RunReporter reporter, RateLimitRetry.Decision.Retry retry,
            RateLimitRetry.Kind kind) {
        JobLedger.JobRecord job = run.job();
        int retryCount = job.retryCount() + 1;
        if (!ledger.scheduleRetry(run, reporter.snapshot(), retry.reason(), retry.notBefore(), retryCount,
                retry.rateLimitStreak(), retry.transientRetries())) {
            return;
        }
        metrics.counter("jobs.retries.scheduled", "kind", job.kind().wire(),
                "reason", kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')).increment();
        try {
            publisher.publishDelayed(job.command(), retryCount, retry.notBefore(), retry.retryAfterAsked(),
                    retry.reason(), job.carriedHeaders()).await().atMost(config.publishTimeout());
            Log.infof("%s job %s scheduled for retry %d at %s: %s", job.kind().wire(), job.id(), retryCount,
                    retry.notBefore(), retry.reason());
        } catch (RuntimeException e) {
            // the job stays waiting; the sweep sends its command once it is overdue
            Log.errorf("%s job %s waits for retry %d at %s, but its delayed command could not be published (%s); "
                    + "it will be sent when overdue", job.kind().wire(), job.id(), retryCount, retry.notBefore(),
                    e.getMessage());
        }
    }

    private void beat(JobLedger.ClaimedRun run, RunReporter reporter) {
        try {
            if (!ledger.writeProgress(run.runId(), reporter.snapshot())) {
                reporter.cancel("run " + run.attempt() + " of job " + run.job().id()
                        + " is no longer this instance's (taken over after its heartbeat went stale)");
            }
        } catch (RuntimeException e) {
            Log.warnf("could not write the progress of job %s: %s", run.job().id(), e.getMessage());
        }
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
