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
 * {@code POST /api/refreshes} (SERVICE.md §6.3): queues a catalog refresh and answers 202 with the job and its
 * {@code Location}; 409 while a refresh is queued, running or waiting. Role {@code operator} (SERVICE.md §7).
 */
@RolesAllowed("operator")
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
    public Response create(@Valid JobRequest request) {
        return submission.submit(JobKind.REFRESH, request, identity.getPrincipal().getName());
    }
}
