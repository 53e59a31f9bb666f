package dev.cardcatalog.job;

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
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code POST /api/refreshes} (SERVICE.md §6.3): queues a catalog refresh and answers 202 with the job and its
 * {@code Location}; 409 while a refresh is queued, running or waiting. Role {@code operator} (SERVICE.md §7).
 */
@RolesAllowed("operator")
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
    @Operation(operationId = "startRefresh", extensions = @Extension(name = "x-problems",
            value = "invalid-request job-in-flight body-too-large unsupported-media-type "
                    + "kafka-unavailable database-unavailable"))
    @APIResponse(responseCode = "202", description = "The refresh job, queued; `Location` is its URL.",
            headers = @Header(name = "Location", ref = "Location"),
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = JobView.class)))
    @CustomDeserialization(StrictJson.class)
    public Response create(@RequestBody(required = false) @Valid JobRequest request) {
        return submission.submit(JobKind.REFRESH, request, identity.getPrincipal().getName());
    }
}
