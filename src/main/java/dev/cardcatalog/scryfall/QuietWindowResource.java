package dev.cardcatalog.scryfall;

import dev.cardcatalog.platform.ApiAccess;
import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.platform.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Scryfall's quiet windows (SERVICE.md §3.3), one per host, for operators: {@code GET} shows each stored window,
 * open or not, with who closed it early and when; {@code POST …/{scope}/close} closes an open one now.
 */
@Tag(name = "Scryfall")
@Path("/api/scryfall/quiet-windows")
@Produces(MediaType.APPLICATION_JSON)
public class QuietWindowResource {

    /** A window as operators see it; {@code open} is whether it is open now. Times are UTC instants. */
    public record QuietWindowView(String scope, boolean open, Instant openedAt, Instant until, String openedBy,
            @Schema(nullable = true) String reason, @Schema(nullable = true) Instant closedAt,
            @Schema(nullable = true) String closedBy) {

        static QuietWindowView of(QuietWindow.Record window, Instant now) {
            return new QuietWindowView(window.scope(), window.until().isAfter(now), window.openedAt(),
                    window.until(), window.openedBy(), window.reason(), window.closedAt(), window.closedBy());
        }
    }

    private final QuietWindow quietWindow;
    private final Clock clock;

    public QuietWindowResource(QuietWindow quietWindow, Clock clock) {
        this.quietWindow = quietWindow;
        this.clock = clock;
    }

    /** Every stored window by scope ({@code host} or {@code host:port}), open or not. */
    @GET
    @RolesAllowed({"viewer", "operator"})
    @SecurityRequirement(name = "basic", scopes = {"viewer", "operator"})
    @SecurityRequirement(name = "bearer", scopes = {"viewer", "operator"})
    @Operation(operationId = "listQuietWindows", summary = "Every stored quiet window", description = """
            Every stored quiet window (SERVICE.md §3.3), open or not, one per scope: the host Scryfall answered \
            from, with `:port` when the URL names one (`api.scryfall.com`).

            """ + ApiAccess.VIEWER)
    @APIResponse(responseCode = "200", description = "Every stored window, open or not.", content = @Content(
            mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(type = SchemaType.ARRAY, implementation = QuietWindowView.class)))
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "500", ref = "InternalError")
    public Uni<List<QuietWindowView>> list() {
        return quietWindow.all().map(windows -> {
            Instant now = clock.instant();
            return windows.stream().map(window -> QuietWindowView.of(window, now)).toList();
        });
    }

    /** The window of one scope; 404 when none was ever stored for it. */
    @GET
    @Path("{scope}")
    @RolesAllowed({"viewer", "operator"})
    @SecurityRequirement(name = "basic", scopes = {"viewer", "operator"})
    @SecurityRequirement(name = "bearer", scopes = {"viewer", "operator"})
    @Operation(operationId = "getQuietWindow", summary = "The quiet window of one scope", description = """
            The quiet window of one scope, open or not; 404 when none was ever stored for the scope. `open` is \
            whether it is open now. `closed_at` and `closed_by` are set when an operator closed it early, and \
            cleared when a later answer opens it again. `until` is never more than \
            `card-catalog.scryfall.quiet-window-max` (1 h) after `opened_at`.

            """ + ApiAccess.VIEWER)
    @APIResponse(responseCode = "200", description = "The scope's window, open or not.",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = QuietWindowView.class)))
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "500", ref = "InternalError")
    public Uni<QuietWindowView> get(@PathParam("scope") String scope) {
        return quietWindow.find(scope).map(found -> found.map(window -> QuietWindowView.of(window, clock.instant()))
                .orElseThrow(() -> unknown(scope)));
    }

    /**
     * Closes an open window now: 200 with the window, recording the principal's name ({@code anonymous} without
     * authentication) and the time. 409 when it is not open, 404 when there is none for the scope.
     */
    @POST
    @Path("{scope}/close")
    @RolesAllowed("operator")
    @SecurityRequirement(name = "basic", scopes = "operator")
    @SecurityRequirement(name = "bearer", scopes = "operator")
    @Operation(operationId = "closeQuietWindow", summary = "Closes an open quiet window now", description = """
            Closes an open window now, so calls ask Scryfall again at once: `until` becomes now, and `closed_at` / \
            `closed_by` record when and by whom (the authenticated principal's name). 409 \
            `quiet-window-not-open` when it has already closed; 404 when no window was ever stored for the scope.

            """ + ApiAccess.OPERATOR)
    @APIResponse(responseCode = "200", description = "The window, closed now: `until` is now, `closed_at` and "
            + "`closed_by` say when and by whom.",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = QuietWindowView.class)))
    @APIResponse(responseCode = "400", ref = "FormRefused")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "409", ref = "QuietWindowNotOpen")
    @APIResponse(responseCode = "500", ref = "InternalError")
    public Uni<QuietWindowView> close(@PathParam("scope") String scope, @Context SecurityContext security) {
        Principal principal = security == null ? null : security.getUserPrincipal();
        String who = principal == null || principal.getName() == null || principal.getName().isBlank()
                ? "anonymous" : principal.getName();
        return quietWindow.close(scope, who).map(closing -> {
            Instant now = clock.instant();
            if (closing instanceof QuietWindow.Closing.Closed closed) {
                return QuietWindowView.of(closed.window(), now);
            }
            if (closing instanceof QuietWindow.Closing.NotOpen notOpen) {
                throw new ProblemException(Problem.of("quiet-window-not-open", "Quiet window not open", 409,
                        "The quiet window for " + ProblemException.quote(scope) + " closed at "
                                + notOpen.window().until() + "; there is nothing to close.")
                        .with("scope", scope));
            }
            throw unknown(scope);
        });
    }

    private static ProblemException unknown(String scope) {
        return ProblemException.notFound("There is no quiet window for " + ProblemException.quote(scope) + ".");
    }
}
