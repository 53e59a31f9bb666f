package dev.cardcatalog.admin;

import dev.cardcatalog.job.JobState;
import dev.cardcatalog.job.JobKind;
import dev.cardcatalog.job.JobRequest;
import dev.cardcatalog.job.JobSubmission;
import dev.cardcatalog.job.JobView;
import dev.cardcatalog.platform.Paging;
import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.platform.ProblemException;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.common.annotation.Blocking;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.StringJoiner;
import java.util.UUID;

/**
 * The admin page (SERVICE.md §8): {@code GET /admin} for {@code viewer} and {@code operator}; its buttons are
 * form POSTs for {@code operator} only, protected by a CSRF token (quarkus-rest-csrf: a cookie and a hidden form
 * field that must match). Each action redirects back (303) to the page with a one-line result, made from the
 * action's outcome code, never from text the request carried. A form whose token is missing, expired or wrong is
 * refused the same way, with {@value #EXPIRED} ({@link ExpiredForms}).
 */
@Path(AdminResource.PATH)
@Blocking
public class AdminResource {

    /** The page's one path: the CSRF filter makes the forms' token for it alone (quarkus.rest-csrf.create-token-path). */
    static final String PATH = "/admin";
    /** The outcome code of a form the CSRF filter refused. */
    static final String EXPIRED = "expired";

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance page(AdminPage page);
    }

    private final AdminPageBuilder pages;
    private final JobSubmission submission;
    private final SecurityIdentity identity;

    public AdminResource(AdminPageBuilder pages, JobSubmission submission, SecurityIdentity identity) {
        this.pages = pages;
        this.submission = submission;
        this.identity = identity;
    }

    /**
     * The page, at {@value #PATH} (matrix parameters ignored). Other spellings of the path that the router also
     * sends here ({@code /admin/}, {@code /admin/./}, {@code /admin;v=1/}) are redirected (301) to it with their
     * query: the CSRF filter makes the token the page's forms carry only for that path, compared as this method
     * compares it, so rendering the page at another one would fail for want of a token.
     *
     * @param state a jobs-list filter: {@code failed}, {@code waiting}, {@code running} or {@code queued}; all jobs
     *     when absent (400 naming {@code state} for another value)
     * @param page the jobs list's page, from 1 (400 naming {@code page} when not a whole number in range)
     * @param result the outcome code of the action that redirected here; {@code job}, {@code until} and
     *     {@code from} complete it. Values that do not parse are ignored.
     */
    @GET
    @Produces(MediaType.TEXT_HTML)
    @RolesAllowed({"viewer", "operator"})
    public Response page(@QueryParam("state") String state, @QueryParam("page") String page,
            @QueryParam("result") String result, @QueryParam("job") String job, @QueryParam("until") String until,
            @QueryParam("from") String from, RoutingContext routing) {
        if (!PATH.equals(HttpSecurityUtils.pathWithoutMatrixParams(routing.normalizedPath()))) {
            return Response.status(Response.Status.MOVED_PERMANENTLY).location(canonical(routing)).build();
        }
        String text = ProblemException.text("state", state);
        JobState filter = text == null ? null : JobState.fromWire(text).filter(AdminPageBuilder.FILTERS::contains)
                .orElseThrow(() -> ProblemException.badRequest("state", "state must be one of "
                        + String.join(", ", AdminPageBuilder.FILTERS.stream().map(JobState::wire).toList()) + ", not "
                        + ProblemException.quote(text) + "."));
        Paging paging = Paging.of(page, null);
        AdminPage.Notice notice = pages.notice(result, uuid(job), instant(until), uuid(from));
        // rendered here: a TemplateInstance inside a Response is written as bare text/html, without its charset
        String html = Templates.page(pages.page(identity.getPrincipal().getName(), identity.hasRole("operator"),
                filter, paging.page(), notice)).render();
        return Response.ok(html, MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).build();
    }

    /** "Refresh now": queues a refresh (trigger {@code manual}); refused while a refresh is in flight. */
    @POST
    @Path("refreshes")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed("operator")
    public Response refresh() {
        return start(JobKind.REFRESH);
    }

    /** "Build art index": queues an art build; refused while one is in flight. */
    @POST
    @Path("art-builds")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed("operator")
    public Response artBuild() {
        return start(JobKind.ART_BUILD);
    }

    /**
     * "Build again, accepting N fewer artworks" on an art build refused for its count: queues an art build that may
     * publish an index with fewer artworks than the current one, by this operator's consent (SERVICE.md §5.8).
     */
    @POST
    @Path("art-builds/accepting-fewer-artworks")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed("operator")
    public Response artBuildAcceptingFewerArtworks() {
        try {
            JobView job = (JobView) submission.submit(JobKind.ART_BUILD, new JobRequest(null, true),
                    identity.getPrincipal().getName()).getEntity();
            return back("queued-fewer", job.id(), null, null);
        } catch (ProblemException e) {
            return refused(e.problem(), null);
        }
    }

    /** "Cancel" on a queued, waiting or running job (as POST /api/jobs/{id}/cancel). */
    @POST
    @Path("jobs/{id}/cancel")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed("operator")
    public Response cancel(@PathParam("id") String id) {
        UUID jobId = uuid(id);
        if (jobId == null) {
            return back("not-found", null, null, null);
        }
        try {
            Response answer = submission.cancel(jobId, identity.getPrincipal().getName());
            return back(answer.getStatus() == 200 ? "cancelled" : "cancel-requested", jobId, null, null);
        } catch (ProblemException e) {
            if (e.problem().status() == 404) {
                return back("not-found", null, null, null);
            }
            return refused(e.problem(), jobId);
        }
    }

    /** "Run now" on a waiting job; refused while Scryfall's quiet window is open (as POST /api/jobs/{id}/run-now). */
    @POST
    @Path("jobs/{id}/run-now")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed("operator")
    public Response runNow(@PathParam("id") String id) {
        UUID jobId = uuid(id);
        if (jobId == null) {
            return back("not-found", null, null, null);
        }
        try {
            submission.runNow(jobId);
            return back("run-now", jobId, null, null);
        } catch (ProblemException e) {
            return refused(e.problem(), jobId);
        }
    }

    /** "Retry" on a failed job: a new job of its kind (as POST /api/jobs/{id}/retry). */
    @POST
    @Path("jobs/{id}/retry")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed("operator")
    public Response retry(@PathParam("id") String id) {
        UUID jobId = uuid(id);
        if (jobId == null) {
            return back("not-found", null, null, null);
        }
        try {
            JobView retried = (JobView) submission.retry(jobId).getEntity();
            return back("retried", retried.id(), null, jobId);
        } catch (ProblemException e) {
            return refused(e.problem(), jobId);
        }
    }

    private Response start(JobKind kind) {
        try {
            JobView job = (JobView) submission.submit(kind, null).getEntity();
            return back("queued", job.id(), null, null);
        } catch (ProblemException e) {
            return refused(e.problem(), null);
        }
    }

    private static Response refused(Problem problem, UUID jobId) {
        String slug = problem.type().substring(Problem.TYPE_BASE.length());
        Object job = problem.extensions().get("job_id");
        Object until = problem.extensions().get("quiet_until");
        return back(slug, job == null ? jobId : uuid(job.toString()), until == null ? null : until.toString(), null);
    }

    static Response back(String result, UUID job, String until, UUID from) {
        UriBuilder uri = UriBuilder.fromPath(PATH).queryParam("result", result);
        if (job != null) {
            uri.queryParam("job", job);
        }
        if (until != null) {
            uri.queryParam("until", until);
        }
        if (from != null) {
            uri.queryParam("from", from);
        }
        return Response.seeOther(uri.build()).build();
    }

    /**
     * {@value #PATH} with the request's query parameters, each encoded again (form encoding): whatever the query
     * held, such as braces that a URI template would take for a variable, the address is valid.
     */
    private static URI canonical(RoutingContext routing) {
        StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
        routing.queryParams().forEach((name, value) -> query.add(URLEncoder.encode(name, StandardCharsets.UTF_8)
                + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8)));
        return URI.create(PATH + query);
    }

    private static UUID uuid(String text) {
        try {
            return text == null ? null : UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Instant instant(String text) {
        try {
            return text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
