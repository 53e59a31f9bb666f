package dev.cardcatalog.job;

import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.platform.ProblemMappers;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.net.URI;

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

    public JobSubmission(JobLedger ledger, CommandPublisher publisher, JobQueries queries, JobConfig config) {
        this.ledger = ledger;
        this.publisher = publisher;
        this.queries = queries;
        this.config = config;
    }

    Response submit(JobKind kind, JobRequest request) {
        JobTrigger trigger = request == null ? JobTrigger.MANUAL : request.jobTrigger();
        JobLedger.JobRecord job;
        try {
            job = ledger.createQueued(kind, trigger, "api");
        } catch (JobInFlightException e) {
            return ProblemMappers.respond(Problem.of("job-in-flight", "Job in flight", 409,
                    "A " + kind.wire() + " job is already in flight: " + e.inFlight() + ". One runs at a time.")
                    .with("job_id", e.inFlight())
                    .with("job", "/api/jobs/" + e.inFlight()));
        }
        try {
            publisher.publish(Command.of(kind, job.id(), trigger), 0).await().atMost(config.publishTimeout());
        } catch (RuntimeException e) {
            String reason = "the command could not be published to Kafka: " + e.getMessage();
            Log.errorf("%s job %s failed: %s", kind.wire(), job.id(), reason);
            ledger.failUnpublished(job.id(), reason);
            return ProblemMappers.respond(Problem.of("kafka-unavailable", "Kafka unavailable", 503,
                    "The job could not be handed to Kafka; it was recorded as failed. Try again later.")
                    .with("job_id", job.id()));
        }
        Log.infof("%s job %s queued (%s)", kind.wire(), job.id(), trigger.wire());
        JobView view = queries.view(job.id()).orElseThrow();
        return Response.accepted(view).location(URI.create("/api/jobs/" + job.id())).build();
    }
}
