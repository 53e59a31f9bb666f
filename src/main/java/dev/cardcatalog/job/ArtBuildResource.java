package dev.cardcatalog.job;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code POST /api/art-builds} (SERVICE.md §6.3): queues an art build and answers 202 with the job and its
 * {@code Location}; 409 while an art build is queued, running or waiting. Role {@code operator} (SERVICE.md §7).
 * The body may carry {@code "accept_fewer_artworks": true}: the operator's consent, recorded on the job with their
 * name, to publish an index with fewer artworks than the current one (SERVICE.md §5.8).
 */
@RolesAllowed("operator")
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
    public Response create(@Valid JobRequest request) {
        return submission.submit(JobKind.ART_BUILD, request, identity.getPrincipal().getName());
    }
}
