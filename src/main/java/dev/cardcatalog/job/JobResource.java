package dev.cardcatalog.job;

import dev.cardcatalog.platform.ApiAccess;
import dev.cardcatalog.platform.Paging;
import dev.cardcatalog.platform.ProblemException;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Jobs and their runs, and the operator's actions on them (SERVICE.md §6.6). Reading needs role {@code viewer} or
 * {@code operator}; the actions need {@code operator} (SERVICE.md §7).
 */
@RolesAllowed({"viewer", "operator"})
@SecurityRequirement(name = "basic", scopes = {"viewer", "operator"})
@SecurityRequirement(name = "bearer", scopes = {"viewer", "operator"})
@Tag(name = "Jobs")
@Path("/api/jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobResource {

    private final JobQueries queries;
    private final JobSubmission submission;
    private final SecurityIdentity identity;

    public JobResource(JobQueries queries, JobSubmission submission, SecurityIdentity identity) {
        this.queries = queries;
        this.submission = submission;
        this.identity = identity;
    }

    /**
     * Cancels a job (SERVICE.md §6.6): 200 with the job {@code cancelled} when it was queued or waiting; 202 with
     * the job still {@code running} (and {@code cancel_requested_at}) when it runs: it ends {@code cancelled} at its
     * run's next checkpoint. 409 {@code job-finished} naming its {@code state} when it had already ended.
     */
    @POST
    @RolesAllowed("operator")
    @SecurityRequirement(name = "basic", scopes = "operator")
    @SecurityRequirement(name = "bearer", scopes = "operator")
    @Path("{id}/cancel")
    @Operation(operationId = "cancelJob", summary = "Cancels a job", description = """
            Cancels a job (SERVICE.md §6.6); `cancelled_by` records the operator's name, and a `job-cancelled` event \
            goes to `card-catalog.events`. A queued or waiting job is cancelled at once (200), and its kind's place \
            in flight is free for the next POST. A running job (202) stops at its run's next checkpoint and then \
            ends `cancelled`; what its run wrote stays, and the next run of its kind carries on from it. Asking \
            again changes nothing; a job that had already ended is 409 `job-finished`, with its `state`.

            """ + ApiAccess.OPERATOR)
    @APIResponse(responseCode = "200", description = "The job, now `cancelled`: it was queued or waiting.",
            headers = @Header(name = "Location", ref = "Location"),
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = JobView.class)))
    @APIResponse(responseCode = "202", description = "The job, still `running` with `cancel_requested_at` set: its "
            + "run stops at its next checkpoint and ends `cancelled`.",
            headers = @Header(name = "Location", ref = "Location"),
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = JobView.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequestOrForm")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "409", ref = "JobFinished")
    @APIResponse(responseCode = "500", ref = "InternalError")
    @APIResponse(responseCode = "503", ref = "DatabaseUnavailable")
    public Response cancel(@PathParam("id") @Parameter(schema = @Schema(type = SchemaType.STRING, format = "uuid"))
            String id) {
        return submission.cancel(uuid("id", id), identity.getPrincipal().getName());
    }

    /** A waiting job runs now instead of at its retry time: 202; 409 if not waiting or Scryfall asked for quiet. */
    @POST
    @RolesAllowed("operator")
    @SecurityRequirement(name = "basic", scopes = "operator")
    @SecurityRequirement(name = "bearer", scopes = "operator")
    @Path("{id}/run-now")
    @Operation(operationId = "runJobNow", summary = "Runs a waiting job now", description = """
            Runs a `waiting` job now, instead of at its `retry_at`. Refused with 409 `not-waiting` when the job is \
            not waiting, and with 409 `quiet-window-open` while Scryfall's quiet window is open (`quiet_until` says \
            when it closes; an operator who knows better can close it first: `closeQuietWindow`).

            """ + ApiAccess.OPERATOR)
    @APIResponse(responseCode = "202", description = "The job, queued to run now.",
            headers = @Header(name = "Location", ref = "Location"),
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = JobView.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequestOrForm")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "409", ref = "NotWaitingOrQuietWindowOpen")
    @APIResponse(responseCode = "500", ref = "InternalError")
    @APIResponse(responseCode = "503", ref = "KafkaOrDatabaseUnavailable")
    public Response runNow(@PathParam("id") @Parameter(schema = @Schema(type = SchemaType.STRING, format = "uuid"))
            String id) {
        return submission.runNow(uuid("id", id));
    }

    /** A failed job is queued again as a new job: 202 with the new job; 409 if not failed or one is in flight. */
    @POST
    @RolesAllowed("operator")
    @SecurityRequirement(name = "basic", scopes = "operator")
    @SecurityRequirement(name = "bearer", scopes = "operator")
    @Path("{id}/retry")
    @Operation(operationId = "retryJob", summary = "Queues a failed job again as a new job", description = """
            Queues a `failed` job again as a new job, with the same kind and trigger; the new job's `source` is \
            `retry of <id>`. The failed job stays as it was, so it can be retried again later. Refused with 409 \
            `not-failed` when the job did not fail, and `job-in-flight` while a job of its kind is in flight.

            """ + ApiAccess.OPERATOR)
    @APIResponse(responseCode = "202", description = "The new job, queued; `Location` is its URL.",
            headers = @Header(name = "Location", ref = "Location"),
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = JobView.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequestOrForm")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "409", ref = "NotFailedOrJobInFlight")
    @APIResponse(responseCode = "500", ref = "InternalError")
    @APIResponse(responseCode = "503", ref = "KafkaOrDatabaseUnavailable")
    public Response retry(@PathParam("id") @Parameter(schema = @Schema(type = SchemaType.STRING, format = "uuid"))
            String id) {
        return submission.retry(uuid("id", id));
    }

    /** A job with all its runs, newest first. 404 when there is no such job. */
    @GET
    @Path("{id}")
    @Operation(operationId = "getJob", summary = "A job with all its runs, newest first", description = """
            A job with all its runs, newest first. Its `state` is one of `queued`, `running`, `waiting`, \
            `succeeded`, `skipped`, `failed` and `cancelled`; `interrupted` is true for a running job whose run has \
            not sent a heartbeat within its kind's threshold. `source` is `api`, `retry of <id>`, `after refresh \
            <id>` (an art build an applied refresh started) or the `<topic>/<partition>/<offset>` of the command \
            record. `trace_id` is the W3C trace id of the job's trace, which holds every run, Scryfall call and \
            Kafka record of the job (null for a job made while tracing was off). A run's `done` and `total` count \
            bytes while it downloads and reads the file, and are null when its stage has no measure.

            """ + ApiAccess.VIEWER)
    @APIResponse(responseCode = "200", description = "The job with all its runs, newest first.",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = JobView.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "500", ref = "InternalError")
    @APIResponse(responseCode = "503", ref = "DatabaseUnavailable")
    public JobView get(@PathParam("id") @Parameter(schema = @Schema(type = SchemaType.STRING, format = "uuid"))
            String id) {
        UUID jobId = uuid("id", id);
        return queries.view(jobId).orElseThrow(() -> ProblemException.notFound("There is no job " + id + "."));
    }

    /**
     * Jobs newest first, each with its 5 newest runs.
     *
     * @param kind {@code refresh} or {@code art-build}; all kinds when absent
     * @param state one of the job states; all when absent
     * @param page from 1 to 1,000,000; 1 when absent
     * @param size 1 to 100; 20 when absent
     */
    @GET
    @Operation(operationId = "listJobs", summary = "Jobs newest first, each with its 5 newest runs",
            description = """
            Jobs newest first, each with its 5 newest runs, of one `kind` and `state` if given, a page at a time: \
            `{"items": [...], "page", "size", "total"}`. A parameter that is none of the values below is 400 \
            `invalid-request`, naming it in `field`.

            """ + ApiAccess.VIEWER)
    @APIResponse(responseCode = "200", description = "A page of jobs, newest first, each with its 5 newest runs.",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = JobPage.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "500", ref = "InternalError")
    @APIResponse(responseCode = "503", ref = "DatabaseUnavailable")
    public JobPage list(
            @QueryParam("kind") @Parameter(description = "The jobs' kind; all kinds when absent.", schema = @Schema(
                    type = SchemaType.STRING, enumeration = {"refresh", "art-build"})) String kindParam,
            @QueryParam("state") @Parameter(description = "The jobs' state; all states when absent.",
                    schema = @Schema(implementation = JobState.class)) String stateParam,
            @QueryParam("page") @Parameter(description = Paging.PAGE, schema = @Schema(type = SchemaType.INTEGER,
                    minimum = "1", maximum = "1000000", defaultValue = "1")) String page,
            @QueryParam("size") @Parameter(description = Paging.SIZE, schema = @Schema(type = SchemaType.INTEGER,
                    minimum = "1", maximum = "100", defaultValue = "20")) String size) {
        Paging paging = Paging.of(page, size);
        String kind = ProblemException.text("kind", kindParam);
        String state = ProblemException.text("state", stateParam);
        JobKind jobKind = null;
        if (kind != null) {
            jobKind = JobKind.fromWire(kind).orElseThrow(() -> ProblemException.badRequest("kind",
                    "kind must be refresh or art-build, not " + ProblemException.quote(kind) + "."));
        }
        JobState jobState = null;
        if (state != null) {
            jobState = JobState.fromWire(state).orElseThrow(() -> ProblemException.badRequest("state",
                    "state must be one of " + String.join(", ", java.util.Arrays.stream(JobState.values())
                            .map(JobState::wire).sorted().toList()) + ", not " + ProblemException.quote(state) + "."));
        }
        return queries.list(jobKind, jobState, paging.page(), paging.size());
    }

    static UUID uuid(String field, String text) {
        try {
            UUID id = UUID.fromString(text);
            if (id.toString().equalsIgnoreCase(text)) {
                return id;
            }
        } catch (IllegalArgumentException ignored) {
            // answered below
        }
        throw ProblemException.badRequest(field, field + " must be a UUID, not " + ProblemException.quote(text) + ".");
    }
}
