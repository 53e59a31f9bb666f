package dev.cardcatalog.job;

import dev.cardcatalog.platform.ApiAccess;
import dev.cardcatalog.platform.StrictJson;
import io.quarkus.resteasy.reactive.jackson.CustomDeserialization;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code POST /api/refreshes} (SERVICE.md §6.3): queues a catalog refresh and answers 202 with the job and its
 * {@code Location}; 409 while a refresh is queued, running or waiting. Role {@code operator} (SERVICE.md §7).
 */
@RolesAllowed("operator")
@SecurityRequirement(name = "basic", scopes = "operator")
@SecurityRequirement(name = "bearer", scopes = "operator")
@Tag(name = "Jobs")
@Path("/api/refreshes")
public class RefreshResource {

    private final JobSubmission submission;
    private final SecurityIdentity identity;

    public RefreshResource(JobSubmission submission, SecurityIdentity identity) {
        this.submission = submission;
        this.identity = identity;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "startRefresh", summary = "Queues a catalog refresh", description = """
            Queues a catalog refresh: the work runs later, on whichever instance claims the command from Kafka. The \
            body is optional: `{"trigger": "manual" | "scheduled" | "api"}`, `manual` when absent; a scheduled \
            refresh of a bulk file version already applied with the same languages ends `skipped`. A field the \
            request does not have is refused, never dropped.

            One refresh is in flight at a time: 409 `job-in-flight` names it in `job_id`. When Kafka does not take \
            the command within `card-catalog.jobs.publish-timeout` (10 s), the job is recorded as failed and never \
            runs (503 `kafka-unavailable`, with its id in `job_id`).

            """ + ApiAccess.OPERATOR)
    @APIResponse(responseCode = "202", description = "The refresh job, queued; `Location` is its URL.",
            headers = @Header(name = "Location", ref = "Location"),
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = JobView.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequestOrForm")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "409", ref = "JobInFlight")
    @APIResponse(responseCode = "413", ref = "BodyTooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "500", ref = "InternalError")
    @APIResponse(responseCode = "503", ref = "KafkaOrDatabaseUnavailable")
    @CustomDeserialization(StrictJson.class)
    public Response create(@RequestBody(required = false) @Valid JobRequest request) {
        return submission.submit(JobKind.REFRESH, request, identity.getPrincipal().getName());
    }
}
