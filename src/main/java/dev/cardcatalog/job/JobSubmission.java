package dev.cardcatalog.job;

import dev.cardcatalog.platform.Problem;
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
 * not take the command: the job is failed and the answer is 503.
 */
@ApplicationScoped
public class JobSubmission {

    private final JobLedger ledger;
    private final CommandPublisher publisher;
    private final JobQueries queries;
    private final JobConfig config;
    private final QuietWindow quietWindow;

    public JobSubmission(JobLedger ledger, CommandPublisher publisher, JobQueries queries, JobConfig config,
            QuietWindow quietWindow) {
        this.ledger = ledger;
        this.publisher = publisher;
        this.queries = queries;
        this.config = config;
        this.quietWindow = quietWindow;
    }

    /**
     * {@code POST /api/refreshes}, {@code POST /api/art-builds} and the admin page's start buttons: a new job of
     * {@code kind}, queued, its command published. Answers 202 with the {@link JobView}.
     *
     * @throws ProblemException 409 {@code job-in-flight} with {@code job_id} while a job of the kind is queued,
     *     running or waiting; 503 {@code kafka-unavailable} when Kafka did not take the command
     */
    public Response submit(JobKind kind, JobRequest request) {
        JobTrigger trigger = request == null ? JobTrigger.MANUAL : request.jobTrigger();
        return create(kind, trigger, "api");
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
            throw new ProblemException(Problem.of("kafka-unavailable", "Kafka unavailable", 503,
                    "The command could not be handed to Kafka; the job still waits for its retry.")
                    .with("job_id", jobId));
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
        return create(job.kind(), job.trigger(), "retry of " + jobId);
    }

    private Response create(JobKind kind, JobTrigger trigger, String source) {
        JobLedger.JobRecord job;
        try {
            job = ledger.createQueued(kind, trigger, source);
        } catch (JobInFlightException e) {
            throw new ProblemException(Problem.of("job-in-flight", "Job in flight", 409,
                    "Job " + e.inFlight() + " of kind " + kind.wire() + " is already in flight; one runs at a time.")
                    .with("job_id", e.inFlight())
                    .with("job", "/api/jobs/" + e.inFlight()));
        }
        try {
            publisher.publish(Command.of(kind, job.id(), trigger), 0, java.util.List.of())
                    .await().atMost(config.publishTimeout());
        } catch (RuntimeException e) {
            String reason = "the command could not be published to Kafka: " + e.getMessage();
            Log.errorf("%s job %s failed: %s", kind.wire(), job.id(), reason);
            ledger.failUnpublished(job.id(), reason);
            throw new ProblemException(Problem.of("kafka-unavailable", "Kafka unavailable", 503,
                    "The job could not be handed to Kafka; it was recorded as failed. Try again later.")
                    .with("job_id", job.id()));
        }
        Log.infof("%s job %s queued (%s, %s)", kind.wire(), job.id(), trigger.wire(), source);
        JobView view = queries.view(job.id()).orElseThrow();
        return Response.accepted(view).location(URI.create("/api/jobs/" + job.id())).build();
    }

    private static ProblemException conflict(String slug, String title, String detail, UUID jobId) {
        return new ProblemException(Problem.of(slug, title, 409, detail).with("job_id", jobId));
    }
}
