package dev.cardcatalog.job;

import dev.cardcatalog.art.ArtBuild;
import dev.cardcatalog.art.ArtConfig;
import dev.cardcatalog.catalog.CatalogRefresh;
import dev.cardcatalog.platform.InstanceId;
import dev.cardcatalog.platform.RunCancelledException;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
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
    private final InstanceId instance;
    private final ArtBuildFollowUp followUp;
    private final JobTracing tracing;

    /** Set when the instance begins to stop: a run that ends in an exception from then on is handed back. */
    private volatile boolean stopping;

    /** How long a stopping instance waits for Kafka to take a handed-back run's command. */
    private static final Duration STOP_PUBLISH_TIMEOUT = Duration.ofSeconds(3);

    public JobWorker(JobLedger ledger, CatalogRefresh refresh, ArtBuild artBuild, ArtConfig artConfig,
            EventPublisher events, CommandPublisher publisher, RetryConfig retryConfig, JobConfig config, Clock clock,
            MeterRegistry metrics, InstanceId instance, ArtBuildFollowUp followUp, JobTracing tracing) {
        this.tracing = tracing;
        this.instance = instance;
        this.followUp = followUp;
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

    /**
     * Stops the runs in progress: each worker is interrupted and hands its run back ({@link JobLedger#release}),
     * waiting at most {@code card-catalog.jobs.stop-grace} for them, before the data source closes.
     */
    void stop(@Observes ShutdownEvent event) {
        stopping = true;
        workers.shutdownNow();
        heartbeats.shutdownNow();
        try {
            if (!workers.awaitTermination(config.stopGrace().toMillis(), TimeUnit.MILLISECONDS)) {
                Log.warn("a job run did not stop in time; another instance takes it over once its heartbeat is stale");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts {@code run} on a worker thread and returns at once; hands it back when the instance is stopping. The
     * run's span continues the job's own trace.
     */
    public void submit(JobLedger.ClaimedRun run) {
        submit(run, null);
    }

    /**
     * Starts {@code run} on a worker thread and returns at once; hands it back when the instance is stopping.
     *
     * @param delivered the trace context of the record that delivered the command (the run's span is its child), or
     *     null to continue the job's own trace
     */
    public void submit(JobLedger.ClaimedRun run, Context delivered) {
        try {
            workers.execute(() -> execute(run, delivered));
        } catch (RejectedExecutionException e) {
            release(run, new RunReporter(clock));
        }
    }

    /** Whether this instance has begun to stop: it takes no new work. */
    public boolean stopping() {
        return stopping;
    }

    private void execute(JobLedger.ClaimedRun run, Context delivered) {
        Span span = tracing.startRun(run, delivered);
        Context context = Context.current().with(span);
        try (Scope current = context.makeCurrent(); Scope logged = JobTracing.logWith(context)) {
            execute(run, span);
        } finally {
            span.end();
        }
    }

    /** Runs {@code run} with its span current: the Scryfall calls and every record published are its children. */
    private void execute(JobLedger.ClaimedRun run, Span span) {
        RunReporter reporter = new RunReporter(clock);
        long interval = config.progressInterval().toMillis();
        ScheduledFuture<?> beat = heartbeats.scheduleAtFixedRate(() -> beat(run, reporter), interval, interval,
                TimeUnit.MILLISECONDS);
        JobLedger.JobRecord job = run.job();
        java.time.Instant started = clock.instant();
        Log.infof("%s job %s run %d started (%s)", job.kind().wire(), job.id(), run.attempt(), job.trigger().wire());
        try {
            if (job.cancelRequestedAt() != null) {
                // cancelled while it was handed back or taken over: it stops before its first step
                reporter.cancelByOperator("job " + job.id() + " was cancelled by " + job.cancelledBy());
                reporter.checkCancelled();
            }
            switch (job.kind()) {
                case REFRESH -> runRefresh(run, reporter);
                case ART_BUILD -> runArtBuild(run, reporter);
            }
        } catch (RunCancelledException e) {
            span.addEvent("run stopped", Attributes.of(AttributeKey.stringKey("reason"), e.getMessage()));
            if (reporter.cancelledByOperator()) {
                cancelled(run, reporter);
            } else {
                Log.warnf("%s job %s run %d stopped: %s", job.kind().wire(), job.id(), run.attempt(),
                        e.getMessage());
            }
        } catch (Exception | Error e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, FailureReasons.describe(e));
            if (stopping) {
                // the stop interrupted this thread; clear the flag, or the data source and Kafka refuse the writes
                Thread.interrupted();
                release(run, reporter);
            } else {
                fail(run, reporter, e);
            }
        } finally {
            beat.cancel(false);
            metrics.timer("jobs.runs.duration", "kind", job.kind().wire())
                    .record(Duration.between(started, clock.instant()));
        }
    }

    /** A run stopped at a checkpoint by an operator's cancel: the run and its job end {@code cancelled}. */
    private void cancelled(JobLedger.ClaimedRun run, RunReporter reporter) {
        JobLedger.JobRecord job = run.job();
        try {
            ledger.finishCancelled(run, reporter.snapshot()).ifPresent(cancelled -> {
                metrics.counter("jobs.outcomes", "kind", job.kind().wire(), "outcome", JobState.CANCELLED.wire())
                        .increment();
                Log.infof("%s job %s run %d cancelled by %s at a checkpoint", job.kind().wire(), job.id(),
                        run.attempt(), cancelled.cancelledBy());
                events.jobCancelled(job.id(), job.kind(), cancelled.cancelledBy(), JobState.RUNNING);
                if (job.kind() == JobKind.ART_BUILD) {
                    // a cancelled build queues no follow-up: the operator stopped building (SERVICE.md §6.6)
                    followUp.take(job.id());
                }
            });
        } catch (RuntimeException e) {
            Log.errorf(e, "could not record the cancel of %s job %s", job.kind().wire(), job.id());
        }
    }

    private void runArtBuild(JobLedger.ClaimedRun run, RunReporter reporter) {
        ArtBuild.Outcome outcome = artBuild.run(reporter, run.job().acceptFewerArtworks());
        JobLedger.JobRecord job = run.job();
        if (ledger.finish(run, RunStatus.APPLIED, JobState.SUCCEEDED, reporter.snapshot(), outcome.message(), null)) {
            metrics.counter("jobs.outcomes", "kind", "art-build", "outcome", JobState.SUCCEEDED.wire()).increment();
            Log.infof("art-build job %s %s", job.id(), outcome.message());
            events.artIndexReady(job.id(), outcome.fileName(), outcome.count(), outcome.digest());
            queueFollowUp(job);
        }
    }

    /**
     * After an applied refresh, an art build when the art index is enabled (SERVICE.md §4.8). When one is in
     * flight, a mark in the database makes its end queue one more (SERVICE.md §5.8): the refresh's new artworks are
     * not left out of the index.
     */
    private void startArtBuild(JobLedger.JobRecord refresh) {
        if (!artConfig.enabled()) {
            return;
        }
        String source = "after refresh " + refresh.id();
        try {
            queueArtBuild(refresh.trigger(), source);
        } catch (JobInFlightException e) {
            markFollowUp(refresh, e.inFlight());
        } catch (RuntimeException e) {
            Log.warnf("no art build after refresh %s: %s", refresh.id(), e.getMessage());
        }
    }

    private void markFollowUp(JobLedger.JobRecord refresh, java.util.UUID inFlight) {
        try {
            if (inFlight != null) {
                followUp.mark(inFlight, refresh.id(), refresh.trigger());
            }
            // the build may have ended before the mark was written and not seen it: try once more; whoever
            // takes the mark (this thread or the build's end) queues the build
            try {
                queueArtBuild(refresh.trigger(), "after refresh " + refresh.id());
                if (inFlight != null) {
                    followUp.take(inFlight);
                }
            } catch (JobInFlightException again) {
                Log.infof("art build after refresh %s follows art-build job %s, which is in flight", refresh.id(),
                        again.inFlight());
            }
        } catch (RuntimeException e) {
            Log.warnf("no art build after refresh %s: art-build job %s is in flight and the follow-up could not be "
                    + "marked: %s", refresh.id(), inFlight, e.getMessage());
        }
    }

    /** When an art build ends, the build that a refresh applied meanwhile asked for. */
    private void queueFollowUp(JobLedger.JobRecord build) {
        try {
            followUp.take(build.id()).ifPresent(mark -> {
                try {
                    queueArtBuild(mark.trigger(), "after art-build " + build.id() + " (refresh " + mark.refreshId()
                            + " applied meanwhile)");
                } catch (JobInFlightException e) {
                    // queued since this build ended, so after the refresh applied: it covers the refresh
                    Log.infof("no follow-up of art-build job %s: art-build job %s is in flight", build.id(),
                            e.inFlight());
                }
            });
        } catch (RuntimeException e) {
            Log.warnf("the follow-up of art-build job %s could not be queued: %s", build.id(), e.getMessage());
        }
    }

    /**
     * Queues an art build and publishes its command.
     *
     * @throws JobInFlightException an art build is queued, running or waiting
     */
    private void queueArtBuild(JobTrigger trigger, String source) {
        JobLedger.JobRecord build = ledger.createQueued(JobKind.ART_BUILD, trigger, source);
        try {
            publisher.publish(build.command(), 0, java.util.List.of()).await().atMost(config.publishTimeout());
            Log.infof("art-build job %s queued %s", build.id(), source);
        } catch (RuntimeException e) {
            String reason = "the command could not be published to Kafka: " + e.getMessage();
            Log.warnf("art-build job %s %s failed: %s", build.id(), source, reason);
            ledger.failUnpublished(build.id(), reason);
        }
    }

    private void runRefresh(JobLedger.ClaimedRun run, RunReporter reporter) {
        boolean scheduled = run.job().trigger() == JobTrigger.SCHEDULED;
        CatalogRefresh.Outcome outcome = refresh.run(scheduled, reporter);
        JobLedger.JobRecord job = run.job();
        if (outcome.applied()) {
            if (ledger.finish(run, RunStatus.APPLIED, JobState.SUCCEEDED, reporter.snapshot(), outcome.message(),
                    null)) {
                metrics.counter("jobs.outcomes", "kind", "refresh", "outcome", JobState.SUCCEEDED.wire())
                        .increment();
                Log.infof("refresh job %s applied %s: %s", job.id(), outcome.version(), outcome.counts().asMap());
                events.catalogRefreshed(job.id(), outcome.version(), outcome.counts().asMap());
                startArtBuild(job);
            }
        } else if (ledger.finish(run, RunStatus.SKIPPED, JobState.SKIPPED, reporter.snapshot(), outcome.message(),
                null)) {
            metrics.counter("jobs.outcomes", "kind", "refresh", "outcome", JobState.SKIPPED.wire()).increment();
            Log.infof("refresh job %s skipped: %s", job.id(), outcome.message());
        }
    }

    /** A run ended by this instance stopping: handed back, not charged, its command sent again if Kafka takes it. */
    private void release(JobLedger.ClaimedRun run, RunReporter reporter) {
        JobLedger.JobRecord job = run.job();
        String message = "interrupted: instance " + instance.value() + " stopped; the job is queued again";
        try {
            if (!ledger.release(run, reporter.snapshot(), message)) {
                return;
            }
            Log.infof("%s job %s run %d %s", job.kind().wire(), job.id(), run.attempt(), message);
        } catch (RuntimeException e) {
            Log.warnf("%s job %s run %d could not be handed back (%s); another instance takes it over once its "
                    + "heartbeat is stale", job.kind().wire(), job.id(), run.attempt(), e.getMessage());
            return;
        }
        try {
            publisher.republish(job)
                    .await().atMost(STOP_PUBLISH_TIMEOUT);
        } catch (RuntimeException e) {
            Log.infof("%s job %s: its command is sent again by the sweep (%s)", job.kind().wire(), job.id(),
                    e.getMessage());
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
            if (ledger.cancelRequested(job.id())) {
                // cancelled before this failure: no retry is scheduled
                reporter.cancelByOperator("cancelled");
                cancelled(run, reporter);
                return;
            }
            RateLimitRetry.Decision decision = policy.decide(failure, reason, job.retryCount(),
                    job.rateLimitStreak(), job.transientRetries(), reporter.progressedSinceStart(), clock.instant());
            if (decision instanceof RateLimitRetry.Decision.Retry retry) {
                scheduleRetry(run, reporter, retry, RateLimitRetry.classify(failure));
            } else {
                String finalReason = ((RateLimitRetry.Decision.Fail) decision).reason();
                if (ledger.finish(run, RunStatus.FAILED, JobState.FAILED, reporter.snapshot(), reason, finalReason,
                        finalReason)) {
                    metrics.counter("jobs.outcomes", "kind", job.kind().wire(), "outcome", JobState.FAILED.wire())
                            .increment();
                    Log.warnf("%s job %s failed: %s", job.kind().wire(), job.id(), finalReason);
                    events.jobFailed(job.id(), job.kind(), finalReason);
                    if (job.kind() == JobKind.ART_BUILD) {
                        queueFollowUp(job);
                    }
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
            switch (ledger.writeProgress(run.runId(), reporter.snapshot())) {
                case TAKEN_OVER -> reporter.cancel("run " + run.attempt() + " of job " + run.job().id()
                        + " is no longer this instance's (taken over after its heartbeat went stale)");
                case CANCEL_REQUESTED -> reporter.cancelByOperator("job " + run.job().id()
                        + " was cancelled by an operator");
                case GOING_ON -> {
                    // carries on
                }
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
