package dev.cardcatalog.job;

import dev.cardcatalog.platform.OutageConfig;
import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.platform.UnavailableException;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import dev.cardcatalog.platform.ProblemException;
import dev.cardcatalog.scryfall.QuietWindow;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Accepting work from an operator (SERVICE.md §6.3): create the job {@code queued}, publish its command and wait
 * for Kafka to take it, answer 202 with the job and {@code Location: /api/jobs/{id}}. The work runs later, on the
 * instance whose consumer claims the command. While a job of the kind is in flight: 409 naming it. When Kafka does
 * not take the command: the job is failed and the answer is 503 with {@code Retry-After} (SERVICE.md §6.6). The
 * failed job stays as the request's record and keeps a command Kafka takes late (the producer still holds it) from
 * running anything: the ledger ignores a command for a failed job. When the database is unavailable nothing is
 * written and the answer is 503 {@code database-unavailable}.
 */
@ApplicationScoped
public class JobSubmission {

    private final JobLedger ledger;
    private final CommandPublisher publisher;
    private final JobQueries queries;
    private final JobConfig config;
    private final QuietWindow quietWindow;
    private final OutageConfig outage;
    private final EventPublisher events;
    private final ArtBuildFollowUp followUp;

    public JobSubmission(JobLedger ledger, CommandPublisher publisher, JobQueries queries, JobConfig config,
            QuietWindow quietWindow, OutageConfig outage, EventPublisher events, ArtBuildFollowUp followUp) {
        this.followUp = followUp;
        this.ledger = ledger;
        this.publisher = publisher;
        this.queries = queries;
        this.config = config;
        this.quietWindow = quietWindow;
        this.outage = outage;
        this.events = events;
    }

    /**
     * {@code POST /api/refreshes}, {@code POST /api/art-builds} and the admin page's start buttons: a new job of
     * {@code kind}, queued, its command published. Answers 202 with the {@link JobView}.
     *
     * @throws ProblemException 409 {@code job-in-flight} with {@code job_id} while a job of the kind is queued,
     *     running or waiting; 503 {@code kafka-unavailable} with {@code Retry-After} when Kafka did not take the
     *     command within {@code card-catalog.jobs.publish-timeout}
     * @throws dev.cardcatalog.platform.DatabaseUnavailableException when the database is unavailable (503)
     */
    public Response submit(JobKind kind, JobRequest request) {
        return submit(kind, request, null);
    }

    /**
     * As {@link #submit(JobKind, JobRequest)}, by {@code user}: the one who consents when the request sets
     * {@code accept_fewer_artworks} (SERVICE.md §5.8).
     *
     * @throws ProblemException 400 naming {@code accept_fewer_artworks} when it is set on a refresh
     */
    public Response submit(JobKind kind, JobRequest request, String user) {
        JobTrigger trigger = request == null ? JobTrigger.MANUAL : request.jobTrigger();
        boolean acceptFewer = request != null && request.acceptsFewerArtworks();
        if (acceptFewer && kind != JobKind.ART_BUILD) {
            throw ProblemException.badRequest("accept_fewer_artworks",
                    "accept_fewer_artworks is for art builds only (POST /api/art-builds).");
        }
        return create(kind, trigger, "api", acceptFewer
                ? new JobLedger.Consent(true, user == null ? "an unnamed operator" : user)
                : JobLedger.Consent.NONE);
    }

    /**
     * {@code POST /api/jobs/{id}/cancel} (SERVICE.md §6.6). A queued or waiting job is cancelled at once: 200 with
     * the job, now {@code cancelled}, and a {@code job-cancelled} event. A running job is asked to stop: 202 with the
     * job, still {@code running} with {@code cancel_requested_at} set; its run ends {@code cancelled} at its next
     * checkpoint (a batch), and the event is sent then.
     *
     * @param by who cancels (the operator's name)
     * @throws ProblemException 404 when there is no such job; 409 {@code job-finished} with {@code state} when the
     *     job had already ended
     */
    public Response cancel(UUID jobId, String by) {
        JobLedger.Cancellation cancellation = ledger.cancel(jobId, by)
                .orElseThrow(() -> ProblemException.notFound("There is no job " + jobId + "."));
        if (cancellation instanceof JobLedger.Cancellation.AlreadyFinished finished) {
            throw new ProblemException(Problem.of("job-finished", "Job already finished", 409, "Job " + jobId
                    + " is " + finished.job().state() + "; only a queued, waiting or running job can be cancelled.")
                    .with("job_id", jobId)
                    .with("state", finished.job().state().wire()));
        }
        URI location = URI.create("/api/jobs/" + jobId);
        if (cancellation instanceof JobLedger.Cancellation.Cancelled cancelled) {
            JobLedger.JobRecord job = cancelled.job();
            Log.infof("%s job %s cancelled by %s while %s", job.kind().wire(), jobId, by, cancelled.before());
            events.jobCancelled(jobId, job.kind(), by, cancelled.before());
            if (job.kind() == JobKind.ART_BUILD) {
                // a cancelled build queues no follow-up: the operator stopped building
                followUp.take(jobId);
            }
            return Response.ok(queries.view(jobId).orElseThrow()).location(location).build();
        }
        JobLedger.JobRecord job = ((JobLedger.Cancellation.Requested) cancellation).job();
        Log.infof("%s job %s: cancel asked by %s; its run stops at its next checkpoint", job.kind().wire(), jobId, by);
        return Response.accepted(queries.view(jobId).orElseThrow()).location(location).build();
    }

    /**
     * {@code POST /api/jobs/{id}/run-now} (SERVICE.md §6.6): a waiting job runs now instead of at its retry time.
     * 409 when the job is not waiting, or while Scryfall's quiet window is open (with the time it closes).
     */
    public Response runNow(UUID jobId) {
        JobLedger.JobRecord job = ledger.find(jobId)
                .orElseThrow(() -> ProblemException.notFound("There is no job " + jobId + "."));
        if (job.state() != JobState.WAITING) {
            throw conflict("not-waiting", "Job not waiting", "Job " + jobId + " is " + job.state()
                    + "; only a waiting job can run now.", jobId);
        }
        Optional<Instant> closes = quietWindow.closesAt().await().atMost(Duration.ofSeconds(10));
        if (closes.isPresent()) {
            throw new ProblemException(Problem.of("quiet-window-open", "Scryfall asked for quiet", 409,
                    "Scryfall asked this service to wait until " + closes.get() + "; the job cannot run sooner.")
                    .with("job_id", jobId)
                    .with("quiet_until", closes.get().toString()));
        }
        Optional<JobLedger.JobRecord> before = ledger.queueNow(jobId);
        if (before.isEmpty()) {
            throw conflict("not-waiting", "Job not waiting", "Job " + jobId + " is no longer waiting.", jobId);
        }
        try {
            publisher.republish(job)
                    .await().atMost(config.publishTimeout());
        } catch (RuntimeException e) {
            ledger.backToWaiting(before.get());
            Log.errorf("job %s could not be queued to run now: %s", jobId, e.getMessage());
            throw new UnavailableException(Problem.of("kafka-unavailable", "Kafka unavailable", 503,
                    "The command could not be handed to Kafka; the job still waits for its retry.")
                    .with("job_id", jobId), outage.retryAfterSeconds());
        }
        Log.infof("%s job %s queued to run now by an operator", job.kind().wire(), jobId);
        return Response.accepted(queries.view(jobId).orElseThrow()).location(URI.create("/api/jobs/" + jobId)).build();
    }

    /**
     * {@code POST /api/jobs/{id}/retry} (SERVICE.md §6.6): a failed job is queued again as a new job, with the same
     * kind and trigger. 409 when the job did not fail, or while a job of the kind is in flight.
     */
    public Response retry(UUID jobId) {
        JobLedger.JobRecord job = ledger.find(jobId)
                .orElseThrow(() -> ProblemException.notFound("There is no job " + jobId + "."));
        if (job.state() != JobState.FAILED) {
            throw conflict("not-failed", "Job not failed", "Job " + jobId + " is " + job.state()
                    + "; only a failed job can be retried.", jobId);
        }
        return create(job.kind(), job.trigger(), "retry of " + jobId, JobLedger.Consent.NONE);
    }

    private Response create(JobKind kind, JobTrigger trigger, String source, JobLedger.Consent consent) {
        JobLedger.JobRecord job;
        try {
            job = ledger.createQueued(kind, trigger, source, consent);
        } catch (JobInFlightException e) {
            throw new ProblemException(Problem.of("job-in-flight", "Job in flight", 409,
                    "Job " + e.inFlight() + " of kind " + kind.wire() + " is already in flight; one runs at a time.")
                    .with("job_id", e.inFlight())
                    .with("job", "/api/jobs/" + e.inFlight()));
        }
        try {
            publisher.publish(job.command(), 0, java.util.List.of())
                    .await().atMost(config.publishTimeout());
        } catch (RuntimeException e) {
            String reason = "the command could not be published to Kafka: " + e.getMessage();
            if (ledger.failUnpublished(job.id(), reason)) {
                Log.errorf("%s job %s failed: %s", kind.wire(), job.id(), reason);
                throw new UnavailableException(Problem.of("kafka-unavailable", "Kafka unavailable", 503,
                        "The job could not be handed to Kafka; it was recorded as failed and will not run."
                                + " Try again later.")
                        .with("job_id", job.id()), outage.retryAfterSeconds());
            }
            // Kafka took the command after the wait ended and an instance claimed it: the job is accepted
            Log.infof("%s job %s was handed to Kafka late (%s) and is already claimed", kind.wire(), job.id(),
                    e.getMessage());
        }
        Log.infof("%s job %s queued (%s, %s)", kind.wire(), job.id(), trigger.wire(), source);
        JobView view = queries.view(job.id()).orElseThrow();
        return Response.accepted(view).location(URI.create("/api/jobs/" + job.id())).build();
    }

    private static ProblemException conflict(String slug, String title, String detail, UUID jobId) {
        return new ProblemException(Problem.of(slug, title, 409, detail).with("job_id", jobId));
    }
}
