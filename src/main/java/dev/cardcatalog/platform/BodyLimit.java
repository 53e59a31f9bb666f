package dev.cardcatalog.platform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The request body limit ({@code quarkus.http.limits.max-body-size}) answered as a problem: a request whose
 * {@code Content-Length} is over the limit gets {@code 413} {@code application/problem+json} of type
 * {@code body-too-large} naming the length and the limit (RFC 9110 §15.5.14), and the connection is closed, as
 * Quarkus does; the body is never read. Quarkus makes the same check with an empty 413; this handler runs just
 * before it. A body sent without a length (chunked) that outgrows the limit is refused where it is read (the match
 * endpoint answers the same problem).
 */
@ApplicationScoped
public class BodyLimit {

    /** Just before Quarkus's own check ({@code HttpServerCommonHandlers.enforceMaxBodySize}, order -2). */
    private static final int ORDER = -3;

    private final Optional<MemorySize> maxBodySize;
    private final ObjectMapper json;

    public BodyLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") Optional<MemorySize> maxBodySize,
            ObjectMapper json) {
        this.maxBodySize = maxBodySize;
        this.json = json;
    }

    void install(@Observes Router router) {
        maxBodySize.ifPresent(limit -> router.route().order(ORDER).handler(ctx -> refuseOverLimit(ctx,
                limit.asLongValue())));
    }

    /** The problem for a body of {@code length} bytes over a limit of {@code limit} bytes. */
    public static Problem tooLarge(long length, long limit) {
        return Problem.of("body-too-large", "Body too large", 413, "The body is " + length
                + " bytes, over the limit of " + limit + " bytes.").with("field", "body");
    }

    private void refuseOverLimit(RoutingContext ctx, long limit) {
        String declared = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        long length;
        try {
            length = declared == null ? -1 : Long.parseLong(declared.trim());
        } catch (NumberFormatException e) {
            length = -1; // Vert.x's HTTP codec refuses a malformed length before any handler runs
        }
        if (length <= limit) {
            ctx.next();
            return;
        }
        String body;
        try {
            body = json.writeValueAsString(tooLarge(length, limit).at(ctx.request().path()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a problem record is always serialisable", e);
        }
        ctx.response().setStatusCode(413).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .putHeader(HttpHeaders.CONNECTION, "close").end(body);
    }
}
