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
 * {@code POST /api/art-builds} (SERVICE.md §6.3): queues an art build and answers 202 with the job and its
 * {@code Location}; 409 while an art build is queued, running or waiting. Role {@code operator} (SERVICE.md §7).
 * The body may carry {@code "accept_fewer_artworks": true}: the operator's consent, recorded on the job with their
 * name, to publish an index with fewer artworks than the current one (SERVICE.md §5.8).
 */
@RolesAllowed("operator")
@SecurityRequirement(name = "basic", scopes = "operator")
@SecurityRequirement(name = "bearer", scopes = "operator")
@Tag(name = "Jobs")
@Path("/api/art-builds")
public class ArtBuildResource {

    private final JobSubmission submission;
    private final SecurityIdentity identity;

    public ArtBuildResource(JobSubmission submission, SecurityIdentity identity) {
        this.submission = submission;
        this.identity = identity;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "startArtBuild", summary = "Queues an art build", description = """
            Queues an art build, as `startRefresh` queues a refresh, with the same answers. Its body may also say \
            `{"accept_fewer_artworks": true}`: the operator's consent to publish an index with fewer artworks than \
            the current one (SERVICE.md §5.8), for a catalog that really shrank. Without it, a build whose index \
            would hold fewer artworks than the current one by more than `card-catalog.art.max-failed-share` fails. \
            The job shows the consent in `accept_fewer_artworks` and who gave it in `consented_by`.

            """ + ApiAccess.OPERATOR)
    @APIResponse(responseCode = "202", description = "The art build job, queued; `Location` is its URL.",
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
        return submission.submit(JobKind.ART_BUILD, request, identity.getPrincipal().getName());
    }
}
