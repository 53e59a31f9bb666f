package dev.cardcatalog.platform;

import io.quarkus.logging.Log;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticator;
import io.smallrye.mutiny.Uni;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.Locale;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The answers to requests the service refuses to serve, as problem+json like every other error (SERVICE.md §7):
 * <ul>
 * <li>401 {@code unauthorized}, with the {@code WWW-Authenticate} challenge of the configured mechanisms, when an
 * endpoint needs a user and the request has none, or credentials that are not accepted. The answer is the same
 * for an unknown user and a wrong password. A refused credential is logged (WARN) with the remote address, the
 * scheme and the request line, never the credential or the user name.</li>
 * <li>403 {@code forbidden} when the user lacks the endpoint's role.</li>
 * <li>503 {@code service-busy} with {@code Retry-After} when a limit is reached ({@link BusyException}), and 503
 * with {@code Retry-After} whenever the service asks a client to come back ({@link UnavailableException}).</li>
 * <li>503 {@code database-unavailable} with {@code Retry-After} while PostgreSQL cannot do the work
 * ({@link DatabaseUnavailableException}; SERVICE.md §6.6), logged at WARN: an outage, not a defect. A person's
 * browser on the admin page gets the same 503 and {@code Retry-After} as a short HTML page that says so and
 * reloads itself.</li>
 * </ul>
 * These mappers take precedence over Quarkus's own (priority {@code USER + 1}), which answer without a body.
 */
public class RefusalMappers {

    private static final int PRIORITY = Priorities.USER - 10;

    private static final String HTML = "text/html; charset=UTF-8";

    private final OutageConfig outage;

    public RefusalMappers(OutageConfig outage) {
        this.outage = outage;
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Uni<Response> unauthorized(UnauthorizedException e, RoutingContext context, UriInfo uri) {
        return challenge(context, Problem.of("unauthorized", "Unauthorized", 401,
                "This needs the credentials of a user with the right role.").at(uri.getPath()));
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Uni<Response> authenticationFailed(AuthenticationFailedException e, RoutingContext context, UriInfo uri) {
        SocketAddress remote = context.request().remoteAddress();
        Log.warnf("credentials refused: %s from %s for %s %s", scheme(context),
                remote == null ? "an unknown address" : remote.hostAddress(), context.request().method(),
                printable(uri.getPath()));
        return challenge(context, Problem.of("unauthorized", "Unauthorized", 401,
                "The credentials were not accepted.").at(uri.getPath()));
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Response forbidden(ForbiddenException e, UriInfo uri) {
        return ProblemMappers.respond(Problem.of("forbidden", "Forbidden", 403,
                "Your role does not allow this.").at(uri.getPath()));
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Response unavailable(UnavailableException e, UriInfo uri) {
        return Response.fromResponse(ProblemMappers.respond(e.problem().at(uri.getPath())))
                .header("Retry-After", String.valueOf(e.retryAfterSeconds())).build();
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Response databaseUnavailable(DatabaseUnavailableException e, UriInfo uri, HttpHeaders headers) {
        Log.warnf("request %s refused: %s", printable(uri.getPath()), e.getMessage());
        long retryAfter = outage.retryAfterSeconds();
        if (forPeople(uri, headers)) {
            return Response.status(503).type(HTML).header("Retry-After", String.valueOf(retryAfter))
                    .entity(outagePage(retryAfter)).build();
        }
        return unavailable(new UnavailableException(Problem.of("database-unavailable", "Database unavailable", 503,
                "The database is unavailable at the moment; nothing was done. Try again later."), retryAfter), uri);
    }

    /**
     * Whether the refused request came from a person's browser on the admin page (SERVICE.md §8): a request under
     * {@code /admin} that accepts HTML. Programs get problem+json as everywhere else.
     */
    private static boolean forPeople(UriInfo uri, HttpHeaders headers) {
        String path = uri.getPath();
        return (path.equals("/admin") || path.startsWith("/admin/"))
                && headers.getAcceptableMediaTypes().stream().anyMatch(type -> !type.isWildcardType()
                        && type.isCompatible(MediaType.TEXT_HTML_TYPE));
    }

    /**
     * A plain page that says what happened and reloads itself after {@code retryAfter} seconds (a meta refresh, which
     * the admin page's Content-Security-Policy allows: it is not a script). A form pressed during the outage did
     * nothing; the reload is a GET of the page, so nothing is sent again.
     */
    static String outagePage(long retryAfter) {
        return """
                <!DOCTYPE html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta http-equiv="refresh" content="%1$d; url=/admin">
                <title>card-catalog: database unavailable</title>
                </head>
                <body>
                <h1>The database is unavailable</h1>
                <p>card-catalog cannot reach PostgreSQL at the moment, so this page cannot be shown and nothing was \
                done. Work already accepted waits and carries on when the database is back.</p>
                <p>This page tries again in %1$d s. <a href="/admin">Try again now</a>.</p>
                </body>
                </html>
                """.formatted(retryAfter);
    }

    /** The problem with the challenge of the mechanism that refused the request, or of the first one configured. */
    private static Uni<Response> challenge(RoutingContext context, Problem problem) {
        HttpAuthenticator authenticator = context.get(HttpAuthenticator.class.getName());
        Uni<ChallengeData> challenge = authenticator == null ? Uni.createFrom().nullItem()
                : authenticator.getChallenge(context).onFailure().recoverWithNull();
        return challenge.map(data -> {
            Response.ResponseBuilder response = Response.fromResponse(ProblemMappers.respond(problem));
            if (data != null) {
                data.getHeaders().forEach((name, value) -> response.header(name.toString(), value));
            }
            return response.build();
        });
    }

    /** The scheme of the request's {@code Authorization} header, if it is one the service knows. */
    private static String scheme(RoutingContext context) {
        String authorization = context.request().getHeader("Authorization");
        if (authorization == null) {
            return "no credentials";
        }
        String scheme = authorization.strip().split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
        return switch (scheme) {
            case "basic" -> "Basic credentials";
            case "bearer" -> "a bearer token";
            default -> "credentials of another scheme";
        };
    }

    /** A path fit for a log line: printable characters only, at most 200. */
    private static String printable(String text) {
        StringBuilder shown = new StringBuilder();
        text.codePoints().limit(200).forEach(c -> shown.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return text.codePointCount(0, text.length()) > 200 ? shown.append('…').toString() : shown.toString();
    }
}
