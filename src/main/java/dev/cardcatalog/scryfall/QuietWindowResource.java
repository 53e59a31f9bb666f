package dev.cardcatalog.scryfall;

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
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
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
    @Operation(operationId = "listQuietWindows")
    @APIResponse(responseCode = "200", description = "Every stored window, open or not.", content = @Content(
            mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(type = SchemaType.ARRAY, implementation = QuietWindowView.class)))
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
    @Operation(operationId = "getQuietWindow", extensions = @Extension(name = "x-problems", value = "not-found"))
    @APIResponse(responseCode = "200", description = "The scope's window, open or not.",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = QuietWindowView.class)))
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
    @Operation(operationId = "closeQuietWindow", extensions = @Extension(name = "x-problems",
            value = "not-found quiet-window-not-open"))
    @APIResponse(responseCode = "200", description = "The window, closed now: `until` is now, `closed_at` and "
            + "`closed_by` say when and by whom.",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = QuietWindowView.class)))
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
